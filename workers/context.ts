import { UnrecoverableError, type Job } from 'bullmq';
import type { Runtime } from '../shared/runtime.js';
import type { WorkerServices } from '../shared/worker-runtime.js';
import type { JobData, JobName, QueueName } from '../shared/platform/queues.js';
import type { OrganizationSlots } from './organization-slots.js';

/** Collaborators of job processors. */
export interface WorkerDeps extends Runtime, WorkerServices {
  /** This process's Terraform slots, shared fairly between organizations. */
  slots: OrganizationSlots;
  /** This process's slots of each queue that calls user-supplied URLs, shared fairly between organizations. */
  outboundSlots: Readonly<Record<'verification' | 'run-task-dispatch' | 'notification-delivery', OrganizationSlots>>;
}

/**
 * A job of queue `Q` and name `N` as its processor gets it: typed with the payload its builders
 * enqueue, yet read through idFrom and organizationFrom, since it comes from Redis and may have
 * been queued by an earlier version.
 */
export type QueueJob<Q extends QueueName, N extends JobName<Q>> = Job<JobData<Q, N>>;

/** The handler of one job name of a queue. `token` is the job's lock token. */
export type Processor<Q extends QueueName, N extends JobName<Q>> = (
  job: QueueJob<Q, N>,
  deps: WorkerDeps,
  token?: string,
) => Promise<void>;

/** Processors of a queue, one per job name. */
export type QueueProcessors<Q extends QueueName> = { readonly [N in JobName<Q>]: Processor<Q, N> };

/** A processor as a worker looks it up by a job's name, before anything of its data is known. */
export type AnyProcessor = (job: Job, deps: WorkerDeps, token?: string) => Promise<void>;

/** The keys of any member of a payload type (of a union too), which idFrom may read. */
type KeyOf<D> = D extends unknown ? keyof D & string : never;

/** Reads a string id from job data, or fails the job permanently (BullMQ does not retry it). */
export function idFrom<D>(data: D, key: KeyOf<D>): string {
  const value = (data as Record<string, unknown> | null)?.[key];
  if (typeof value !== 'string' || !/^[A-Za-z0-9-]{1,100}$/.test(value))
    throw new UnrecoverableError(`job data lacks a valid ${key}`);
  return value;
}

/**
 * The organization a job's data names (for its fair share), or null for a job queued without one
 * by an earlier version. A malformed value fails the job permanently, as idFrom does.
 */
export function organizationFrom(data: unknown): string | null {
  const value = (data as Record<string, unknown> | null)?.organization;
  if (value === undefined) return null;
  if (typeof value !== 'string' || value.length === 0 || value.length > 200)
    throw new UnrecoverableError('job data carries an invalid organization');
  return value;
}
