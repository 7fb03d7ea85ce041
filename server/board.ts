import type { NextFunction, Request, Response, Router } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Db } from '../shared/db.js';
import type { Queues } from '../shared/queues.js';
import { principalFor } from './auth.js';

export const BOARD_PATH = '/admin/queues';

/** HTTP Basic guard: any user name, a site admin's API token as the password. */
function siteAdminBasicAuth(db: Db) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const match = /^Basic\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const password = decoded.includes(':') ? decoded.slice(decoded.indexOf(':') + 1) : '';
    const principal = password ? await principalFor(db, password) : null;
    if (principal?.kind === 'user' && principal.user.is_admin) return next();
    res.set('WWW-Authenticate', 'Basic realm="queues", charset="UTF-8"').status(401).type('text/plain').send('site admin token required');
  };
}

/** Bull Board over every queue of the service, for site admins only. */
export function boardRouter(db: Db, queues: Queues): [ReturnType<typeof siteAdminBasicAuth>, Router] {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(BOARD_PATH);
  createBullBoard({ queues: Object.values(queues).map((q) => new BullMQAdapter(q)), serverAdapter });
  return [siteAdminBasicAuth(db), serverAdapter.getRouter() as Router];
}
