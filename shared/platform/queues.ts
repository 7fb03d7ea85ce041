import { Queue, type JobsOptions } from 'bullmq';
import type { RedisConnection } from './redis.js';
import { sha256Hex } from './crypto.js';
import { newId } from './ids.js';
import type { Logger } from './logger.js';
import type { Tracing } from './logger.js';

/*
 * Queue and job names are a wire contract between processes: renaming one strands the jobs
 * already queued under the old name. Add new names; retire old ones only after a drain.
 */
export const QUEUE_NAMES = [
  'verification',
  'run-task-dispatch',
  'deadline-expiry',
  'notification-delivery',
  'test-run-execution',
  'run-pipeline',
  'vcs',
] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export const JOB = {
  mailDelivery: 'mail-delivery',
  reconcile: 'reconcile',
  maintenance: 'maintenance',
  runStep: 'run-step',
  taskDispatch: 'dispatch',
  taskDeadline: 'task-deadline',
  verify: 'verify',
  notify: 'notify',
  assess: 'assess',
  testRun: 'test-run',
  vcsHookSync: 'hook-sync',
  vcsFetch: 'fetch',
  vcsArchive: 'archive',
  vcsModuleSync: 'module-sync',
  vcsPoll: 'poll',
  commitStatus: 'commit-status',
} as const;

/**
 * Payloads carry ids only (never secrets: those stay sealed in the rows); processors re-read the
 * row. Jobs of the queues that call user-supplied URLs also name their organization, which the
 * worker's fair share counts before it reads anything.
 */
export interface MailDeliveryPayload {
  mailId: string;
}

/** The organization a job names for the worker's fair share (absent on jobs queued without it). */
export interface OfOrganization {
  organization?: string;
}

/** The steps of a run a run-step job takes (see the run-pipeline processor). */
export type RunStep = 'queue' | 'plan' | 'policy' | 'evaluate' | 'confirm' | 'apply';

export interface RunStepPayload extends OfOrganization {
  runId: string;
  step: RunStep;
}

export interface AssessmentPayload {
  workspaceId: string;
}

export interface TaskResultPayload {
  taskResultId: string;
}

/** One delivery attempt, or several of one organization (see DELIVERIES_PER_JOB): one of the two ids, never both. */
export type NotificationPayload = (
  { deliveryId: string; deliveryIds?: never } | { deliveryIds: string[]; deliveryId?: never }
) &
  OfOrganization;

export interface VerificationPayload extends OfOrganization {
  verificationId: string;
}

export interface TestRunPayload {
  testRunId: string;
}

/** A repository webhook of a VCS connection, brought in line with the workspaces that follow it. */
export interface VcsHookPayload {
  hookId: string;
}

/** A configuration version fetched from its repository (or archived once its runs are done). */
export interface VcsFetchPayload extends OfOrganization {
  configurationVersionId: string;
}

/** A registry module whose repository's tags are read for versions it has not published. */
export interface VcsModulePayload extends OfOrganization {
  registryModuleId: string;
}

/** The commit statuses of a run not yet reported to its provider, sent in order. */
export interface CommitStatusPayload extends OfOrganization {
  runId: string;
}

/** The jobs of the housekeeping schedules carry nothing. */
export type NoPayload = Record<string, never>;

/**
 * Each queue's jobs: job name to the payload it carries. Job builders and schedulers are checked
 * against it, and each processor reads the payload of its job name (still validating what it
 * reads: jobs come from Redis, maybe from an earlier version).
 */
export interface QueueJobs {
  'notification-delivery': { [JOB.mailDelivery]: MailDeliveryPayload; [JOB.notify]: NotificationPayload };
  'deadline-expiry': {
    [JOB.reconcile]: NoPayload;
    [JOB.maintenance]: NoPayload;
    [JOB.taskDeadline]: TaskResultPayload;
  };
  'run-pipeline': { [JOB.runStep]: RunStepPayload; [JOB.assess]: AssessmentPayload };
  'run-task-dispatch': { [JOB.taskDispatch]: TaskResultPayload & OfOrganization };
  verification: { [JOB.verify]: VerificationPayload };
  'test-run-execution': { [JOB.testRun]: TestRunPayload };
  vcs: {
    [JOB.vcsHookSync]: VcsHookPayload;
    [JOB.vcsFetch]: VcsFetchPayload;
    [JOB.vcsArchive]: VcsFetchPayload;
    [JOB.vcsModuleSync]: VcsModulePayload;
    [JOB.vcsPoll]: NoPayload;
    [JOB.commitStatus]: CommitStatusPayload;
  };
}

