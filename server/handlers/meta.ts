import type { Request, Response } from 'express';
import type { AppDeps } from '../context.js';
import { pingDatabase } from '../../shared/operations/index.js';
import { LOGIN_SERVICE, SERVICE_PATHS } from '../../shared/platform/config.js';

/** Discovery, ping and health: the endpoints clients and operators call before anything else. */
export function metaHandlers({ db, redis }: AppDeps) {
  return {
    /** The CLI reads only headers here; TFP-API-Version must be at least 2.5. */
    ping(_req: Request, res: Response) {
      res
        .set({
          'TFP-API-Version': '2.6',
          'TFP-AppName': 'Terraform Enterprise',
          'X-TFE-Version': 'v202402-1',
          'X-RateLimit-Limit': '30',
        })
        .status(204)
        .end();
    },

    discovery(_req: Request, res: Response) {
      res.type('application/json').send(JSON.stringify({ ...SERVICE_PATHS, 'login.v1': LOGIN_SERVICE }));
    },

    healthz(_req: Request, res: Response) {
      res.json({ status: 'ok' });
    },

    /** Ready when both Postgres and Redis answer; 503 names what is down. */
    async readyz(_req: Request, res: Response) {
      const withTimeout = <T>(p: Promise<T>) =>
        Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000))]);
      const [pgOk, redisOk] = await Promise.all([
        withTimeout(pingDatabase(db)).then(
          () => true,
          () => false,
        ),
        withTimeout(redis.ping()).then(
          () => true,
          () => false,
        ),
      ]);
      res.status(pgOk && redisOk ? 200 : 503).json({ postgres: pgOk ? 'ok' : 'down', redis: redisOk ? 'ok' : 'down' });
    },
  };
}
