import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { Server as NetServer } from 'node:net';
import type { Config } from '../shared/platform/config.js';
import type { Runtime } from '../shared/runtime.js';
import { ensureSiteAdmin } from '../shared/identity/index.js';
import { createApp } from './app.js';

/** net.Server's close: stops listening only (http.Server's also closes idle connections at once). */
const netClose = NetServer.prototype.close;
/** How long a stopping web process answers on open connections before it closes the idle ones. */
const DRAIN_MS = 1_000;
/** When a stopping web process closes whatever connections are left. */
const STOP_DEADLINE_MS = 10_000;

export interface WebHandle {
  /** An http.Server, or with TLS_CERT_FILE/TLS_KEY_FILE an https.Server. */
  server: Server | HttpsServer;
  port: number;
  stop(): Promise<void>;
}

/** Reads one of the TLS files, or fails the start naming the variable and the file. */
async function readTlsFile(variable: string, file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (err) {
    throw new Error(`${variable}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

/**
 * The server the application listens with: https with the configured certificate and key (read
 * once, at start), else plain http (behind a proxy that terminates TLS, or in development).
 */
async function serverFor(tls: Config['tls'], app: ReturnType<typeof createApp>): Promise<Server | HttpsServer> {
  if (!tls) return createHttpServer(app);
  const [cert, key] = await Promise.all([
    readTlsFile('TLS_CERT_FILE', tls.certFile),
    readTlsFile('TLS_KEY_FILE', tls.keyFile),
  ]);
  try {
    return createHttpsServer({ cert, key }, app);
  } catch (err) {
    throw new Error(
      `TLS_CERT_FILE/TLS_KEY_FILE: not a usable certificate and key (${err instanceof Error ? err.message : String(err)})`,
    );
  }
}

/** Ensures the site admin, then listens. A generated admin token is printed once, on stdout. */
export async function startWeb(rt: Runtime, port = rt.config.port): Promise<WebHandle> {
  const app = createApp(rt);
  // Before anything is written: a bad certificate stops the start with nothing done.
  const listener = await serverFor(rt.config.tls, app);
  const { generatedToken } = await ensureSiteAdmin(rt.db, rt.config);
  if (generatedToken) {
    // The one deliberate exception to "secrets never printed": the operator needs this token once.
    process.stdout.write(`\nSite admin user "admin" created. API token (shown once):\n\n  ${generatedToken}\n\n`);
  }
  const server = await new Promise<Server | HttpsServer>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(port, () => resolve(listener));
  });
  // While stopping, every response says `Connection: close`, so a keep-alive client opens its
  // next request elsewhere instead of finding its connection reset.
  let closing = false;
  server.prependListener('request', (_req, res) => {
    if (closing && !res.headersSent) res.setHeader('Connection', 'close');
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  rt.logger.info('web listening', {
    port: actualPort,
    protocol: rt.config.tls ? 'https' : 'http',
    baseUrl: rt.config.baseUrl,
  });
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
