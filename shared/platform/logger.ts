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
