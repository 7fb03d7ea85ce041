import type { IdempotencyColumns } from '../platform/idempotency.repo.js';
import type { Runtime } from '../runtime.js';
import type { Db } from '../platform/db.js';
import { ApiError, Conflict, NotFound, type ErrorKind } from '../platform/errors.js';
import { intakeArchive, UploadRefused } from './archive-intake.js';
import { refusal, retentionMoves, type CvEvent, type CvFacts } from './machine.js';
import { FINAL_RUN_STATUSES } from '../runs/machine.js';
import {
  activeRunCount,
  archivableCvIds,
  giveBackCurrent,
  insertWorkspaceCv,
  isCurrentAnywhere,
  lockCv,
  makeCurrent,
  mayBeGivenBack,
  moveCv,
  type CvRow,
} from './repo.js';
import type { RunRow } from '../runs/repo.js';
import { afterMove, insertRun, refuseSpeculativeBeyondCap } from '../runs/commands.js';
import { enqueueAfterCommit, jobs } from '../platform/queues.js';
import { findModule, type TestRunRow } from '../module-tests/repo.js';
import { findWorkspace } from '../workspaces/repo.js';
import { insertQueuedTestRun } from '../module-tests/test-runs.js';
import { secretsWithheldFrom } from '../runs/withheld-secrets.js';

/**
 * Marks a pending version errored (compare-and-set) and explains why. Used for corrupt, empty
 * or oversized uploads; nothing else changes.
 */
export async function failUpload(db: Db, cvId: string, message: string): Promise<CvRow | undefined> {
  return db.transaction(async (tx) => {
    const cv = await moveCv(tx, cvId, 'fail', { error: 'invalid-archive', error_message: message }, ['pending']);
    // An errored version is no use for runs: its workspace gets back the version it displaced.
    if (cv) await giveBackCurrent(tx, cv);
    return cv;
  });
}

/**
 * Creates a workspace's configuration version, waiting for its upload. One that is not provisional
 * becomes the workspace's current version at once, as in Terraform Cloud (clients read it back
 * as current before uploading); a provisional one becomes current only when its run applies.
 */
export async function createWorkspaceCv(
  rt: Runtime,
  attrs: Pick<CvRow, 'source' | 'auto_queue_runs' | 'speculative' | 'provisional' | 'created_with_plan_access_only'> & {
    workspace_id: string;
    created_by_id: string | null;
  },
  idempotency: IdempotencyColumns | null = null,
): Promise<CvRow> {
  const cv = await insertWorkspaceCv(rt.db, attrs, idempotency);
  // The workspace was deleted since the caller found it.
  if (!cv) throw new NotFound();
  return cv;
}

/**
 * Accepts the archive of a pending version as it arrives: each piece is checked (gzip, tar
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
): Promise<{ cv: CvRow; run: RunRow | null }> {
  const cvId = before.id;
  if (before.status !== 'pending')
    throw new UploadRefused('forbidden', 'forbidden', 'this upload URL has already been used');
  // A speculative version that would queue one run too many is refused before anything is stored.
  if (before.workspace_id && before.auto_queue_runs && before.speculative)
    await refuseSpeculativeBeyondCap(rt, before.workspace_id);

  const refuse = async (kind: ErrorKind, title: string, message: string): Promise<never> => {
    await failUpload(rt.db, cvId, message);
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
      const cv = await moveCv(tx, cvId, 'upload', { archive_object_id: stored.id }, ['pending']);
      if (!cv) throw new UploadRefused('forbidden', 'forbidden', 'this upload URL has already been used');
      if (!cv.workspace_id) return { cv, run: null, testRun: await testRunForUpload(tx, rt.config.encryptionKey, cv) };
      if (!cv.provisional) await makeCurrent(tx, cv.workspace_id, cv);
      // The run takes the workspace's auto-apply, as a run created through the API without one does,
      // and is queued as the version's creator would queue it (see secretsWithheldFrom).
      const workspace = cv.auto_queue_runs ? await findWorkspace(tx, cv.workspace_id) : undefined;
      const run = workspace
        ? await insertRun(m, {
            workspace_id: cv.workspace_id,
            configuration_version_id: cv.id,
            source: 'tfe-configuration-version',
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

/** The facts a version's preconditions depend on, read in the transaction that locked its row. */
async function factsOf(tx: Db, cv: CvRow): Promise<CvFacts> {
  return {
    status: cv.status,
    source: cv.source,
    isCurrent: await isCurrentAnywhere(tx, cv.id),
    activeRuns: await activeRunCount(tx, cv.id, FINAL_RUN_STATUSES),
    hasBackingData: cv.archive_object_id !== null,
  };
}

