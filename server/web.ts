import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { Runtime } from '../shared/runtime.js';
import { ensureSiteAdmin } from '../shared/site-admin.js';
import { createApp } from './app.js';

/** net.Server's close: stops listening only (http.Server's also closes idle connections at once). */
const netClose = NetServer.prototype.close;
/** How long a stopping web process answers on open connections before it closes the idle ones. */
const DRAIN_MS = 1_000;
/** When a stopping web process closes whatever connections are left. */
const STOP_DEADLINE_MS = 10_000;

export interface WebHandle {
  server: Server;
  port: number;
  stop(): Promise<void>;
}

/** Ensures the site admin, then listens. A generated admin token is printed once, on stdout. */
export async function startWeb(rt: Runtime, port = rt.config.port): Promise<WebHandle> {
  const { generatedToken } = await ensureSiteAdmin(rt.db, rt.config);
  if (generatedToken) {
    // The one deliberate exception to "secrets never printed": the operator needs this token once.
    process.stdout.write(`\nSite admin user "admin" created. API token (shown once):\n\n  ${generatedToken}\n\n`);
  }
  const app = createApp(rt);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(port, () => resolve(s));
    s.once('error', reject);
  });
  // While stopping, every response says `Connection: close`, so a keep-alive client opens its
  // next request elsewhere instead of finding its connection reset.
  let closing = false;
  server.prependListener('request', (_req, res) => {
    if (closing && !res.headersSent) res.setHeader('Connection', 'close');
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  rt.logger.info('web listening', { port: actualPort, baseUrl: rt.config.baseUrl });
  return {
    server,
    port: actualPort,
    stop: () =>
      new Promise<void>((resolve) => {
        closing = true;
        // Stop accepting, but leave the open connections: http's own close() would also drop the
        // idle keep-alive ones at once, resetting a request that arrives on one at that moment.
        // Requests in flight and arriving meanwhile are answered (with Connection: close); what is
        // still idle after the drain is closed then, and anything left at the deadline.
        netClose.call(server, () => resolve());
        setTimeout(() => server.closeIdleConnections(), DRAIN_MS).unref();
        setTimeout(() => server.closeAllConnections(), STOP_DEADLINE_MS).unref();
      }),
  };
}
