import type { Runtime } from '../runtime.js';
import { findCv } from '../configuration-versions/index.js';
import { usableForRuns } from '../configuration-versions/machine.js';
import type { RunRow } from '../runs/repo.js';
import type { FollowUp } from '../runs/lifecycle.js';
import { autoDestroyPayload, recordDeliveries } from '../notifications/index.js';
import { afterMove, insertRun } from '../runs/index.js';
import { firstTries } from '../platform/queues.js';
import {
  autoDestroyDue,
  clearAutoDestroy,
  lockAutoDestroyWorkspace,
  recordAutoDestroyStep,
  type AutoDestroyWorkspace,
} from './repo.js';

const HOUR = 3_600_000;
const REMINDERS = [
  { kind: 'reminder-24h', before: 24 * HOUR },
  { kind: 'reminder-12h', before: 12 * HOUR },
] as const;
// Both spellings: TFE's `auto_destro_reminder` and the one go-tfe sends.
const REMINDER_TRIGGERS = ['workspace:auto_destro_reminder', 'workspace:auto_destroy_reminder'];
const RESULTS_TRIGGER = 'workspace:auto_destroy_run_results';

/** Reminders and the destroy run of one workspace, in one transaction. */
async function sweepWorkspace(
  rt: Runtime,
  ws: AutoDestroyWorkspace,
  now: number,
): Promise<[{ deliveries: string[]; run: RunRow | null }, FollowUp[]]> {
  return rt.lifecycle.transaction(rt.db, async (m) => {
    const { tx } = m;
    const locked = await lockAutoDestroyWorkspace(tx, ws.id);
    if (!locked?.auto_destroy_at || locked.auto_destroy_at.getTime() !== ws.auto_destroy_at.getTime())
      return { deliveries: [], run: null };
    const at = ws.auto_destroy_at.getTime();
    const deliveries: string[] = [];
    const base = { baseUrl: rt.config.baseUrl, workspace: ws, autoDestroyAt: ws.auto_destroy_at };
    if (at > now) {
      for (const r of REMINDERS) {
        if (now < at - r.before || !(await recordAutoDestroyStep(tx, ws, r.kind))) continue;
        deliveries.push(
          ...(await recordDeliveries(tx, {
            workspaceId: ws.id,
            triggers: REMINDER_TRIGGERS,
            eventKey: `${ws.id}:${at}:${r.kind}`,
            runId: null,
            payload: (configurationId, trigger) =>
              autoDestroyPayload({ ...base, configurationId, trigger, kind: 'reminder', run: null, error: null }),
          })),
        );
      }
      return { deliveries, run: null };
    }
    let run: RunRow | null = null;
    let error: string | null = null;
    // The current version may still be waiting for its upload (it becomes current when created).
    const cv = ws.current_configuration_version_id ? await findCv(tx, ws.current_configuration_version_id) : undefined;
    if (cv && usableForRuns(cv.status, cv.source)) {
      run = await insertRun(m, {
        workspace_id: ws.id,
        configuration_version_id: cv.id,
        source: 'tfe-api',
        message: 'Triggered by auto-destroy',
        is_destroy: true,
        auto_apply: true,
      });
    } else {
      error = cv
        ? `the workspace's current configuration version is ${cv.status}, not uploaded`
        : 'the workspace has no configuration version to destroy with';
    }
    if (!(await recordAutoDestroyStep(tx, ws, 'run', { run_id: run?.id, error: error ?? undefined })))
      throw new Error('auto-destroy already attempted');
    deliveries.push(
      ...(await recordDeliveries(tx, {
        workspaceId: ws.id,
        triggers: [RESULTS_TRIGGER],
        eventKey: `${ws.id}:${at}:results`,
        runId: null,
        payload: (configurationId, trigger) =>
          autoDestroyPayload({ ...base, configurationId, trigger, kind: 'results', run, error }),
      })),
    );
    await clearAutoDestroy(tx, ws.id);
    return { deliveries, run };
  });
}

/**
 * The auto-destroy sweep (run by the reconciler): reminders 24 h and 12 h before a workspace's
 * `auto-destroy-at`, and at that time a destroy run (auto-applied) with a results notification.
 */
export async function sweepAutoDestroy(rt: Runtime, now = Date.now()): Promise<void> {
  const due = await autoDestroyDue(rt.db, new Date(now + 24 * HOUR));
  for (const ws of due) {
    const [{ deliveries, run }, followUps] = await sweepWorkspace(rt, ws, now);
    await rt.deliveries.add(firstTries(deliveries, ws.organization_name));
    if (run) await afterMove(rt, run, followUps);
  }
}
