import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Runtime } from '../runtime.js';
import type { Db } from '../db.js';
import type { RunStatus } from '../domain/run.js';
import { applyOfRun, planOfRun, transitionRun, updatePhase, type RunRow } from '../repos/runs.js';
import { finishPhase, type PhaseOutcome } from './run-progress.js';
import { findCv } from '../repos/configuration-versions.js';
import { findStateVersion, insertStateVersion, parseState } from '../repos/state-versions.js';
import { enterStage } from '../run-stages.js';
import { createLog, LogWriter } from '../logs.js';
import { readAll } from '../store/postgres-store.js';
import { prepareWorkdir, runTerraform, spawnTerraform, type ExitStatus, type TerraformSettings, type Workdir } from '../terraform/runner.js';
import { afterMove } from './runs.js';
import { leaseUntil, superviseProcess } from '../terraform/supervise.js';

export interface ExecutionDeps extends Runtime {
  workerId: string;
  terraform: TerraformSettings;
}

const preambles = new Map<string, Promise<{ text: string; version: string }>>();

/** The preamble real Terraform logs start with (the CLI skips the first three lines of apply logs); asked once per binary. */
function preamble(settings: TerraformSettings): Promise<{ text: string; version: string }> {
  let cached = preambles.get(settings.bin);
  if (!cached) {
    cached = readPreamble(settings);
    preambles.set(settings.bin, cached);
  }
  return cached;
}

async function readPreamble(settings: TerraformSettings): Promise<{ text: string; version: string }> {
  const { output } = await runTerraform(settings, ['version', '-json'], process.cwd(), { PATH: process.env.PATH ?? '' });
  let version = 'unknown';
  let platform = `${process.platform}_${process.arch === 'x64' ? 'amd64' : process.arch}`;
  try {
    const parsed = JSON.parse(output) as { terraform_version?: string; platform?: string };
    version = parsed.terraform_version ?? version;
    platform = parsed.platform ?? platform;
  } catch {
    // an old or odd binary: keep the defaults
  }
  return { text: `Terraform v${version}\non ${platform}\nInitializing plugins and modules...\n`, version };
}

async function currentState(deps: ExecutionDeps, workspaceId: string): Promise<Buffer | null> {
  const ws = await deps.db('workspaces').where({ id: workspaceId }).first('current_state_version_id');
  const sv = ws?.current_state_version_id ? await findStateVersion(deps.db, ws.current_state_version_id) : null;
  return sv?.object_id ? readAll(deps.store, sv.object_id) : null;
}

async function workdirFor(deps: ExecutionDeps, run: RunRow): Promise<Workdir> {
  const cv = run.configuration_version_id ? await findCv(deps.db, run.configuration_version_id) : undefined;
  if (!cv?.archive_object_id) throw new Error('the run has no configuration archive');
  const ws = await deps.db('workspaces').where({ id: run.workspace_id }).first('working_directory');
  return prepareWorkdir(deps.store, deps.terraform, {
    archiveObjectId: cv.archive_object_id,
    workingDirectory: ws?.working_directory ?? '',
    state: await currentState(deps, run.workspace_id),
    variables: run.variables,
  });
}

/** terraform init; its output reaches the log only when it fails. */
async function init(deps: ExecutionDeps, wd: Workdir, log: LogWriter): Promise<boolean> {
  const result = await runTerraform(deps.terraform, ['init', '-input=false', '-no-color', '-reconfigure'], wd.dir, wd.env);
  if (result.code === 0) return true;
  log.write(result.output);
  return false;
}

async function openLog(db: Db, table: 'plans' | 'applies', row: { id: string; log_id: string | null }): Promise<LogWriter> {
  const logId = row.log_id ?? (await createLog(db));
  if (!row.log_id) await db(table).where({ id: row.id }).update({ log_id: logId });
  const writer = new LogWriter(db, logId);
  await writer.open();
  return writer;
}

/** Counts of a JSON plan's resource changes, as TFE reports them (a replace adds and destroys). */
export function countChanges(plan: { resource_changes?: { change?: { actions?: string[] } }[] }) {
  const counts = { resource_additions: 0, resource_changes: 0, resource_destructions: 0 };
  for (const rc of plan.resource_changes ?? []) {
    const actions = rc.change?.actions ?? [];
    if (actions.includes('create')) counts.resource_additions++;
    if (actions.includes('delete')) counts.resource_destructions++;
    if (actions.includes('update')) counts.resource_changes++;
  }
  return counts;
}

