import type { Runtime } from '../runtime.js';
import type { TerraformSettings } from '../platform/terraform/runner.js';
import { effectiveVariables } from '../variables/index.js';
import { workspaceSshKey } from '../ssh-keys/index.js';
import { prepareWorkdir } from '../platform/terraform/runner.js';
import { planCommand, spawnPhase, type SpareShell } from '../platform/terraform/phase-process.js';
import { assessmentFindings, assessmentTriggers } from './rules.js';
import {
  archiveOfCv,
  findAssessedWorkspace,
  insertAssessment,
  latestAssessment,
  objectOfStateVersion,
  workspacesDueForAssessment,
  type AssessmentRow,
} from './repo.js';
import { FINAL_RUN_STATUSES } from '../runs/machine.js';
import { readAll } from '../platform/store/postgres-store.js';
import { assessmentPayload, assessmentResultJson, recordDeliveries } from '../notifications/index.js';
import { enqueueAfterCommit, firstTries, jobs } from '../platform/queues.js';

/**
 * The assessment sweep (run by the reconciler): queues an assessment for every workspace with
 * assessments enabled, state and a configuration, no run in progress, and no result within the interval.
 */
export async function sweepAssessments(rt: Runtime, now = Date.now()): Promise<void> {
  const interval = rt.config.assessmentIntervalSeconds * 1000;
  const due = await workspacesDueForAssessment(rt.db, new Date(now - interval), FINAL_RUN_STATUSES);
  const slot = Math.floor(now / interval);
  for (const id of due) await enqueueAfterCommit(rt.queues, jobs.assessment(id, slot), rt.logger);
}

/** Plans (refreshing, changing nothing) the workspace's current configuration against its current state. */
async function assess(
  rt: Runtime,
  terraform: TerraformSettings,
  spare: SpareShell | undefined,
  ws: {
    id: string;
    current_configuration_version_id: string;
    current_state_version_id: string;
    working_directory: string;
  },
) {
  const cv = await archiveOfCv(rt.db, ws.current_configuration_version_id);
  const sv = await objectOfStateVersion(rt.db, ws.current_state_version_id);
  if (!cv?.archive_object_id || !sv?.object_id)
    return { succeeded: false, error: 'the workspace has no configuration or state to assess', plan: null };
  const wd = await prepareWorkdir(
    terraform,
    {
      archive: await rt.store.get(cv.archive_object_id),
      workingDirectory: ws.working_directory,
      state: await readAll(rt.store, sv.object_id),
      // The workspace's and its variable sets' variables, as a run's plan gets them (no run variables).
      ...(await effectiveVariables(rt.db, rt.config.encryptionKey, { workspaceId: ws.id }, []).then((v) => ({
        variables: v.terraform,
        environment: v.env,
      }))),
      sshKey: await workspaceSshKey(rt.db, rt.config.encryptionKey, ws.id),
    },
    spare?.place(terraform),
  );
  const phase = spawnPhase(terraform, wd, { command: planCommand(), show: true }, spare);
  const planOutput: Buffer[] = [];
  phase.output((c) => planOutput.push(c));
  // An assessment is a plan: it gets the plan's time limit (then it fails like a plan that errors).
  const limit = setTimeout(() => phase.process.kill(), rt.config.runPlanTimeoutSeconds * 1000);
  try {
    const init = await phase.init;
    if (init.code !== 0)
      return { succeeded: false, error: `terraform init failed: ${init.output.slice(-2000)}`, plan: null };
    phase.go();
    const plan = await phase.main;
    if (plan.code !== 0 && plan.code !== 2)
      return { succeeded: false, error: Buffer.concat(planOutput).toString('utf8').slice(-2000), plan: null };
    const show = await phase.show;
    if (show.code !== 0) return { succeeded: false, error: show.output.slice(-2000), plan: null };
    return { succeeded: true, error: null, plan: JSON.parse(show.json!.toString('utf8')) };
  } finally {
    clearTimeout(limit);
    phase.process.kill();
    await phase.process.done;
    await wd.cleanup();
  }
}

/** Assesses one workspace, stores the result, and notifies configurations subscribed to what it found. */
export async function executeAssessment(
  rt: Runtime,
  terraform: TerraformSettings,
  workspaceId: string,
  spare?: SpareShell,
): Promise<AssessmentRow | null> {
  const ws = await findAssessedWorkspace(rt.db, workspaceId);
  if (!ws?.current_configuration_version_id || !ws.current_state_version_id) return null;
  const outcome = await assess(rt, terraform, spare, ws);
  const findings = outcome.plan ? assessmentFindings(outcome.plan) : assessmentFindings({});
  const { result, deliveries } = await rt.db.transaction(async (tx) => {
    const prior = await latestAssessment(tx, ws.id);
    const result = await insertAssessment(tx, {
      workspace_id: ws.id,
      succeeded: outcome.succeeded,
      error_message: outcome.error,
      ...findings,
    });
    const newResult = assessmentResultJson(rt.config.baseUrl, result);
    const priorResult = prior ? assessmentResultJson(rt.config.baseUrl, prior) : null;
    const deliveries: string[] = [];
    // Each trigger is its own event, so a configuration subscribed to several gets one of each.
    for (const trigger of assessmentTriggers(result)) {
      deliveries.push(
        ...(await recordDeliveries(tx, {
          workspaceId: ws.id,
          triggers: [trigger],
          eventKey: `${result.id}:${trigger}`,
          runId: null,
          payload: (configurationId) =>
            assessmentPayload({
              configurationId,
              baseUrl: rt.config.baseUrl,
              trigger,
              workspace: ws,
              result: newResult,
              prior: priorResult,
            }),
        })),
      );
    }
    return { result, deliveries };
  });
  await rt.deliveries.add(firstTries(deliveries, ws.organization_name));
  return result;
}