/** The names of a queue's jobs. */
export type JobName<Q extends QueueName> = keyof QueueJobs[Q] & string;

/** The payload of job `N` of queue `Q`. */
export type JobData<Q extends QueueName, N extends JobName<Q>> = QueueJobs[Q][N];

/** A job of queue `Q` and name `N` ready to enqueue: what it carries, and its deterministic id. */
export interface JobSpecOf<Q extends QueueName, N extends JobName<Q>> {
  queue: Q;
  name: N;
  data: JobData<Q, N>;
  jobId: string;
  opts?: JobsOptions;
}

/** A job ready to enqueue, of any queue and name (each with its own payload). */
export type JobSpec = { [Q in QueueName]: { [N in JobName<Q>]: JobSpecOf<Q, N> }[JobName<Q>] }[QueueName];

/** A delivery, the attempt a job makes of it, and the organization of its workspace. */
export interface DeliveryAttempt {
  id: string;
  attempt: number;
  organization: string;
}

/** The organization a job carries, for the worker's fair share (none for rows written before it was recorded). */
const withOrganization = <D extends object>(data: D, organization: string | null): D & OfOrganization =>
  organization === null ? data : { ...data, organization };

/** Most notification deliveries one job carries: the worker claims, sends and settles them together. */
export const DELIVERIES_PER_JOB = 50;

