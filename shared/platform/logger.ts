import { AsyncLocalStorage } from 'node:async_hooks';
import winston from 'winston';

export type Logger = winston.Logger;

// Keys whose values never reach a log line, whatever object they travel in.
const SECRET_KEYS = /^(authorization|token|password|hmac[-_]?key|secret|access[-_]?token|value|encryption[-_]?key)$/i;

const redact = winston.format((info) => {
  for (const key of Object.keys(info)) {
    if (SECRET_KEYS.test(key)) info[key] = '[redacted]';
  }
  return info;
});

/**
 * Structured JSON logger; child loggers carry context such as requestId or jobId. A line below the
 * level is dropped before anything is done with it: winston would otherwise run it through the
 * formats (a JSON serialisation) and its stream, and only then let the transport discard it, so
 * every request's and job's info line cost as much at level `error` as when written.
 */
export function createLogger(level: string, defaultMeta: Record<string, unknown> = {}): Logger {
  const logger = winston.createLogger({
    level,
    defaultMeta,
    format: winston.format.combine(redact(), winston.format.timestamp(), winston.format.json()),
    transports: [new winston.transports.Console({ stderrLevels: ['error', 'warn'] })],
  });
  // Child loggers write through this instance's write, so the check covers them too.
  const write = logger.write.bind(logger) as (info: winston.LogEntry) => boolean;
  logger.write = ((info: winston.LogEntry) =>
    logger.isLevelEnabled(info.level) ? write(info) : true) as typeof logger.write;
  return logger;
}

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
