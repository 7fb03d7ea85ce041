import { loadConfig } from '../shared/platform/config.js';
import { openRuntime, closeRuntime } from '../shared/runtime.js';
import { createRunLifecycle } from '../shared/lifecycle-areas.js';
import { QUEUE_NAMES, type QueueName } from '../shared/platform/queues.js';
import { onShutdown } from '../shared/platform/shutdown.js';
import { createMetrics, listenForScrapes } from '../shared/operations/metrics.js';
import { createLogger } from '../shared/platform/logger.js';
import { startWorkers } from '../workers/bootstrap.js';

/** Worker entry: `node dist/bin/workers.js [queue...]`; no argument runs every queue. */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => !(QUEUE_NAMES as readonly string[]).includes(a));
  if (unknown.length) {
    process.stderr.write(`unknown queue(s): ${unknown.join(', ')}; known: ${QUEUE_NAMES.join(', ')}\n`);
    process.exit(2);
  }
  const config = loadConfig();
  // One registry per process, carried in its runtime (see shared/operations/metrics.ts).
  const rt = openRuntime(config, createRunLifecycle(config), createLogger(config.logLevel), createMetrics('workers'));
  const scrapes = await listenForScrapes(rt.metrics, config, rt.logger);
  const starting = startWorkers(rt, args.length ? (args as QueueName[]) : QUEUE_NAMES);
  const stop = async (budgetMs: number) => {
    await (await starting).stop(budgetMs);
    await scrapes?.close();
    await closeRuntime(rt);
  };
  // Installed before the workers say they started: a SIGTERM from then on, even one that comes
  // while they start, stops them gracefully instead of killing the process.
  onShutdown(rt.logger, () => stop(config.shutdownBudgetMs));
  if (!(await starting).queues.length) {
    rt.logger.info('nothing to process for the requested queues; exiting');
    await stop(0);
  }
}

main().catch((err) => {
  process.stderr.write(`worker failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
