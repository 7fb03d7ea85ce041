import { loadConfig } from '../shared/platform/config.js';
import { openRuntime, closeRuntime } from '../shared/runtime.js';
import { createRunLifecycle } from '../shared/lifecycle-areas.js';
import { onShutdown } from '../shared/platform/shutdown.js';
import { createMetrics, listenForScrapes } from '../shared/operations/metrics.js';
import { createLogger } from '../shared/platform/logger.js';
import { startWeb } from '../server/web.js';

/** Web process entry: the API only (migrations are the release process's job). */
async function main(): Promise<void> {
  const config = loadConfig();
  // One registry per process, carried in its runtime (see shared/operations/metrics.ts).
  const rt = openRuntime(config, createRunLifecycle(config), createLogger(config.logLevel), createMetrics('web'));
  const scrapes = await listenForScrapes(rt.metrics, config, rt.logger);
  const web = startWeb(rt);
  // Installed before the API says it listens: a SIGTERM from then on stops it gracefully.
  onShutdown(rt.logger, async () => {
    await (await web).stop();
    await scrapes?.close();
    await closeRuntime(rt);
  });
  await web;
}

main().catch((err) => {
  process.stderr.write(`web failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
