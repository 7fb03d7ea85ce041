import type { IdempotencyColumns } from '../idempotency/repo.js';
import type { Runtime } from '../runtime.js';
import type { Db } from '../platform/db.js';
import { ApiError, Conflict, NotFound } from '../platform/errors.js';
import { isApiSource, refusal, retentionMoves, type CvEvent, type CvFacts } from './machine.js';
import { FINAL_RUN_STATUSES } from '../runs/machine.js';
import {
  activeRunCount,
  archivableCvIds,
  giveBackCurrent,
  insertWorkspaceCv,
  isCurrentAnywhere,
  lockCv,
  mayBeGivenBack,
  moveCv,
  type CvRow,
} from './repo.js';

/**
 * Marks a pending version errored (compare-and-set) and explains why. Used for corrupt, empty
 * or oversized uploads, and (`from` fetching) for a repository that could not be fetched.
 */
export async function failUpload(
  db: Db,
  cvId: string,
  message: string,
  from: 'pending' | 'fetching' = 'pending',
): Promise<CvRow | undefined> {
  return db.transaction(async (tx) => {
    const error = from === 'fetching' ? 'fetch-failed' : 'invalid-archive';
    const cv = await moveCv(tx, cvId, 'fail', { error, error_message: message }, [from]);
    // An errored upload is no use for runs: its workspace gets back the version it displaced. A
    // fetched version became current only once uploaded, and one fetched again stays current.
    if (cv && from === 'pending') await giveBackCurrent(tx, cv);
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
 * Archives a version fetched from a repository once no run uses it and a later one has become
 * current (its files are fetched again when a run needs them); false, with nothing changed, while
 * a run uses it, it is current, or it is not such a version.
 */
export async function archiveFetchedVersion(rt: Pick<Runtime, 'db' | 'store'>, cvId: string): Promise<boolean> {
  return rt.db.transaction(async (tx) => {
    const cv = await lockCv(tx, cvId);
    if (!cv || cv.status !== 'uploaded' || isApiSource(cv.source)) return false;
    // The current version keeps its files: assessments and runs started by hand read them.
    if (await isCurrentAnywhere(tx, cv.id)) return false;
    if (await activeRunCount(tx, cv.id, FINAL_RUN_STATUSES)) return false;
    return Boolean(await moveLocked(rt, tx, cv, 'archive'));
  });
}

/**
 * Asks for an archived version's files again (it moves to `fetching`), for a run that needs them;
 * the caller queues the fetch. Undefined when it is not archived (already fetching, or uploaded).
 */
export async function refetchVersion(db: Db, cvId: string): Promise<CvRow | undefined> {
  return moveCv(db, cvId, 'fetch', {}, ['archived']);
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
