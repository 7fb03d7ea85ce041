import type { Runtime } from '../runtime.js';
import type { Db } from '../platform/db.js';
import { ApiError } from '../platform/errors.js';
import { pastRetention, policyInForce, policyOf } from './rules.js';
import {
  expiredConfigurationVersions,
  expiredStateVersions,
  policiesOfWorkspace,
  type ExpiredVersion,
} from './policies.repo.js';
import { claimDueStep, dueNow } from './schedules.repo.js';
import { purgeStateVersionData } from '../state/index.js';
import { purgeCvData } from '../configuration-versions/index.js';

/** The sweep step's name in sweep_schedules. */
export const DATA_RETENTION_STEP = 'data-retention';

type Deps = Pick<Runtime, 'db' | 'store' | 'logger' | 'metrics'>;

/** What one pass deleted (the ids of the versions whose backing data went), and whether it stopped at its batch size. */
export interface RetentionPass {
  stateVersions: string[];
  configurationVersions: string[];
  more: boolean;
}

/**
 * Deletes each version's backing data in a transaction of its own, once the policy in force in its
 * workspace, read again there, still says it is past retention (the policy may have changed since
 * the versions were chosen). A version that changed meanwhile is left for the next pass.
 */
async function purgeEach(
  rt: Deps,
  versions: ExpiredVersion[],
  now: Date,
  purge: (rt: Deps, tx: Db, id: string) => Promise<boolean>,
): Promise<string[]> {
  const purged: string[] = [];
  for (const v of versions) {
    try {
      const done = await rt.db.transaction(async (tx) => {
        const policies = await policiesOfWorkspace(tx, v.workspace_id);
        if (!policies || !pastRetention(policyInForce(policyOf(policies.w), policyOf(policies.o)), v.created_at, now))
          return false;
        return purge(rt, tx, v.id);
      });
      if (done) purged.push(v.id);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  }
  return purged;
}

/**
 * One pass of the data retention policies: deletes the backing data of at most `batch` state
 * versions and `batch` configuration versions that the policy in force in their workspace says are
 * too old (oldest first), as the backing-data actions would, never a workspace's current state or
 * configuration nor a configuration a run in progress uses. Logs and counts what it deleted.
 */
export async function enforceDataRetention(rt: Deps, batch: number, now = new Date()): Promise<RetentionPass> {
  const stateVersions = await purgeEach(rt, await expiredStateVersions(rt.db, now, batch), now, purgeStateVersionData);
  const configurationVersions = await purgeEach(
    rt,
    await expiredConfigurationVersions(rt.db, now, batch),
    now,
    purgeCvData,
  );
  if (stateVersions.length) rt.metrics.dataRetentionDeletions.inc({ kind: 'state_version' }, stateVersions.length);
  if (configurationVersions.length)
    rt.metrics.dataRetentionDeletions.inc({ kind: 'configuration_version' }, configurationVersions.length);
  if (stateVersions.length || configurationVersions.length) {
    rt.logger.info('data retention deleted backing data', {
      stateVersions: stateVersions.length,
      configurationVersions: configurationVersions.length,
      stateVersionIds: stateVersions,
      configurationVersionIds: configurationVersions,
    });
  }
  return {
    stateVersions,
    configurationVersions,
    more: stateVersions.length === batch || configurationVersions.length === batch,
  };
}

/**
 * The sweep's data retention step: a pass every DATA_RETENTION_INTERVAL_SECONDS (0: never),
 * taken by one sweeping process (see claimDueStep). A pass that filled its batch leaves the step
 * due, so the next sweep goes on where it stopped. A pass that fails waits for the next turn (the
 * sweep logs and counts it, and its other steps go on).
 */
export async function sweepDataRetention(rt: Deps & Pick<Runtime, 'config'>): Promise<RetentionPass | null> {
  const every = rt.config.dataRetentionIntervalSeconds;
  if (every === 0 || !(await claimDueStep(rt.db, DATA_RETENTION_STEP, every))) return null;
  const pass = await enforceDataRetention(rt, rt.config.dataRetentionBatchSize);
  if (pass.more) await dueNow(rt.db, DATA_RETENTION_STEP);
  return pass;
}
