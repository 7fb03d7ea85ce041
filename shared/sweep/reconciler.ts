import type { Knex } from 'knex';
import { pageAfter, type Db } from '../platform/db.js';
import type { Logger } from '../platform/logger.js';
import { deliveryJobs, jobs, requeue, type JobSpec, type Queues } from '../platform/queues.js';
import { mailDue } from '../mail/index.js';
import { runsWithQueuedEvaluations } from '../policies/index.js';
import { runsDue, nextStep } from '../runs/index.js';
import { taskRequestsDue, taskResultsPastDeadline } from '../run-tasks/index.js';
import { deliveriesDue, verificationsDue } from '../notifications/index.js';
import { testRunsDue } from '../module-tests/index.js';
import { archivesDue, commitStatusesDue, fetchesDue } from '../vcs/index.js';
import type { RunStatus } from '../runs/machine.js';

/** Rows one page of a source's walk reads: every due row is reached, however many, a page at a time. */
export const RECONCILE_BATCH = 500;

/** A kind of durable work: finds rows that are due or stuck, a page at a time, and names the job each one needs. */
export interface ReconcileSource {
  name: string;
  /** The due rows whose key comes after `after`, at most `limit`: the jobs they need, and the page's last key when the walk goes on (else null). */
  page(db: Db, after: string | null, limit: number): Promise<{ specs: JobSpec[]; last: string | null }>;
}

/** A source over `rows` (a query selecting each due row's unique `key`, see pageAfter), whose pages `jobsOf` turns into jobs. */
function source<R extends { key: string }>(
  name: string,
  rows: (db: Db) => Knex.QueryBuilder,
  jobsOf: (page: R[]) => JobSpec[],
): ReconcileSource {
  return {
    name,
    async page(db, after, limit) {
      const found = (await pageAfter(db, rows(db), after, limit)) as R[];
      return { specs: jobsOf(found), last: found.length < limit ? null : found[found.length - 1].key };
    },
  };
}

type Keyed<T> = T & { key: string };

/** Every kind of durable work the reconciler watches; each area adds its source here. */
export const reconcileSources: ReconcileSource[] = [
  source<Keyed<{ id: string }>>('mail', mailDue, (rows) => rows.map((r) => jobs.mailDelivery(r.id))),
  // Runs waiting for a step. Running ones whose worker's lease ran out are handed on by the sweep itself (see handOnAbandonedRuns).
  source<Keyed<{ id: string; status: RunStatus }>>('runs', runsDue, (rows) =>
    rows.map((r) => nextStep(r)).filter((s): s is JobSpec => s !== null),
  ),
  // Runs in their post-plan stage whose policy evaluations wait for the run pipeline.
  source('policy-evaluations', runsWithQueuedEvaluations, (rows) => rows.map((r) => jobs.runStep(r.key, 'evaluate'))),
  // Run task requests due for delivery, or whose sender died.
  source<Keyed<{ id: string; dispatch_attempts: number; dispatch_status: string; organization_name: string }>>(
    'run-task-results',
    taskRequestsDue,
    (rows) =>
      rows.map((r) =>
        jobs.taskDispatch(
          r.id,
          r.organization_name,
          r.dispatch_status === 'sending' ? r.dispatch_attempts : r.dispatch_attempts + 1,
        ),
      ),
  ),
  source<Keyed<{ id: string }>>('run-task-deadlines', taskResultsPastDeadline, (rows) =>
    rows.map((r) => jobs.taskDeadline(r.id, 0)),
  ),
  // Notification deliveries due (first tries and retries) or whose sender died. They are regrouped
  // into jobs here, so a row whose job is merely slow may get a second one: claiming is compare-and-set.
  source<Keyed<{ id: string; attempts: number; status: string; organization_name: string }>>(
    'notification-deliveries',
    deliveriesDue,
    (rows) =>
      deliveryJobs(
        rows.map((r) => ({
          id: r.id,
          attempt: r.status === 'sending' ? r.attempts : r.attempts + 1,
          organization: r.organization_name,
        })),
      ),
  ),
  // Module test runs waiting for a worker, and running ones whose worker's lease has expired.
  source<Keyed<{ id: string }>>('test-runs', testRunsDue, (rows) => rows.map((r) => jobs.testRun(r.id))),
  source<Keyed<{ id: string; organization_name: string }>>('verifications', verificationsDue, (rows) =>
    rows.map((r) => jobs.verify(r.id, r.organization_name)),
  ),
  // Configuration versions waiting for their repository's files.
  source<Keyed<{ id: string; organization_name: string; fetching_at: string }>>('vcs-fetches', fetchesDue, (rows) =>
    rows.map((r) => jobs.vcsFetch(r.id, r.organization_name, r.fetching_at)),
  ),
  // Fetched versions whose runs are all done, still holding their files.
  source<Keyed<{ id: string }>>('vcs-archives', archivesDue, (rows) => rows.map((r) => jobs.vcsArchive(r.id, 'due'))),
  // Runs whose commit statuses are due: retries, and sends whose process died.
  source<Keyed<{ organization_name: string }>>('commit-statuses', commitStatusesDue, (rows) =>
    rows.map((r) => jobs.commitStatus(r.key, r.organization_name, 'due')),
  ),
];

/**
 * Gives every due row of `source` its job, walking them a page of `batch` at a time. Job ids are
 * deterministic, so work that still has a live job is left alone. Returns how many jobs were
 * missing (lost with Redis, or never added by a process that died): the count of real
 * restorations. A finished job of a row still due is replaced, but not counted.
 */
export async function restoreJobs(
  db: Db,
  queues: Queues,
  from: ReconcileSource,
  batch = RECONCILE_BATCH,
): Promise<number> {
  let restored = 0;
  let after: string | null = null;
  do {
    const { specs, last }: Awaited<ReturnType<ReconcileSource['page']>> = await from.page(db, after, batch);
    for (const spec of specs) if ((await requeue(queues, spec)) === 'missing') restored++;
    after = last;
  } while (after !== null);
  return restored;
}

/** restoreJobs for one source, logged when it restored any: the sweep's step for that source. */
export async function restoreSource(db: Db, queues: Queues, logger: Logger, source: ReconcileSource): Promise<number> {
  const n = await restoreJobs(db, queues, source);
  if (n) logger.info('reconciler restored jobs', { source: source.name, count: n });
  return n;
}

/** Gives every due or stuck row of every source its job (see restoreSource); returns the restorations by source. */
export async function reconcile(
  db: Db,
  queues: Queues,
  logger: Logger,
  sources = reconcileSources,
): Promise<Record<string, number>> {
  const restored: Record<string, number> = {};
  for (const s of sources) restored[s.name] = await restoreSource(db, queues, logger, s);
  return restored;
}
