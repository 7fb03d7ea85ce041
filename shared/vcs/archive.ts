import { enqueueAfterCommit, jobs } from '../platform/queues.js';
import type { RunLifecycle } from '../runs/lifecycle.js';
import { isFinal } from '../runs/machine.js';
import { fetchedVersionOf } from './repositories.repo.js';

/**
 * Wires the archiving of fetched versions into a run lifecycle: when a run whose version came
 * from a repository ends, the version is archived once no other run uses it (its files are
 * fetched again for a later run).
 */
export function registerVcsArchiving(lifecycle: RunLifecycle): void {
  lifecycle.onRunTransition(
    async (_tx, change) => {
      const cvId = change.run.configuration_version_id;
      if (!cvId) return undefined;
      const runId = change.run.id;
      return {
        key: `archive:${cvId}`,
        run: (ctx) => enqueueAfterCommit(ctx.queues, jobs.vcsArchive(cvId, runId), ctx.logger),
      };
    },
    (db, move, row) => (isFinal(move.to) ? fetchedVersionOf(db, row) : null),
  );
}
