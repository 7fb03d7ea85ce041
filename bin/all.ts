import { loadConfig } from '../shared/platform/config.js';
import { migrateLatest } from '../shared/platform/db/migrate.js';
import { openRuntime, closeRuntime } from '../shared/runtime.js';
import { createRunLifecycle } from '../shared/lifecycle-areas.js';
import { QUEUE_NAMES } from '../shared/platform/queues.js';
import { onShutdown } from '../shared/platform/shutdown.js';
import { createMetrics, listenForScrapes } from '../shared/operations/metrics.js';
import { createLogger } from '../shared/platform/logger.js';
import { startWorkers } from '../workers/bootstrap.js';
import { startWeb } from '../server/web.js';

/** `npm start`: creates the database, migrates, then runs the API and every worker in one process. */
async function main(): Promise<void> {
  const config = loadConfig();
  await migrateLatest(config.databaseUrl);
  // One registry per process, carried in its runtime (see shared/operations/metrics.ts).
  const rt = openRuntime(config, createRunLifecycle(config), createLogger(config.logLevel), createMetrics('all'));
  const scrapes = await listenForScrapes(rt.metrics, config, rt.logger);
  const workers = startWorkers(rt, QUEUE_NAMES);
  const web = workers.then(() => startWeb(rt));
  // Installed before the workers or the API say they started: a SIGTERM from then on, even one
  // that comes while they start, stops them gracefully instead of killing the process.
  onShutdown(rt.logger, async () => {
    await (await web).stop();
    await (await workers).stop(config.shutdownBudgetMs);
    await scrapes?.close();
    await closeRuntime(rt);
  });
  await web;
}

main().catch((err) => {
  process.stderr.write(`failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