/** Job builders: the one place job ids are derived (no ':' and never all digits, as BullMQ requires). */
export const jobs = {
  mailDelivery: (mailId: string): JobSpecOf<'notification-delivery', typeof JOB.mailDelivery> => ({
    queue: 'notification-delivery',
    name: JOB.mailDelivery,
    data: { mailId },
    jobId: `mail-${mailId}`,
    opts: { attempts: 8, backoff: { type: 'exponential', delay: 5000 } },
  }),
  /**
   * One step of a run (e.g. plan, apply), keyed by run and step so a step is queued once. With the
   * run's organization when the caller knows it: the worker's fair share needs it before anything
   * else, and otherwise reads it first.
   */
  runStep: (
    runId: string,
    step: RunStep,
    organization: string | null = null,
  ): JobSpecOf<'run-pipeline', typeof JOB.runStep> => ({
    queue: 'run-pipeline',
    name: JOB.runStep,
    data: withOrganization({ runId, step }, organization),
    jobId: `run-${runId}-${step}`,
  }),
  /** Delivery attempt `attempt` of a run task request, optionally delayed (retry schedule). */
  taskDispatch: (
    resultId: string,
    organization: string,
    attempt: number,
    delayMs = 0,
  ): JobSpecOf<'run-task-dispatch', typeof JOB.taskDispatch> => ({
    queue: 'run-task-dispatch',
    name: JOB.taskDispatch,
    data: withOrganization({ taskResultId: resultId }, organization),
    jobId: `${resultId}-a${attempt}`,
    opts: { delay: Math.max(0, delayMs) },
  }),
  /** Fires when a task result's callback deadline passes. */
  taskDeadline: (resultId: string, delayMs: number): JobSpecOf<'deadline-expiry', typeof JOB.taskDeadline> => ({
    queue: 'deadline-expiry',
    name: JOB.taskDeadline,
    data: { taskResultId: resultId },
    jobId: `${resultId}-deadline`,
    opts: { delay: Math.max(0, delayMs) },
  }),
  /** Delivery attempt `attempt` of a notification, optionally delayed (retry schedule). */
  notificationDelivery: (
    deliveryId: string,
    organization: string,
    attempt: number,
    delayMs = 0,
  ): JobSpecOf<'notification-delivery', typeof JOB.notify> => ({
    queue: 'notification-delivery',
    name: JOB.notify,
    data: withOrganization({ deliveryId }, organization),
    jobId: `${deliveryId}-a${attempt}`,
    opts: { delay: Math.max(0, delayMs) },
  }),
  /**
   * Several delivery attempts of one organization in one job (at most DELIVERIES_PER_JOB), keyed by
   * the set of attempts it carries; a single one keeps its per-attempt id above.
   */
  notificationDeliveries: (
    attempts: readonly DeliveryAttempt[],
  ): JobSpecOf<'notification-delivery', typeof JOB.notify> => {
    const organization = attempts[0].organization;
    if (attempts.some((a) => a.organization !== organization))
      throw new Error('a delivery job carries the deliveries of one organization');
    if (attempts.length === 1) return jobs.notificationDelivery(attempts[0].id, organization, attempts[0].attempt);
    const key = attempts
      .map((a) => `${a.id}@${a.attempt}`)
      .sort()
      .join(',');
    return {
      queue: 'notification-delivery',
      name: JOB.notify,
      data: withOrganization({ deliveryIds: attempts.map((a) => a.id) }, organization),
      jobId: `nb-${sha256Hex(key).slice(0, 40)}`,
    };
  },
  /** A health assessment of a workspace, once per interval slot. */
  assessment: (workspaceId: string, slot: number): JobSpecOf<'run-pipeline', typeof JOB.assess> => ({
    queue: 'run-pipeline',
    name: JOB.assess,
    data: { workspaceId },
    jobId: `assess-${workspaceId}-${slot}`,
  }),
  /** Executes a module test run (`terraform test`); the row decides whether anything is due. */
  testRun: (testRunId: string): JobSpecOf<'test-run-execution', typeof JOB.testRun> => ({
    queue: 'test-run-execution',
    name: JOB.testRun,
    data: { testRunId },
    jobId: `exec-${testRunId}`,
  }),
  /**
   * Creates or removes a repository's webhook at its provider; retried, as the provider may be
   * away. Each change of the workspaces that follow it asks again, so its id is not reused.
   */
  vcsHookSync: (hookId: string): JobSpecOf<'vcs', typeof JOB.vcsHookSync> => ({
    queue: 'vcs',
    name: JOB.vcsHookSync,
    data: { hookId },
    jobId: `hook-${hookId}-${Date.now()}`,
    opts: { attempts: 6, backoff: { type: 'exponential', delay: 5000 } },
  }),
  /**
   * Fetches a configuration version from its repository, once each time it starts fetching
   * (`since`, its `fetching-at` timestamp: a version archived and fetched again gets a new job).
   */
  vcsFetch: (cvId: string, organization: string | null, since: string): JobSpecOf<'vcs', typeof JOB.vcsFetch> => ({
    queue: 'vcs',
    name: JOB.vcsFetch,
    data: withOrganization({ configurationVersionId: cvId }, organization),
    jobId: `fetch-${cvId}-${Date.parse(since) || 0}`,
    opts: { attempts: 3, backoff: { type: 'exponential', delay: 2000 } },
  }),
  /**
   * Archives a fetched version no run uses any more; `after` names what asked (the run that
   * finished, or the reconciler), so each asks once.
   */
  vcsArchive: (cvId: string, after: string): JobSpecOf<'vcs', typeof JOB.vcsArchive> => ({
    queue: 'vcs',
    name: JOB.vcsArchive,
    data: { configurationVersionId: cvId },
    jobId: `archive-${cvId}-${after}`,
  }),
  /**
   * Publishes the versions a module's repository has tags for and the module lacks; `reason` (its
   * creation, a delivery's id, a resync) asks once.
   */
  vcsModuleSync: (
    moduleId: string,
    organization: string,
    reason: string,
  ): JobSpecOf<'vcs', typeof JOB.vcsModuleSync> => ({
    queue: 'vcs',
    name: JOB.vcsModuleSync,
    data: withOrganization({ registryModuleId: moduleId }, organization),
    jobId: `module-${moduleId}-${reason.replace(/[^A-Za-z0-9-]/g, '')}`,
    opts: { attempts: 4, backoff: { type: 'exponential', delay: 5000 } },
  }),
  /** Sends a run's queued commit statuses; `seq` tells the jobs of one run's successive moves apart. */
  commitStatus: (
    runId: string,
    organization: string | null,
    seq: string,
  ): JobSpecOf<'vcs', typeof JOB.commitStatus> => ({
    queue: 'vcs',
    name: JOB.commitStatus,
    data: withOrganization({ runId }, organization),
    jobId: `status-${runId}-${seq}`,
  }),
  /** Checks a destination URL while the API waits for the outcome. */
  verify: (verificationId: string, organization: string | null): JobSpecOf<'verification', typeof JOB.verify> => ({
    queue: 'verification',
    name: JOB.verify,
    data: withOrganization({ verificationId }, organization),
    jobId: `verify-${verificationId}`,
    opts: { attempts: 1 },
  }),
};

