import type { Db } from './db.js';
import type { Logger } from './logger.js';
import { deliveryJobs, jobs, requeue, type JobSpec, type Queues } from './queues.js';
import { dueMailIds } from './repos/mail.js';
import { runsWithQueuedEvaluations } from './repos/policy-evaluations.js';
import { nextStep } from './usecases/runs.js';

/** A kind of durable work: finds rows that are due or stuck and names the job each one needs. */
export interface ReconcileSource {
  name: string;
  due(db: Db, limit: number): Promise<JobSpec[]>;
}

/** Every kind of durable work the reconciler watches; each area adds its source here. */
export const reconcileSources: ReconcileSource[] = [
  { name: 'mail', due: async (db, limit) => (await dueMailIds(db, limit)).map(jobs.mailDelivery) },
  {
    // Runs waiting for a step, and running ones whose worker's lease has expired.
    name: 'runs',
    due: async (db, limit) => {
      const rows = await db('runs')
        .whereIn('status', ['pending', 'plan_queued', 'policy_checking', 'confirmed', 'pre_apply_completed', 'apply_queued'])
        .orWhere((q) => q.whereIn('status', ['planning', 'applying']).andWhere((l) => l.whereNull('lease_until').orWhere('lease_until', '<', db.fn.now())))
        .orderBy('created_at')
        .limit(limit)
        .select('id', 'status');
      return rows.map((r) => nextStep(r)).filter((s): s is JobSpec => s !== null);
    },
  },
  {
    // Runs in their post-plan stage whose policy evaluations wait for the run pipeline.
    name: 'policy-evaluations',
    due: async (db, limit) => (await runsWithQueuedEvaluations(db, limit)).map((id) => jobs.runStep(id, 'evaluate')),
  },
  {
    // Run task requests due for delivery (or whose sender died), and results past their deadline.
    name: 'run-task-results',
    due: async (db, limit) => {
      const deliveries = await db('task_results as r')
        .join('runs', 'runs.id', 'r.run_id')
        .join('workspaces as w', 'w.id', 'runs.workspace_id')
        .where('r.status', 'pending')
        .andWhere((q) =>
          q
            .where((p) => p.where('r.dispatch_status', 'pending').andWhere('r.next_dispatch_at', '<=', db.fn.now()))
            .orWhere((p) => p.where('r.dispatch_status', 'sending').andWhere('r.dispatch_lease_until', '<', db.fn.now())),
        )
        .limit(limit)
        .select('r.id', 'r.dispatch_attempts', 'r.dispatch_status', 'w.organization_name');
      const expired = await db('task_results').whereIn('status', ['pending', 'running']).andWhere('deadline_at', '<=', db.fn.now()).limit(limit).pluck('id');
      return [
        ...deliveries.map((r) => jobs.taskDispatch(r.id, r.organization_name, r.dispatch_status === 'sending' ? r.dispatch_attempts : r.dispatch_attempts + 1)),
        ...(expired as string[]).map((id) => jobs.taskDeadline(id, 0)),
      ];
    },
  },
  {
    // Notification deliveries due (first tries and retries) or whose sender died. They are regrouped
    // into jobs here, so a row whose job is merely slow may get a second one: claiming is compare-and-set.
    name: 'notification-deliveries',
    due: async (db, limit) => {
      const rows = await db('notification_deliveries as d')
        .join('notification_configurations as c', 'c.id', 'd.configuration_id')
        .join('workspaces as w', 'w.id', 'c.workspace_id')
        .where((q) => q.where((p) => p.where('d.status', 'pending').andWhere('d.next_attempt_at', '<=', db.fn.now())).orWhere((p) => p.where('d.status', 'sending').andWhere('d.lease_until', '<', db.fn.now())))
        .orderBy('d.next_attempt_at')
        .limit(limit)
        .select('d.id', 'd.attempts', 'd.status', 'w.organization_name');
      return deliveryJobs(rows.map((r) => ({ id: r.id, attempt: r.status === 'sending' ? r.attempts : r.attempts + 1, organization: r.organization_name })));
    },
  },
  {
    // Module test runs waiting for a worker, and running ones whose worker's lease has expired.
    name: 'test-runs',
    due: async (db, limit) =>
      ((await db('test_runs')
        .where('status', 'queued')
        .orWhere((q) => q.where('status', 'running').andWhere((l) => l.whereNull('lease_until').orWhere('lease_until', '<', db.fn.now())))
        .orderBy('created_at')
        .limit(limit)
        .pluck('id')) as string[]).map(jobs.testRun),
  },
  {
    name: 'verifications',
    due: async (db, limit) =>
      (await db('verifications').where('status', 'pending').andWhere('created_at', '>', db.raw(`now() - interval '1 minute'`)).limit(limit).select('id', 'organization_name')).map((r) =>
        jobs.verify(r.id, r.organization_name),
      ),
  },
];

/**
 * Re-enqueues every due or stuck row. Job ids are deterministic, so work that still has a live
 * job is left alone; only rows whose job was lost (Redis flush, crashed worker) get a new one.
 */
export async function reconcile(db: Db, queues: Queues, logger: Logger, sources = reconcileSources, limit = 1000): Promise<Record<string, number>> {
  const restored: Record<string, number> = {};
  for (const source of sources) {
    let n = 0;
    for (const spec of await source.due(db, limit)) if (await requeue(queues, spec)) n++;
    restored[source.name] = n;
    if (n) logger.info('reconciler restored jobs', { source: source.name, count: n });
  }
  return restored;
}
