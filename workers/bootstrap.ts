import { UnrecoverableError, Worker } from 'bullmq';
import type { Runtime } from '../shared/runtime.js';
import { openWorkerServices } from '../shared/worker-runtime.js';
import { bullPrefix, JOB, type JobSpecOf, type QueueName } from '../shared/platform/queues.js';
import type { AnyProcessor, WorkerDeps } from './context.js';
import { concurrency, PROCESSORS } from './processors.js';
import { OrganizationSlots } from './organization-slots.js';
import { startSweeper } from './sweeper.js';
import { observedJob } from './observe.js';
import { POLL_INTERVAL_MS } from '../shared/vcs/index.js';

/** Queues whose jobs run Terraform or policy runtimes, which need the run sandbox. */
const SANDBOXED_QUEUES: readonly QueueName[] = ['run-pipeline', 'test-run-execution'];

// A killed worker's jobs come back after at most lock + stalled-check time (BullMQ renews the lock
// of a running job every half lock), so a crashed worker delays its work by seconds, not minutes.
const JOB_LOCK_MS = 10_000;
const STALLED_CHECK_MS = 5_000;
/**
 * How long a job of an outbound queue whose organization holds its share waits in the process for a
 * slot before it is parked: what another organization's job may wait longer for a slot to fetch it.
 */
const OUTBOUND_HOLD_MS = 200;
/** Between the interrupt of a phase stopped at shutdown and its kill. */
const STOP_GRACE_MS = 2_000;

/** The fair share a queue's jobs take their slots from (see the processors' inFairSlot), if any. */
function fairSlotsOf(deps: WorkerDeps, queue: QueueName): OrganizationSlots | undefined {
  // The Terraform slots (deps.slots) are shared by the queues whose jobs run Terraform.
  if (SANDBOXED_QUEUES.includes(queue)) return deps.slots;
  return queue in deps.outboundSlots ? deps.outboundSlots[queue as keyof WorkerDeps['outboundSlots']] : undefined;
}

export interface WorkerHandle {
  queues: QueueName[];
  /** Stops taking jobs and waits for active ones up to the budget; then hands the rest back. */
  stop(budgetMs: number): Promise<void>;
}

