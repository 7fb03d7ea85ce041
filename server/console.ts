import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the web console lives; every page under it is the same single-page application. */
export const CONSOLE_PATH = '/app';

/** The console's built files (`npm run build` writes them next to the compiled server, in dist/console). */
export const CONSOLE_ASSETS = fileURLToPath(new URL('../console', import.meta.url));

/**
 * Only this origin, for everything: no inline scripts, no other hosts (no fonts or CDNs), and no
 * framing (the consent page of `terraform login` must not be clickable from another site).
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function securityHeaders(_req: Request, res: Response, next: NextFunction) {
  res.set({
    'Content-Security-Policy': CSP,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    // Password and invitation links carry a token in the query: never send it on in a Referer.
    'Referrer-Policy': 'no-referrer',
  });
  next();
}

/** The console's icon (console/public/favicon.svg, copied into the build as it is). */
const FAVICON = 'favicon.svg';

/**
 * Sends one of the console's files. The path is given relative to the console's directory (its
 * root): only that part is checked for dot segments, so the service serves its files from any
 * install path, one under `~/.local/` too.
 */
const sendConsoleFile = (res: Response, dir: string, file: string) => res.sendFile(file, { root: dir });

/**
 * The site's icon at /favicon.ico, where browsers look for it on pages that name none (the API's
 * answers, the queue board's): the console's SVG icon, which browsers take by its content type.
 */
export function favicon(dir = CONSOLE_ASSETS) {
  return (_req: Request, res: Response): void => {
    if (!existsSync(join(dir, FAVICON))) {
      res.status(404).type('text/plain').send('not found');
      return;
    }
    res.set('Cache-Control', 'public, max-age=86400');
    sendConsoleFile(res, dir, FAVICON);
  };
}

/**
 * The web console, an application of its own mounted at CONSOLE_PATH: its hashed assets (cached
 * for good), its icon, and index.html (never cached) for every other path, which the console
 * routes itself. It holds no data: every read and write goes through the API with the session cookie.
 */
export function consoleApp(dir = CONSOLE_ASSETS): Router {
  const r = Router();
  const index = join(dir, 'index.html');
  r.use(securityHeaders);
  r.use(
    '/assets',
    express.static(join(dir, 'assets'), { index: false, redirect: false, immutable: true, maxAge: '365d' }),
  );
  r.get(`/${FAVICON}`, favicon(dir));
  r.use((req, res) => {
    if (req.path.startsWith('/assets/')) {
      res.status(404).type('text/plain').send('not found');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.set('Allow', 'GET, HEAD').status(405).type('text/plain').send('method not allowed');
      return;
    }
    if (!existsSync(index)) {
      res.status(503).type('text/plain').send('The console is not built: run `npm run build`.');
      return;
    }
    res.set('Cache-Control', 'no-cache');
    sendConsoleFile(res, dir, 'index.html');
  });
  return r;
}
