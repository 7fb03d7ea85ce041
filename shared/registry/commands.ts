import type { Runtime } from '../runtime.js';
import { isUniqueViolation, type Db } from '../platform/db.js';
import { NotFound, Unprocessable, type ErrorKind } from '../platform/errors.js';
import { HclSyntaxError, inspectArchiveFiles, moduleFileKind } from './module-config.rules.js';
import {
  deleteModule,
  findTestRun,
  insertModule,
  type RegistryModuleRow,
  type TestRunRow,
  insertQueuedTestRun,
  type TestRunRequest,
} from '../module-tests/index.js';
import { offerNoCodeModule } from './no-code.js';
import {
  deleteModuleVersion,
  findModuleVersion,
  findModuleVersionById,
  insertModuleVersion,
  moveModuleVersion,
  setVersionTestRun,
  versionsOfModules,
  type ModuleVersionRow,
} from './repo.js';
import { insertCv, moveCv, intakeArchive, UploadRefused } from '../configuration-versions/index.js';
import { enqueueAfterCommit, enqueueAllAfterCommit, jobs } from '../platform/queues.js';

/**
 * Creates a registry module; `noCode` also offers it for no-code provisioning at its latest
 * version (the older way clients ask for that), in the same transaction.
 */
export async function createRegistryModule(
  rt: Runtime,
  attrs: Parameters<typeof insertModule>[1],
  noCode: boolean,
): Promise<RegistryModuleRow> {
  return rt.db.transaction(async (tx) => {
    const module = await insertModule(tx, attrs);
    if (noCode) await offerNoCodeModule(tx, module.organization_name, module.id, {});
    return module;
  });
}

export interface ModuleVersionInput {
  version: string;
  commitSha: string | null;
  /** A test run of this module whose result the version carries. */
  testRunId: string | null;
  createdById: string | null;
}