/** Starts processors for the given queues. */
export async function startWorkers(rt: Runtime, queueNames: readonly QueueName[]): Promise<WorkerHandle> {
  const services = openWorkerServices(rt);
  const { connection, sandbox } = services;
  if (queueNames.some((q) => SANDBOXED_QUEUES.includes(q))) {
    // Refused runs say why in their log too; the operator sees it here first.
    const problem = await sandbox.check();
    const unbounded = sandbox.unbounded();
    if (problem) rt.logger.error(`runs will be refused: ${problem}`);
    else if (rt.config.runSandbox === 'none')
      rt.logger.warn(
        'RUN_SANDBOX=none: Terraform and policy runtimes run unsandboxed, as this worker (unsafe: development only)',
      );
    else if (unbounded) {
      rt.logger.warn(
        `runs are not bounded as a whole (RUN_CGROUPS=auto): ${unbounded}; memory is bounded per process (address space) and processes per user, and CPU weight is not set (docs/run-isolation.md)`,
      );
    }
  }
  const deps: WorkerDeps = {
    ...rt,
    ...services,
    slots: new OrganizationSlots(rt.config.runSlotsPerOrganization),
    // The API waits for verifications, so their jobs are tried again sooner than the others. Jobs
    // of these queues come in a fair order between organizations (shared/platform/queues.ts), so one over
    // its share may wait a little in the process for a slot instead of being parked at once.
    outboundSlots: {
      verification: new OrganizationSlots(rt.config.verificationSlotsPerOrganization, 500, OUTBOUND_HOLD_MS),
      'run-task-dispatch': new OrganizationSlots(
        rt.config.taskDispatchSlotsPerOrganization,
        undefined,
        OUTBOUND_HOLD_MS,
      ),
      'notification-delivery': new OrganizationSlots(
        rt.config.deliverySlotsPerOrganization,
        undefined,
        OUTBOUND_HOLD_MS,
      ),
    },
  };
  const workers: Worker[] = [];
  const active: QueueName[] = [];

  for (const name of queueNames) {
    // A job's name comes from Redis: any name may be asked for, and an unknown one fails the job.
    const handlers: Readonly<Record<string, AnyProcessor | undefined>> = PROCESSORS[name];
    const worker = new Worker(
      name,
      async (job, token) => {
        const handler = handlers[job.name];
        if (!handler) throw new UnrecoverableError(`unknown job ${job.name} on queue ${name}`);
        await observedJob(rt, name, job, () => handler(job, deps, token));
      },
      {
        connection,
        prefix: bullPrefix(rt.config.queuePrefix),
        concurrency: concurrency(rt, name),
        autorun: true,
        lockDuration: JOB_LOCK_MS,
        stalledInterval: STALLED_CHECK_MS,
      },
    );
    // Failures of the processor are logged by observedJob; this catches those BullMQ decides (a job that stalled too often).
    worker.on('failed', (job, err) => {
      if (/stalled/i.test(err.message))
        rt.logger.warn('job failed', { queue: name, jobId: job?.id, error: err.message });
    });
    worker.on('error', (err) => rt.logger.warn('worker error', { queue: name, error: String(err) }));
    const fair = fairSlotsOf(deps, name);
    if (fair) worker.on('drained', () => fair.drained());
    workers.push(worker);
    active.push(name);
  }

  if (active.includes('deadline-expiry')) {
    // The sweep runs from a timer in every process (startSweeper); a scheduler of it that an
    // earlier version left in Redis goes. Maintenance stays a scheduler, one per name however
    // many processes upsert it (losing it with Redis delays it until this process restarts).
    await rt.queues['deadline-expiry'].removeJobScheduler('reconciler');
    if (rt.config.cvGcAfterDays > 0 || rt.config.retentionDays > 0) {
      await rt.queues['deadline-expiry'].upsertJobScheduler('maintenance', { every: 3_600_000 }, {
        name: JOB.maintenance,
        data: {},
      } satisfies Pick<JobSpecOf<'deadline-expiry', typeof JOB.maintenance>, 'name' | 'data'>);
    } else {
      await rt.queues['deadline-expiry'].removeJobScheduler('maintenance');
    }
  }
  if (active.includes('vcs')) {
    // One schedule however many processes upsert it: the repositories of git servers are polled.
    await rt.queues.vcs.upsertJobScheduler('vcs-poll', { every: POLL_INTERVAL_MS }, {
      name: JOB.vcsPoll,
      data: {},
    } satisfies Pick<JobSpecOf<'vcs', typeof JOB.vcsPoll>, 'name' | 'data'>);
  }
  const sweeper = startSweeper(deps);
  rt.logger.info('workers started', { queues: active, workerId: deps.workerId });

  return {
    queues: active,
    async stop(budgetMs) {
      let timer: NodeJS.Timeout | undefined;
      const graceful = Promise.all(workers.map((w) => w.close())).then(() => 'closed' as const);
      const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), budgetMs)));
      if ((await Promise.race([graceful, timeout])) === 'timeout') {
        // Jobs still running are Terraform phases (or slow deliveries, whose rows' leases hand them
        // on). The phases are stopped for real: interrupted, killed shortly after, and handed on
        // (a plan to another worker; an apply is errored with what it stored, never run twice).
        rt.logger.warn('shutdown budget exceeded; stopping running phases and handing their work on', {
          phases: deps.phases.size,
        });
        deps.phases.stopAll(STOP_GRACE_MS);
        const settled = new Promise<void>((resolve) => setTimeout(resolve, STOP_GRACE_MS * 2).unref());
        await Promise.race([graceful, settled]);
      }
      clearTimeout(timer);
      await sweeper.stop();
      await deps.spareShell.close();
      deps.mailer.close();
      connection.disconnect();
    },
  };
}
