import type { Server } from 'node:http';
import type { Runtime } from '../shared/runtime.js';
import { ensureSiteAdmin } from '../shared/site-admin.js';
import { createApp } from './app.js';
import { registerRunTasks } from '../shared/run-tasks/stages.js';
import { registerNotifications } from '../shared/notifications/triggers.js';
import { registerPolicies } from '../shared/policy/checks.js';

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
  registerRunTasks(rt.config);
  registerNotifications(rt.config);
  registerPolicies();
  const app = createApp(rt);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(port, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  rt.logger.info('web listening', { port: actualPort, baseUrl: rt.config.baseUrl });
  return {
    server,
    port: actualPort,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
