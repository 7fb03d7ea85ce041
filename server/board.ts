import type { NextFunction, Request, Response, Router } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Db } from '../shared/platform/db.js';
import type { RateLimits } from '../shared/platform/rate-limits.js';
import { rowOf, type Queues } from '../shared/platform/queues.js';
import { principalFor } from './auth.js';
import { boardAuthAttempt } from './rate-limit.js';

export const BOARD_PATH = '/admin/queues';

/**
 * The board's own policy: its pages need inline styles, but like the console they load nothing
 * from another host and cannot be framed.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * HTTP Basic guard: any user name, a site admin's API token as the password. A password that
 * fails spends a point of the client address's failed-authentication budget.
 */
function siteAdminBasicAuth(db: Db, limits: RateLimits) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const match = /^Basic\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const password = decoded.includes(':') ? decoded.slice(decoded.indexOf(':') + 1) : '';
    const attempt = password ? boardAuthAttempt(limits, req) : null;
    await attempt?.admit();
    const principal = password ? (await principalFor(db, password))?.principal : null;
    if (principal?.kind === 'user' && principal.user.is_admin) {
      await attempt?.succeeded();
      res.set({ 'Content-Security-Policy': CSP, 'X-Frame-Options': 'DENY', 'X-Content-Type-Options': 'nosniff' });
      return next();
    }
    res
      .set('WWW-Authenticate', 'Basic realm="queues", charset="UTF-8"')
      .status(401)
      .type('text/plain')
      .send('site admin token required');
  };
}

type RenderEngine = (path: string, options: object, callback: (err: Error | null, html?: string) => void) => void;

/**
 * Bull Board's page links a web-font stylesheet on another host. Its template is rendered as it
 * is, then stripped of every stylesheet or icon link to another host (the page falls back to the
 * system fonts), so that the board, like everything else the service serves, loads nothing from
 * elsewhere. Express keeps a (sub-)application's engines in `engines`, by extension.
 */
function renderWithoutOtherHosts(board: Router): void {
  const engines = (board as unknown as { engines: Record<string, RenderEngine | undefined> }).engines;
  const render = engines['.ejs'];
  if (!render) throw new Error('the queue board no longer renders its page with ejs: see renderWithoutOtherHosts');
  engines['.ejs'] = (path, options, callback) =>
    render(path, options, (err, html) =>
      callback(err, html?.replace(/<link\b[^>]*\bhref\s*=\s*["']?(?:https?:)?\/\/[^>]*>/gi, '')),
    );
}

/**
 * A queue as the board shows it: each job's name says which row it works on (`run-step · run
 * run-…`), and its data adds that row (kind and id) and the API path of its resource, where it has
 * one. Only the display: the job itself, which the workers read, is unchanged. A job retried from
 * the board is safe: its processor re-reads the row and does only what the row says is due (every
 * claim is a compare-and-set), so retrying finished work does nothing twice.
 */
function boardQueue(queue: Queues[keyof Queues]): BullMQAdapter {
  const adapter = new BullMQAdapter(queue, {
    description: 'Retrying a job is safe: it does only what its row still needs.',
  });
  adapter.setFormatter('name', (job: { name?: unknown; data?: unknown }) => {
    const row = rowOf(job.data);
    return row ? `${String(job.name)} · ${row.kind} ${row.id}` : String(job.name ?? '');
  });
  adapter.setFormatter('data', (data: unknown) => {
    const row = rowOf(data);
    return row
      ? {
          ...(data as Record<string, unknown>),
          row: { kind: row.kind, id: row.id },
          ...(row.resource ? { resource: row.resource } : {}),
        }
      : data;
  });
  return adapter;
}

/** Bull Board over every queue of the service, for site admins only. */
export function boardRouter(
  db: Db,
  queues: Queues,
  limits: RateLimits,
): [ReturnType<typeof siteAdminBasicAuth>, Router] {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(BOARD_PATH);
  createBullBoard({ queues: Object.values(queues).map(boardQueue), serverAdapter });
  const board = serverAdapter.getRouter() as Router;
  renderWithoutOtherHosts(board);
  return [siteAdminBasicAuth(db, limits), board];
}