/** Keys of job data that name the row a job works on, the kind of row each names, and its API resource path (if it has one). */
const ROW_KEYS: readonly [key: string, kind: string, resource: string | null][] = [
  ['runId', 'run', '/api/v2/runs/'],
  ['taskResultId', 'task-result', '/api/v2/task-results/'],
  ['deliveryId', 'notification-delivery', null],
  ['deliveryIds', 'notification-delivery', null],
  ['mailId', 'mail', null],
  ['verificationId', 'verification', null],
  ['testRunId', 'test-run', null],
  ['configurationVersionId', 'configuration-version', '/api/v2/configuration-versions/'],
  ['hookId', 'vcs-hook', null],
  ['registryModuleId', 'registry-module', '/api/v2/registry-modules/'],
  ['workspaceId', 'workspace', '/api/v2/workspaces/'],
];

/** The row(s) a job works on, from its data (ids only travel there): kind, id(s), and the API path of the resource where there is one. */
export function rowOf(data: unknown): { kind: string; id: string; resource: string | null } | null {
  const record = (data ?? {}) as Record<string, unknown>;
  for (const [key, kind, resource] of ROW_KEYS) {
    const value = record[key];
    if (typeof value === 'string') return { kind, id: value, resource: resource && `${resource}${value}` };
    if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
      return { kind, id: value.join(','), resource: null };
  }
  return null;
}

/** BullMQ prefix with a Redis Cluster hash tag so every key of the service lands in one slot. */
export function bullPrefix(queuePrefix: string): string {
  return `{${queuePrefix}}`;
}

export type Queues = Readonly<Record<QueueName, Queue>>;

/** The queues whose workers call user-supplied URLs: their jobs are added in a fair order between organizations. */
const FAIR_ORDER_QUEUES: readonly QueueName[] = ['verification', 'run-task-dispatch', 'notification-delivery'];
/** How fast an organization's count of recently added jobs fades (its time constant). */
const FAIR_ORDER_FADE_MS = 10_000;
/** BullMQ's largest priority. */
const MAX_PRIORITY = 2_097_152;
/** Organizations remembered before the ones whose count has faded are forgotten. */
const FAIR_ORDER_REMEMBERED = 1_000;

/**
 * A fair order between organizations for one queue of one process: a job's BullMQ priority (lower
 * goes first) is how many jobs its organization added here recently, counting itself, each fading
 * with a time constant of FAIR_ORDER_FADE_MS, so organizations' jobs interleave instead of one's
 * backlog standing before the other's. It orders only; the fair share bounds what one organization
 * holds (docs/design-for-speed.md, "Fair slots").
 */
class FairOrder {
  private readonly counts = new Map<string, { count: number; at: number }>();

  priority(organization: string, now = performance.now()): number {
    const last = this.counts.get(organization);
    const count = (last ? faded(last, now) : 0) + 1;
    if (!last && this.counts.size >= FAIR_ORDER_REMEMBERED) {
      for (const [name, entry] of this.counts) if (faded(entry, now) < 0.5) this.counts.delete(name);
    }
    this.counts.set(organization, { count, at: now });
    return Math.min(MAX_PRIORITY, Math.round(count));
  }
}

/** A count taken at `at`, faded to `now`. */
const faded = (c: { count: number; at: number }, now: number): number =>
  c.count * Math.exp(-(now - c.at) / FAIR_ORDER_FADE_MS);

/**
 * A queue whose jobs, added while a traced request or job is under way (see Tracing in shared/platform/logger.ts), carry
 * its request id in their data; on a queue of FAIR_ORDER_QUEUES, a job that names its organization
 * is added with the priority of the queue's FairOrder.
 */
class TracedQueue extends Queue {
  private readonly order: FairOrder | null;

