import type { Runtime } from '../runtime.js';
import type { Db } from '../platform/db.js';
import type { ErrorKind } from '../platform/errors.js';
import { enqueueAfterCommit, jobs } from '../platform/queues.js';
import {
  failUpload,
  intakeArchive,
  refetchVersion,
  makeCurrent,
  moveCv,
  UploadRefused,
  type CvRow,
} from '../configuration-versions/index.js';
import { findModule, insertQueuedTestRun, type TestRunRow } from '../module-tests/index.js';
import { findWorkspace } from '../workspaces/index.js';
import type { RunRow } from './repo.js';
import { afterMove, insertRun, refuseSpeculativeBeyondCap } from './commands.js';
import { isApiSource } from '../configuration-versions/machine.js';
import { versionOfRun } from './repo.js';
import { secretsWithheldFrom } from './withheld-secrets.js';

// Accepting an upload lives with runs: what follows it, queueing the version's run or test run, builds on runs.

/**
 * A version fetched from its repository: the run it queues carries the commit's message. Fetched
 * `again` (it was archived), its files serve the runs already waiting for them: nothing is queued
 * and the workspace's current version stays as it is.
 */
export interface FetchedFrom {
  message: string;
  again: boolean;
}

/**
 * Accepts the archive of a pending version (or, `fetched`, of one fetched from its repository) as it arrives: each piece is checked (gzip, tar
 * structure, paths, links, entry count, unpacked size) before it is written to the store, and the
 * first problem refuses the upload there (the version errors, nothing stays stored). Once whole,
 * the version moves to `uploaded`, becomes current unless provisional, and a run is queued when
 * auto-queue-runs is on, all in one short transaction. A second upload to the same version finds
 * it no longer pending. A body cut off by the client leaves the version pending (it may upload
 * again). `before` is the version as read when the upload began.
 */
export async function acceptUpload(
  rt: Runtime,
  before: CvRow,
  body: AsyncIterable<Buffer>,
  declaredBytes?: number,
  fetched?: FetchedFrom,
): Promise<{ cv: CvRow; run: RunRow | null }> {
  const cvId = before.id;
  const from = fetched ? 'fetching' : 'pending';
  if (before.status !== from)
    throw new UploadRefused('forbidden', 'forbidden', 'this upload URL has already been used');
  // A speculative version that would queue one run too many is refused before anything is stored.
  if (before.workspace_id && before.auto_queue_runs && before.speculative && !fetched?.again)
    await refuseSpeculativeBeyondCap(rt, before.workspace_id);

  const refuse = async (kind: ErrorKind, title: string, message: string): Promise<never> => {
    await failUpload(rt.db, cvId, message, from);
    throw new UploadRefused(kind, title, message);
  };
  const { writer } = await intakeArchive(rt, body, declaredBytes, refuse);
  let committed = false;
  try {
    // The object is finished in the transaction that points the version at it: a crash before
    // the commit leaves it unfinished, for the sweep.
    const [result, followUps] = await rt.lifecycle.transaction(rt.db, async (m) => {
      const { tx } = m;
      const stored = await writer.finish(tx);
      const cv = await moveCv(tx, cvId, 'upload', { archive_object_id: stored.id }, [from]);
      if (!cv) throw new UploadRefused('forbidden', 'forbidden', 'this upload URL has already been used');
      if (!cv.workspace_id) return { cv, run: null, testRun: await testRunForUpload(tx, rt.config.encryptionKey, cv) };
      if (fetched?.again) return { cv, run: null, testRun: null };
      if (!cv.provisional) await makeCurrent(tx, cv.workspace_id, cv);
      // The run takes the workspace's auto-apply, as a run created through the API without one does,
      // and is queued as the version's creator would queue it (see secretsWithheldFrom).
      const workspace = cv.auto_queue_runs ? await findWorkspace(tx, cv.workspace_id) : undefined;
      const run = workspace
        ? await insertRun(m, {
            workspace_id: cv.workspace_id,
            configuration_version_id: cv.id,
            source: 'tfe-configuration-version',
            ...(fetched ? { message: fetched.message } : {}),
            plan_only: cv.speculative,
            auto_apply: !cv.speculative && workspace.auto_apply === true,
            created_by_id: cv.created_by_id,
            secrets_withheld: await secretsWithheldFrom(tx, workspace.organization_name, {
              planOnly: cv.speculative,
              planAccessOnly: cv.created_with_plan_access_only,
            }),
          })
        : null;
      return { cv, run, testRun: null };
    });
    committed = true;
    if (result.run) await afterMove(rt, result.run, followUps);
    if (result.testRun) await enqueueAfterCommit(rt.queues, jobs.testRun(result.testRun.id), rt.logger);
    return { cv: result.cv, run: result.run };
  } catch (err) {
    // Refused, cut off or lost a race: what was written of the archive goes (an unfinished object
    // left by a crash here is removed by the sweep).
    if (!committed) await writer.discard().catch(() => undefined);
    throw err;
  }
}

/**
 * A module test version queues a test run with the defaults once its files arrive, unless the
 * terraform CLI created it (the CLI queues its own test run, with its variables and filters).
 */
async function testRunForUpload(tx: Db, key: Buffer, cv: CvRow): Promise<TestRunRow | null> {
  if (!cv.auto_queue_runs || !cv.registry_module_id) return null;
  const module = await findModule(tx, cv.registry_module_id);
  if (!module) return null;
  return insertQueuedTestRun(tx, key, module, {
    configurationVersionId: cv.id,
    verbose: false,
    testDirectory: 'tests',
    filters: [],
    variables: [],
    parallelism: null,
    source: 'tfe-configuration-version',
    createdById: cv.created_by_id,
  });
}

/**
 * Whether a run's plan waits for its configuration's files: a version fetched from a repository
 * and archived since is fetched again (its fetch queued here), and one being fetched is waited
 * for. The run stays queued; the fetch, or the reconciler, queues its plan again.
 */
export async function waitsForFiles(rt: Runtime, runId: string): Promise<boolean> {
  const cv = await versionOfRun(rt.db, runId);
  if (!cv || isApiSource(cv.source)) return false;
  if (cv.status === 'fetching') return true;
  if (cv.status !== 'archived') return false;
  const fetching = await refetchVersion(rt.db, cv.id);
  if (fetching)
    await enqueueAfterCommit(
      rt.queues,
      jobs.vcsFetch(cv.id, cv.organization_name, fetching.status_timestamps['fetching-at']),
      rt.logger,
    );
  return true;
}
