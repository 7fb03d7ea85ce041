import type { Logger } from '../platform/logger.js';
import type { Metrics } from './metrics.js';
import type { RunTransition } from '../runs/lifecycle.js';
import { timestampKey } from '../runs/machine.js';
import type { Tracing } from '../platform/logger.js';

/** What the run-move observer writes to: the process's log and metrics. */
export interface MoveObserver {
  logger: Logger;
  metrics: Metrics;
  tracing: Tracing;
}

/**
 * One log line per committed run move (run id, from → to, the event that moved it and who), the
 * move counted, and the time the run spent in the status it left (from its status timestamps).
 */
export function recordRunMoves(o: MoveObserver, moves: readonly RunTransition[]): void {
  const now = Date.now();
  const requestId = o.tracing.getStore()?.requestId;
  for (const { run, from, to, event, actorId } of moves) {
    const fromLabel = from ?? 'none';
    o.metrics.runMoves.inc({ from: fromLabel, to });
    const entered = from ? run.status_timestamps?.[timestampKey(from)] : undefined;
    const seconds = entered ? (now - Date.parse(entered)) / 1000 : undefined;
    if (from && seconds !== undefined && Number.isFinite(seconds) && seconds >= 0)
      o.metrics.runPhase.observe({ phase: from, to }, seconds);
    o.logger.info('run moved', {
      requestId,
      runId: run.id,
      workspaceId: run.workspace_id,
      from: fromLabel,
      to,
      event,
      actorId,
      ...(seconds !== undefined ? { secondsInFrom: Math.round(seconds * 1000) / 1000 } : {}),
    });
  }
}