function planArgs(run: RunRow): string[] {
  const args = ['plan', '-input=false', '-no-color', '-detailed-exitcode', '-out=plan.tfplan'];
  if (run.is_destroy) args.push('-destroy');
  if (run.refresh_only) args.push('-refresh-only');
  if (!run.refresh) args.push('-refresh=false');
  for (const t of run.target_addrs) args.push(`-target=${t}`);
  for (const r of run.replace_addrs) args.push(`-replace=${r}`);
  return args;
}

/** Claims a run for a Terraform phase: from its queued status, or by taking over an expired lease. */
async function claim(deps: ExecutionDeps, runId: string, queued: RunStatus, executing: RunStatus, event: 'start_plan' | 'start_apply') {
  return deps.db.transaction(async (tx) => {
    const run = await tx<RunRow>('runs').where({ id: runId }).forUpdate().first();
    if (!run) return { run: undefined, resumed: false };
    const lease = { lease_owner: deps.workerId, lease_until: leaseUntil(deps) };
    if (run.status === queued) return { run: await transitionRun(tx, run, event, { changes: lease }), resumed: false };
    const abandoned = run.status === executing && (!run.lease_until || run.lease_until < new Date());
    if (!abandoned) return { run: undefined, resumed: false };
    const [taken] = await tx<RunRow>('runs').where({ id: run.id, status: executing }).update(lease).returning('*');
    return { run: taken, resumed: true };
  });
}

/**
 * Stores the state Terraform wrote, if it changed (also after a failed apply, which may have
 * changed real infrastructure).
 */
async function saveState(deps: ExecutionDeps, run: RunRow, wd: Workdir, before: Buffer | null): Promise<void> {
  const after = await readFile(wd.statePath).catch(() => null);
  if (!after || (before && after.equals(before))) return;
  const state = parseState(after);
  await deps.db.transaction(async (tx) => {
    const obj = await deps.store.put(tx, after, { contentType: 'application/json', prefix: 'state' });
    await insertStateVersion(tx, deps.config.encryptionKey, { workspaceId: run.workspace_id, runId: run.id, objectId: obj.id, size: after.length, state });
  });
}

/**
 * Runs one phase: opens its log with `intro`, prepares a fresh working directory, runs
 * `terraform init` and then `body`; the log is closed and the directory removed whatever
 * happens, and the run moves on according to the outcome.
 */
async function runPhase(
  deps: ExecutionDeps,
  run: RunRow,
  phase: { table: 'plans' | 'applies'; id: string; log_id: string | null; executing: 'planning' | 'applying' },
  intro: string,
  body: (wd: Workdir, log: LogWriter) => Promise<PhaseOutcome>,
): Promise<void> {
  const log = await openLog(deps.db, phase.table, phase);
  log.write(intro);
  let wd: Workdir | null = null;
  let outcome: PhaseOutcome;
  try {
    wd = await workdirFor(deps, run);
    outcome = (await init(deps, wd, log)) ? await body(wd, log) : { kind: 'error', message: 'terraform init failed' };
  } catch (err) {
    log.write(`\nError: ${err instanceof Error ? err.message : String(err)}\n`);
    outcome = { kind: 'error', message: `the ${phase.table === 'plans' ? 'plan' : 'apply'} could not be run` };
  } finally {
    await wd?.cleanup();
  }
  await log.close();
  await finishPhase(deps, run.id, phase, phase.executing, outcome);
}

/** Runs a Terraform command under supervision; `stopped` says how it ended when a cancel or force-cancel stopped it. */
async function supervisedTerraform(deps: ExecutionDeps, run: RunRow, wd: Workdir, log: LogWriter, args: string[], executing: RunStatus) {
  const proc = spawnTerraform(deps.terraform, args, { cwd: wd.dir, env: wd.env, onOutput: (c) => log.write(c) });
  const watch = superviseProcess(deps, { table: 'runs', id: run.id, executing }, proc);
  const exit = await proc.done;
  watch.stop();
  const stopped: PhaseOutcome | null = watch.state.stop === 'force-canceled' ? { kind: 'gone' } : watch.state.stop === 'canceled' ? { kind: 'canceled' } : null;
  return { exit, stopped };
}

const exitMessage = (what: string, exit: ExitStatus) => `terraform ${what} exited with code ${exit.code ?? exit.signal}`;

/** Stores the saved plan and its JSON form (`terraform show -json`) and the change counts. */
async function storePlan(deps: ExecutionDeps, planId: string, wd: Workdir, hasChanges: boolean): Promise<void> {
  const show = await runTerraform(deps.terraform, ['show', '-json', 'plan.tfplan'], wd.dir, wd.env);
  if (show.code !== 0) throw new Error(`terraform show failed: ${show.output}`);
  const planFile = await readFile(join(wd.dir, 'plan.tfplan'));
  await deps.db.transaction(async (tx) => {
    const jsonObj = await deps.store.put(tx, Buffer.from(show.output), { contentType: 'application/json', prefix: 'planjson' });
    const fileObj = await deps.store.put(tx, planFile, { prefix: 'planfile' });
    await updatePhase(tx, 'plans', planId, { json_object_id: jsonObj.id, file_object_id: fileObj.id, has_changes: hasChanges, ...countChanges(JSON.parse(show.output)) });
  });
}