  constructor(
    name: QueueName,
    opts: ConstructorParameters<typeof Queue>[1],
    private readonly tracing: Tracing | undefined,
  ) {
    super(name, opts);
    this.order = FAIR_ORDER_QUEUES.includes(name) ? new FairOrder() : null;
  }

  override add(name: string, data: Record<string, unknown>, opts?: JobsOptions) {
    return super.add(name, this.traced(data), this.ordered(data, opts));
  }

  /**
   * Closes the queue. One closed while it still checks the shared connection's Redis (a process
   * stopped right after it started) leaves that check running; when the runtime then disconnects,
   * the check fails and emits its error on a connection whose listeners close() has removed, which
   * would end the process with an uncaught error instead of its clean exit. That error is expected
   * then, and dropped.
   */
  override async close() {
    await super.close();
    this.connection.on('error', () => undefined);
  }

  override addBulk(jobs: Parameters<Queue['addBulk']>[0]) {
    return super.addBulk(
      jobs.map((job) => {
        const data = job.data as Record<string, unknown>;
        return { ...job, data: this.traced(data), opts: this.ordered(data, job.opts) };
      }),
    );
  }

  /** `opts` with the fair order's priority, for a job that names its organization on a queue of FAIR_ORDER_QUEUES. */
  private ordered(data: Record<string, unknown>, opts: JobsOptions | undefined): JobsOptions | undefined {
    const organization = data.organization;
    if (!this.order || typeof organization !== 'string' || opts?.priority !== undefined) return opts;
    return { ...opts, priority: this.order.priority(organization) };
  }

  private traced(data: Record<string, unknown>): Record<string, unknown> {
    const requestId = this.tracing?.getStore()?.requestId;
    return requestId && !('requestId' in data) ? { ...data, requestId } : data;
  }
}

export function createQueues(connection: RedisConnection, queuePrefix: string, tracing?: Tracing): Queues {
  const prefix = bullPrefix(queuePrefix);
  const entries = QUEUE_NAMES.map((name): [QueueName, Queue] => [
    name,
    new TracedQueue(name, { connection, prefix }, tracing),
  ]);
  return Object.freeze(Object.fromEntries(entries) as Record<QueueName, Queue>);
}

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((q) => q.close()));
}

const DEFAULTS: JobsOptions = {
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 5000 },
};

/**
 * Enqueues after commit. A duplicate jobId is a no-op in BullMQ, so enqueueing twice is safe.
 * Failures are logged, never thrown: the reconciler restores the job from the row.
 */
export async function enqueueAfterCommit(queues: Queues, spec: JobSpec, logger: Logger): Promise<void> {
  try {
    await queues[spec.queue].add(spec.name, spec.data, { ...DEFAULTS, ...spec.opts, jobId: spec.jobId });
  } catch (err) {
    logger.warn('enqueue failed; the reconciler will restore the job', {
      jobId: spec.jobId,
      queue: spec.queue,
      error: String(err),
    });
  }
}

/** enqueueAfterCommit for several jobs: one round trip per queue (BullMQ's addBulk). */
export async function enqueueAllAfterCommit(queues: Queues, specs: readonly JobSpec[], logger: Logger): Promise<void> {
  const byQueue = new Map<QueueName, JobSpec[]>();
  for (const spec of specs) byQueue.set(spec.queue, [...(byQueue.get(spec.queue) ?? []), spec]);
  await Promise.all(
    [...byQueue].map(async ([queue, list]) => {
      try {
        await queues[queue].addBulk(
          list.map((spec) => ({
            name: spec.name,
            data: spec.data,
            opts: { ...DEFAULTS, ...spec.opts, jobId: spec.jobId },
          })),
        );
      } catch (err) {
        logger.warn('enqueue failed; the reconciler will restore the jobs', {
          jobIds: list.map((s) => s.jobId),
          queue,
          error: String(err),
        });
      }
    }),
  );
}

