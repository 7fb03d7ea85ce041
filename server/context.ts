import type { Redis } from 'ioredis';
import type { Config } from '../shared/config.js';
import type { Db } from '../shared/db.js';
import type { Logger } from '../shared/logger.js';
import type { Queues } from '../shared/queues.js';
import type { Principal } from '../shared/access.js';

/** Collaborators of the HTTP layer, wired by the entry file. */
export interface AppDeps {
  config: Config;
  db: Db;
  redis: Redis;
  queues: Queues;
  logger: Logger;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      requestId: string;
      principal: Principal;
    }
  }
}
