import type { Config } from '../platform/config.js';
import type { Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import { runTrigger } from './machine.js';
import type { AfterMoveContext, FollowUp, RunLifecycle, RunTransition } from '../runs/lifecycle.js';
import { runPayload } from './payloads.js';
import { hasEnabledConfiguration, subscribedConfigurations, usernameOf, workspaceNames } from './repo.js';
import { insertNewDeliveries, untriedDeliveriesOfRun } from './deliveries.repo.js';

/**
 * Writes one delivery per enabled configuration of the workspace subscribed to any of `triggers`
 * (the first of them it subscribes to), in the caller's transaction; a configuration gets at most
 * one delivery per `eventKey`. Returns the ids written.
 */
export async function recordDeliveries(
  tx: Db,
  e: {
    workspaceId: string;
    triggers: string[];
    eventKey: string;
    runId: string | null;
    payload: (configurationId: string, trigger: string) => unknown | Promise<unknown>;
  },
): Promise<string[]> {
  const configurations = await subscribedConfigurations(tx, e.workspaceId, e.triggers);
  if (!configurations.length) return [];
  const rows = [];
  for (const c of configurations) {
    const trigger = e.triggers.find((t) => c.triggers.includes(t))!;
    rows.push({
      id: newId('ndel'),
      configuration_id: c.id,
      run_id: e.runId,
      event_key: e.eventKey,
      trigger,
      payload: JSON.stringify(await e.payload(c.id, trigger)),
    });
  }
  return insertNewDeliveries(tx, rows);
}

/**
 * Records the run trigger a move fires (same transaction as the move); when it wrote deliveries,
 * leaves their hand-off for after the commit (once per run and transaction).
 */
async function recordRunNotifications(tx: Db, config: Config, change: RunTransition): Promise<FollowUp | undefined> {
  const trigger = runTrigger(change, change.run);
  if (!trigger) return undefined;
  // What the payload names is read only when a configuration is subscribed, and then once.
  let names:
    | Promise<{
        ws: { id: string; name: string; organization_name: string };
        createdBy: string | null;
        updatedBy: string | null;
      }>
    | undefined;
  const readNames = async () => {
    const ws = await workspaceNames(tx, change.run.workspace_id);
    // Moves the pipeline makes on its own (planning, applying, ...) are on behalf of the run's creator.
    const createdBy = await usernameOf(tx, change.run.created_by_id);
    return { ws, createdBy, updatedBy: (await usernameOf(tx, change.actorId)) ?? createdBy };
  };
  const written = await recordDeliveries(tx, {
    workspaceId: change.run.workspace_id,
    triggers: [trigger],
    eventKey: `${change.run.id}:${trigger}`,
    runId: change.run.id,
    payload: async (configurationId) => {
      const { ws, createdBy, updatedBy } = await (names ??= readNames());
      return runPayload({
        configurationId,
        baseUrl: config.baseUrl,
        trigger,
        run: change.run,
        runCreatedBy: createdBy,
        runUpdatedBy: updatedBy,
        workspace: ws,
        organizationName: ws.organization_name,
      });
    },
  });
  const runId = change.run.id;
  return written.length ? { key: `notifications:${runId}`, run: (ctx) => queueRunDeliveries(ctx, runId) } : undefined;
}

/**
 * After a move that wrote deliveries commits, hands the run's deliveries that have not been tried
 * yet to the next round of delivery jobs; a move that wrote none (most runs' workspaces have no
 * configuration) leaves nothing to do. The run does not wait for the round: the rows are
 * committed, and a round that never goes out (the process dies first) is made good by the reconciler.
 */
async function queueRunDeliveries(rt: AfterMoveContext, runId: string): Promise<void> {
  const rows = await untriedDeliveriesOfRun(rt.db, runId);
  void rt.deliveries.add(rows.map((r) => ({ id: r.id, attempt: 1, organization: r.organization_name })));
}

/** Wires run notifications into a run lifecycle. */
export function registerNotifications(lifecycle: RunLifecycle, config: Config): void {
  // Most workspaces have no configuration: their moves need no look at the configurations.
  lifecycle.onRunTransition(
    (tx, change) => recordRunNotifications(tx, config, change),
    (db, _move, row) => hasEnabledConfiguration(db, row),
  );
}
