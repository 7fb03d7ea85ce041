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

/** Structured JSON logger; child loggers carry context such as requestId or jobId. */
export function createLogger(level: string, defaultMeta: Record<string, unknown> = {}): Logger {
  return winston.createLogger({
    level,
    defaultMeta,
    format: winston.format.combine(redact(), winston.format.timestamp(), winston.format.json()),
    transports: [new winston.transports.Console({ stderrLevels: ['error', 'warn'] })],
  });
}