/** Creates a pending version of a private module; its archive comes through the upload URL. */
export async function createModuleVersion(
  rt: Runtime,
  module: RegistryModuleRow,
  input: ModuleVersionInput,
): Promise<ModuleVersionRow> {
  if (module.registry_name !== 'private')
    throw new Unprocessable('versions of a public module are published in the public registry', {
      attribute: 'version',
    });
  if (input.testRunId && !(await findTestRun(rt.db, module.id, input.testRunId))) {
    throw new Unprocessable(`test run ${input.testRunId} is not a test run of this module`, {
      relationship: 'test-run',
      id: true,
    });
  }
  const taken = () =>
    new Unprocessable(`version ${input.version} of this module already exists`, { attribute: 'version' });
  if (await findModuleVersion(rt.db, module.id, input.version)) throw taken();
  try {
    return await insertModuleVersion(rt.db, {
      registry_module_id: module.id,
      version: input.version,
      commit_sha: input.commitSha,
      test_run_id: input.testRunId,
      created_by_id: input.createdById,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

/** The module's `.tf` files are needed whole (the archive is refused past the caps); READMEs are shown when they fit. */
const keepModuleFile = (path: string) =>
  ({ tf: 'need' as const, readme: 'may' as const, none: null })[moduleFileKind(path) ?? 'none'];

/** Whether a database error is about the data written (PostgreSQL's class 22, e.g. text it cannot store). */
const dataException = (err: unknown) => /^22/.test(String((err as { code?: unknown } | null)?.code ?? ''));

/**
 * Accepts a pending version's archive as it arrives, with the same checks and limits as a
 * configuration version's (see intakeArchive), keeping the text of its `.tf` files and READMEs.
 * Once whole, the module's inputs, outputs, resources, dependencies and submodules are read from
 * them; the version becomes `ok` with the archive, or `reg_ingress_failed` with the reason (and
 * nothing stored) when the archive or its files are refused, whatever in them the reading or the
 * database cannot take.
 */
export async function acceptModuleUpload(
  rt: Runtime,
  versionId: string,
  body: AsyncIterable<Buffer>,
  declaredBytes?: number,
): Promise<ModuleVersionRow> {
  const before = await findModuleVersionById(rt.db, versionId);
  if (!before) throw new UploadRefused('not-found', 'not found', 'module version not found');
  if (before.status !== 'pending')
    throw new UploadRefused('forbidden', 'forbidden', 'this upload URL has already been used');
  const refuse = async (kind: ErrorKind, title: string, message: string): Promise<never> => {
    await moveModuleVersion(rt.db, versionId, 'fail', { error: message.replaceAll('\0', '') });
    throw new UploadRefused(kind, title, message);
  };
  const { writer, texts } = await intakeArchive(rt, body, declaredBytes, refuse, keepModuleFile);
  let committed = false;
  try {
    let details: ReturnType<typeof inspectArchiveFiles>;
    try {
      details = inspectArchiveFiles(texts);
    } catch (err) {
      // Whatever fails in reading the files refuses the version: a file the parser does not
      // expect is the uploader's, and must not leave the version pending.
      if (!(err instanceof HclSyntaxError))
        rt.logger.warn('module version: reading its files failed', { versionId, error: String(err) });
      const reason = err instanceof HclSyntaxError ? `: ${err.message}` : '';
      return await refuse('invalid', 'invalid module', `the module's configuration cannot be read${reason}`);
    }
    if (details.root.empty) {
      await refuse('invalid', 'invalid module', 'the archive has no .tf files at its root');
    }
    const moved = await rt.db
      .transaction(async (tx) => {
        const stored = await writer.finish(tx);
        const row = await moveModuleVersion(tx, versionId, 'ingest', {
          archive_object_id: stored.id,
          readme: details.root.readme,
          root: details.root,
          submodules: details.submodules,
        });
        if (!row) throw new UploadRefused('forbidden', 'forbidden', 'this upload URL has already been used');
        return row;
      })
      .catch((err: unknown) =>
        dataException(err)
          ? refuse('invalid', 'invalid module', "the module's files hold text the database cannot store")
          : Promise.reject(err),
      );
    committed = true;
    return moved;
  } catch (err) {
    if (!committed) await writer.discard().catch(() => undefined);
    throw err;
  }
}

/** Deletes versions with their archives, inside `tx`. */
async function deleteVersions(rt: Runtime, tx: Db, versions: ModuleVersionRow[]): Promise<void> {
  for (const v of versions) {
    await deleteModuleVersion(tx, v.id);
    if (v.archive_object_id) await rt.store.delete(tx, v.archive_object_id);
  }
}

/** Deletes one version of a module (the registry stops offering it at once). */
export const removeModuleVersion = (rt: Runtime, version: ModuleVersionRow) =>
  rt.db.transaction((tx) => deleteVersions(rt, tx, [version]));

/** Deletes modules with their versions, archives, test runs and variables, in one transaction. */
export async function removeModules(rt: Runtime, modules: RegistryModuleRow[]): Promise<void> {
  await rt.db.transaction(async (tx) => {
    await deleteVersions(
      rt,
      tx,
      await versionsOfModules(
        tx,
        modules.map((m) => m.id),
      ),
    );
    for (const m of modules) await deleteModule(tx, m.id);
  });
  // A module that published from a repository leaves its webhook to be removed when nothing else follows it.
  await enqueueAllAfterCommit(
    rt.queues,
    modules.flatMap((m) => (m.vcs_hook_id ? [jobs.vcsHookSync(m.vcs_hook_id)] : [])),
    rt.logger,
  );
}

/**
 * Queues a test run of a published version: the version's archive is copied into a module test
 * configuration version of the module, and the run is recorded on the version (its result is the
 * version's test result). The copy is written before the transaction opens, so the transaction
 * never waits on a second connection reading the archive.
 */
export async function testModuleVersion(
  rt: Runtime,
  module: RegistryModuleRow,
  version: ModuleVersionRow,
  req: Omit<TestRunRequest, 'configurationVersionId'>,
): Promise<TestRunRow> {
  if (version.status !== 'ok' || !version.archive_object_id) {
    throw new Unprocessable(
      `version ${version.version} is ${version.status}; only a published version can be tested`,
      undefined,
    );
  }
  const archive = await rt.store.get(version.archive_object_id);
  if (!archive) throw new NotFound("the version's archive is gone");
  const writer = await rt.store.create({ contentType: 'application/x-tar+gzip', prefix: 'archive' });
  let run: TestRunRow;
  try {
    for await (const piece of archive) await writer.write(piece as Buffer);
    run = await rt.db.transaction(async (tx) => {
      const copy = await writer.finish(tx);
      const cv = await insertCv(tx, {
        registry_module_id: module.id,
        source: req.source,
        auto_queue_runs: false,
        speculative: true,
        provisional: false,
        created_by_id: req.createdById,
      });
      await moveCv(tx, cv.id, 'upload', { archive_object_id: copy.id }, ['pending']);
      const inserted = await insertQueuedTestRun(tx, rt.config.encryptionKey, module, {
        ...req,
        configurationVersionId: cv.id,
      });
      await setVersionTestRun(tx, version.id, inserted.id);
      return { ...inserted, module_version_id: version.id };
    });
  } catch (err) {
    await writer.discard().catch(() => undefined);
    throw err;
  }
  await enqueueAfterCommit(rt.queues, jobs.testRun(run.id), rt.logger);
  return run;
}