/** Moves a locked version by `event`; archive and permanent delete discard its archive, soft delete keeps it for a restore. */
async function moveLocked(
  rt: Pick<Runtime, 'store'>,
  tx: Db,
  cv: CvRow,
  event: Extract<CvEvent, 'archive' | 'soft_delete' | 'restore' | 'permanent_delete'>,
): Promise<CvRow | undefined> {
  const discard = event === 'archive' || event === 'permanent_delete';
  const moved = await moveCv(tx, cv.id, event, discard ? { archive_object_id: null } : {}, [cv.status]);
  if (moved && discard && cv.archive_object_id) await rt.store.delete(tx, cv.archive_object_id);
  return moved;
}

/** The backing-data actions of the self-hosted edition and archive, with their preconditions. */
export async function cvAction(
  rt: Runtime,
  cvId: string,
  event: Extract<CvEvent, 'archive' | 'soft_delete' | 'restore' | 'permanent_delete'>,
  refusedAs: 'conflict' | 'bad-request',
): Promise<CvRow> {
  return rt.db.transaction(async (tx) => {
    const cv = await lockCv(tx, cvId);
    if (!cv) throw new NotFound('configuration version not found');
    const why = refusal(event, await factsOf(tx, cv));
    // Worded as Terraform Cloud words it (clients such as go-tfe look for "transition not allowed").
    if (why) throw new ApiError(refusedAs, 'transition not allowed', `transition not allowed: ${why}`);
    const moved = await moveLocked(rt, tx, cv, event);
    if (!moved) throw new Conflict('the configuration version changed concurrently; try again');
    return moved;
  });
}

/**
 * Deletes a version's backing data for a data retention policy, in the caller's transaction: the
 * soft delete and permanent delete the actions would make, so the version then reads as one
 * permanently deleted by hand. False, with nothing changed, when the version keeps its files: the
 * actions' rules refuse, a run in progress uses it, or a pending upload would make it current again.
 */
export async function purgeCvData(rt: Pick<Runtime, 'store'>, tx: Db, cvId: string): Promise<boolean> {
  let cv = await lockCv(tx, cvId);
  if (!cv) return false;
  const facts = await factsOf(tx, cv);
  const moves = retentionMoves({ ...facts, isCurrent: facts.isCurrent || (await mayBeGivenBack(tx, cv.id)) });
  if (!moves) return false;
  for (const event of moves) {
    // The row is locked: each move starts from the status the last one left.
    const moved: CvRow | undefined = await moveLocked(rt, tx, cv, event);
    if (!moved) throw new Conflict('the configuration version changed concurrently');
    cv = moved;
  }
  return true;
}

/**
 * Maintenance: archives API-created versions older than `days` that are uploaded, not current
 * anywhere and have no active runs. Returns the ids archived.
 */
export async function collectOldVersions(rt: Runtime, days: number, limit = 500): Promise<string[]> {
  const candidates = await archivableCvIds(rt.db, days, limit, FINAL_RUN_STATUSES);
  const archived: string[] = [];
  for (const id of candidates) {
    try {
      await cvAction(rt, id, 'archive', 'conflict');
      archived.push(id);
    } catch (err) {
      // Someone changed it since the scan (a new run, a move): skip it this round.
      if (!(err instanceof ApiError)) throw err;
    }
  }
  return archived;
}