/** The `plan` step: runs terraform plan for a queued run (or plans again for one whose worker died). */
export async function executePlan(deps: ExecutionDeps, runId: string): Promise<void> {
  const { run, resumed } = await claim(deps, runId, 'plan_queued', 'planning', 'start_plan');
  if (!run) return;
  const plan = (await planOfRun(deps.db, run.id))!;
  await updatePhase(deps.db, 'plans', plan.id, { status: 'running', attempts: plan.attempts + 1 });
  const { text, version } = await preamble(deps.terraform);
  await deps.db('runs').where({ id: run.id }).update({ terraform_version: version });
  const intro = resumed ? '\nThe worker running this plan stopped; planning again.\n\n' : text;
  await runPhase(deps, run, { ...plan, table: 'plans', executing: 'planning' }, intro, async (wd, log) => {
    const { exit, stopped } = await supervisedTerraform(deps, run, wd, log, planArgs(run), 'planning');
    if (stopped) return stopped;
    // -detailed-exitcode: 0 no changes, 2 changes, anything else an error.
    if (exit.code !== 0 && exit.code !== 2) return { kind: 'error', message: exitMessage('plan', exit) };
    await storePlan(deps, plan.id, wd, exit.code === 2);
    return { kind: 'ok', hasChanges: exit.code === 2 };
  });
}

/** A confirmed run passes the pre-apply stage and is queued; an apply whose worker died fails the run. */
async function prepareApply(deps: ExecutionDeps, runId: string): Promise<RunRow | undefined> {
  return deps.db.transaction(async (tx) => {
    const run = await tx<RunRow>('runs').where({ id: runId }).forUpdate().first();
    if (!run) return undefined;
    if (run.status === 'confirmed') {
      const pre = await enterStage(tx, run, 'pre_apply');
      if (pre === 'fail') return transitionRun(tx, run, 'error', { description: 'a mandatory pre-apply task failed' });
      if (pre === 'wait') return transitionRun(tx, run, 'start_pre_apply');
      return transitionRun(tx, run, 'queue_apply');
    }
    if (run.status === 'pre_apply_completed') return transitionRun(tx, run, 'queue_apply');
    if (run.status === 'applying' && (!run.lease_until || run.lease_until < new Date())) {
      const message = 'The worker applying this run stopped unexpectedly. The apply was not started again, to avoid applying twice; check the workspace state before queuing a new run.';
      return transitionRun(tx, run, 'error', { description: message, changes: { error_message: message, lease_owner: null, lease_until: null } });
    }
    return run;
  });
}

/**
 * The `apply` step. The start of an apply is recorded before Terraform runs, and the saved plan
 * from the plan phase is applied; an apply is never run a second time.
 */
export async function executeApply(deps: ExecutionDeps, runId: string): Promise<void> {
  const prepared = await prepareApply(deps, runId);
  if (!prepared) return;
  if (prepared.status !== 'apply_queued') {
    if (prepared.status !== 'applying') await afterMove(deps, prepared);
    return;
  }
  const { run } = await claim(deps, runId, 'apply_queued', 'applying', 'start_apply');
  if (!run) return;
  const apply = (await applyOfRun(deps.db, run.id))!;
  const plan = (await planOfRun(deps.db, run.id))!;
  await updatePhase(deps.db, 'applies', apply.id, { status: 'running', started_at: new Date() });
  await runPhase(deps, run, { ...apply, table: 'applies', executing: 'applying' }, (await preamble(deps.terraform)).text, async (wd, log) => {
    const before = await readFile(wd.statePath).catch(() => null);
    const planFile = plan.file_object_id ? await readAll(deps.store, plan.file_object_id) : null;
    if (!planFile) throw new Error('the saved plan is missing');
    await writeFile(join(wd.dir, 'plan.tfplan'), planFile);
    const { exit, stopped } = await supervisedTerraform(deps, run, wd, log, ['apply', '-input=false', '-no-color', 'plan.tfplan'], 'applying');
    await saveState(deps, run, wd, before);
    if (stopped) return stopped;
    if (exit.code !== 0) return { kind: 'error', message: exitMessage('apply', exit) };
    const { resource_additions, resource_changes, resource_destructions } = plan;
    await updatePhase(deps.db, 'applies', apply.id, { resource_additions, resource_changes, resource_destructions });
    return { kind: 'ok' };
  });
}
