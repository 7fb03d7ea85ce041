import type { Job } from 'bullmq';
import type { Runtime } from '../shared/runtime.js';
import { requestIdOf } from '../shared/platform/logger.js';
import { rowOf } from '../shared/platform/queues.js';

/**
 * Runs one job under the request id its data carries (so what it enqueues carries it on), and
 * records it: its wait from becoming due to starting, its processing time and outcome, and one log
 * line (queue, job id, row, outcome, duration).
 */
export async function observedJob(
  rt: Pick<Runtime, 'logger' | 'metrics' | 'tracing'>,
  queue: string,
  job: Job<unknown>,
  work: () => Promise<void>,
): Promise<void> {
  const requestId = requestIdOf(job.data);
  const name = job.name;
  const startedAt = Date.now();
  const dueAt = job.timestamp + (job.delay ?? 0);
  // A retried job waits from its previous attempt's end (processedOn is this attempt's start).
  if (job.attemptsMade === 0)
    rt.metrics.jobWait.observe({ queue, name }, Math.max(0, (job.processedOn ?? startedAt) - dueAt) / 1000);
  const started = process.hrtime.bigint();
  const done = (outcome: 'completed' | 'failed', error?: unknown) => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    rt.metrics.jobs.observe({ queue, name, outcome }, seconds);
    const row = rowOf(job.data);
    const line = {
      requestId,
      queue,
      job: name,
      jobId: job.id,
      row: row ? `${row.kind}:${row.id}` : null,
      attempt: job.attemptsMade + 1,
      outcome,
      ms: Math.round(seconds * 1e6) / 1000,
    };
    if (error === undefined) rt.logger.info('job', line);
    else rt.logger.warn('job', { ...line, error: error instanceof Error ? error.message : String(error) });
  };
  const run = () =>
    work().then(
      () => done('completed'),
      (err: unknown) => (done('failed', err), Promise.reject(err)),
    );
  return requestId ? rt.tracing.run({ requestId }, run) : run();
}
