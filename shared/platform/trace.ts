import { AsyncLocalStorage } from 'node:async_hooks';

/** What travels with a piece of work across processes: the id of the API request that started it. */
export interface Trace {
  requestId: string;
}

/**
 * The trace of the work under way in this process: an HTTP request's, or a job's (taken from its
 * data). Jobs enqueued meanwhile carry its request id, so one run's story can be followed by that id
 * through the API's and the workers' logs. One per runtime.
 */
export type Tracing = AsyncLocalStorage<Trace>;

export const createTracing = (): Tracing => new AsyncLocalStorage<Trace>();

/** A request id as job data may carry it (never anything secret: an id the API made or took from X-Request-Id). */
export const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** The request id a job's data carries, if a sane one. */
export function requestIdOf(data: unknown): string | undefined {
  const value = (data as Record<string, unknown> | null)?.requestId;
  return typeof value === 'string' && REQUEST_ID.test(value) ? value : undefined;
}