/** Jobs for delivery attempts, DELIVERIES_PER_JOB to a job, each job one organization's. */
export function deliveryJobs(
  attempts: readonly DeliveryAttempt[],
): JobSpecOf<'notification-delivery', typeof JOB.notify>[] {
  const byOrganization = new Map<string, DeliveryAttempt[]>();
  for (const a of attempts) {
    const list = byOrganization.get(a.organization);
    if (list) list.push(a);
    else byOrganization.set(a.organization, [a]);
  }
  const specs: JobSpecOf<'notification-delivery', typeof JOB.notify>[] = [];
  for (const list of byOrganization.values()) {
    for (let i = 0; i < list.length; i += DELIVERIES_PER_JOB)
      specs.push(jobs.notificationDeliveries(list.slice(i, i + DELIVERIES_PER_JOB)));
  }
  return specs;
}

/** Least time between two rounds of delivery jobs added by one process, when it is busy. */
export const DELIVERY_ROUND_MS = 10;

interface Gathering {
  attempts: DeliveryAttempt[];
  added: Promise<void>;
  flush: () => void;
}

/**
 * Enqueues notification delivery attempts after commit, DELIVERIES_PER_JOB to a job, in rounds: a
 * round goes out at the end of the current turn of the event loop when the last one is at least
 * DELIVERY_ROUND_MS old, otherwise when it is (or at once when a job's worth is waiting), so a busy
 * process adds fewer, fuller jobs (docs/design-for-speed.md, "Delivery rounds"). One per runtime
 * (it holds the round being gathered).
 */
export class DeliveryRounds {
  private gathering: Gathering | null = null;
  private lastRound = -Infinity;

  constructor(
    private readonly queues: Queues,
    private readonly logger: Logger,
  ) {}

  /** Adds attempts to the next round; settles once their jobs are added (failures are logged, as in enqueueAfterCommit). */
  add(attempts: readonly DeliveryAttempt[]): Promise<void> {
    if (attempts.length === 0) return Promise.resolve();
    let round = this.gathering;
    if (!round) {
      const gathered: DeliveryAttempt[] = [];
      let resolve: () => void = () => undefined;
      const added = new Promise<void>((r) => (resolve = r));
      const wait = this.lastRound + DELIVERY_ROUND_MS - performance.now();
      const flush = () => {
        cancel();
        if (this.gathering !== round) return;
        this.gathering = null;
        this.lastRound = performance.now();
        void Promise.all(deliveryJobs(gathered).map((spec) => enqueueAfterCommit(this.queues, spec, this.logger))).then(
          () => resolve(),
        );
      };
      const cancel =
        wait > 0 ? clearTimeout.bind(null, setTimeout(flush, wait)) : clearImmediate.bind(null, setImmediate(flush));
      round = { attempts: gathered, added, flush };
      this.gathering = round;
    }
    round.attempts.push(...attempts);
    if (round.attempts.length >= DELIVERIES_PER_JOB) round.flush();
    return round.added;
  }
}

/** First tries of deliveries just committed, all of one organization's workspace. */
export const firstTries = (ids: readonly string[], organization: string): DeliveryAttempt[] =>
  ids.map((id) => ({ id, attempt: 1, organization }));

/**
 * What requeue found of a job: none (`missing`: it was lost, and is added again), a finished one
 * (`finished`: replaced by a new one), a live one it left alone (`live`), or an active one that
 * another job now follows (`followed`, see afterActive).
 */
export type Requeued = 'missing' | 'finished' | 'live' | 'followed';

/**
 * Enqueues work the reconciler found due. A finished job with the same id would block the add,
 * so it is removed first; a waiting or delayed job is left alone, as it reads the rows when it
 * runs. So is an active one, unless `afterActive`: a caller that enqueues because it has just
 * changed what the step reads (a workspace freed or unlocked) must not lose that to a job that
 * read the rows before the change and is ending without acting. Another job then follows it,
 * under an id of its own (the step must be safe to run twice, as every step is).
 */
export async function requeue(queues: Queues, spec: JobSpec, opts: { afterActive?: boolean } = {}): Promise<Requeued> {
  const queue = queues[spec.queue];
  const existing = await queue.getJob(spec.jobId);
  let jobId = spec.jobId;
  let found: Requeued = 'missing';
  if (existing) {
    const state = await existing.getState();
    if (state === 'active' && opts.afterActive) {
      jobId = newId(`${spec.jobId}-after`);
      found = 'followed';
    } else if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return 'live';
    else {
      await existing.remove();
      found = 'finished';
    }
  }
  await queue.add(spec.name, spec.data, { ...DEFAULTS, ...spec.opts, jobId });
  return found;
}
