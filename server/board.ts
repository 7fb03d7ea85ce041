import type { NextFunction, Request, Response, Router } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Db } from '../shared/db.js';
import { rowOf, type Queues } from '../shared/queues.js';
import { principalFor } from './auth.js';

export const BOARD_PATH = '/admin/queues';

/** HTTP Basic guard: any user name, a site admin's API token as the password. */
function siteAdminBasicAuth(db: Db) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const match = /^Basic\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const password = decoded.includes(':') ? decoded.slice(decoded.indexOf(':') + 1) : '';
    const principal = password ? (await principalFor(db, password))?.principal : null;
    if (principal?.kind === 'user' && principal.user.is_admin) return next();
    res.set('WWW-Authenticate', 'Basic realm="queues", charset="UTF-8"').status(401).type('text/plain').send('site admin token required');
  };
}

/**
 * A queue as the board shows it: each job's name says which row it works on (`run-step · run
 * run-…`), and its data adds that row (kind and id) and the API path of its resource, where it has
 * one. Only the display: the job itself, which the workers read, is unchanged. A job retried from
 * the board is safe: its processor re-reads the row and does only what the row says is due (every
 * claim is a compare-and-set), so retrying finished work does nothing twice.
 */
function boardQueue(queue: Queues[keyof Queues]): BullMQAdapter {
  const adapter = new BullMQAdapter(queue, { description: 'Retrying a job is safe: it does only what its row still needs.' });
  adapter.setFormatter('name', (job: { name?: unknown; data?: unknown }) => {
    const row = rowOf(job.data);
    return row ? `${String(job.name)} · ${row.kind} ${row.id}` : String(job.name ?? '');
  });
  adapter.setFormatter('data', (data: unknown) => {
    const row = rowOf(data);
    return row ? { ...(data as Record<string, unknown>), row: { kind: row.kind, id: row.id }, ...(row.resource ? { resource: row.resource } : {}) } : data;
  });
  return adapter;
}

/** Bull Board over every queue of the service, for site admins only. */
export function boardRouter(db: Db, queues: Queues): [ReturnType<typeof siteAdminBasicAuth>, Router] {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(BOARD_PATH);
  createBullBoard({ queues: Object.values(queues).map(boardQueue), serverAdapter });
  return [siteAdminBasicAuth(db), serverAdapter.getRouter() as Router];
}
