// A dead worker's run directories, which the sweeper clears, are the engine's.
export { removeAbandonedWorkdirs } from '../platform/terraform/runner.js';

// The run engine's face for worker processes: a run's plan and apply phases in the sandbox.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import type { Runtime } from '../runtime.js';
import type { Db } from '../platform/db.js';
import { databaseUnavailable } from '../platform/errors.js';
import type { RunStatus } from './machine.js';
import {
  openRunVariables,
  phaseSourcesOf,
  planOfRun,
  updatePhase,
  type ApplyRow,
  type PlanRow,
  type RunRow,
} from './repo.js';
import { transitionRun } from './moves.js';
import { runGate } from './gates.js';
import { finishPhase, ProductFailed, type PhaseOutcome } from './progress.js';
import { insertStateVersion, parseState } from '../state/index.js';
import { errorAbandonedApply, lockForStateCheck } from './abandoned.js';
import type { FollowUp } from './lifecycle.js';
import { createLog, LogWriter } from '../platform/logs.js';
import { readAll } from '../platform/store/postgres-store.js';
import {
  prepareWorkdir,
  runTerraform,
  type ExitStatus,
  type TerraformSettings,
  type Workdir,
  type WorkdirSources,
} from '../platform/terraform/runner.js';
import {
  applyCommand,
  planPhase,
  spawnPhase,
  type PhaseCommands,
  type PhaseProcess,
  type PlanOptions,
  type ShowResult,
  type SpareShell,
} from '../platform/terraform/phase-process.js';
import { afterMove, lockWorkspace } from './commands.js';
import { waitsForFiles } from './uploads.js';
import { claimLease, leaseExpired, leaseUntil } from '../platform/leases.js';
import { keepLease, leaseOwner, superviseProcess } from '../platform/terraform/supervise.js';
import type { RunningPhases } from '../platform/terraform/phases.js';
import { resolveEffectiveVariables, variablesLogLines, type EffectiveVariables } from '../variables/index.js';
import { newPhaseToken, revokePhaseToken } from './tokens.js';
import type { NewRunToken } from '../identity/tokens.repo.js';
import { runServiceAccess } from './service-access.js';
import { openSshKey } from '../ssh-keys/index.js';
import { secretsWithheldLine } from './withheld-secrets.js';

export interface ExecutionDeps extends Runtime {
  workerId: string;
  terraform: TerraformSettings;
  /** This process's running phases, which its shutdown stops when its budget runs out. */
  phases: RunningPhases;
  /** The log preambles of this process's Terraform binaries. */
  preambles: TerraformPreambles;
  /** The shell this process keeps started ahead of its next phase when it runs them unsandboxed. */
  spareShell: SpareShell;
}

/** The preamble real Terraform logs start with (the CLI skips the first three lines of apply logs); asked once per binary and process. */
export class TerraformPreambles {
  private readonly byBin = new Map<string, Promise<{ text: string; version: string }>>();

  of(settings: TerraformSettings): Promise<{ text: string; version: string }> {
    let cached = this.byBin.get(settings.bin);
    if (!cached) {
      cached = readPreamble(settings);
      this.byBin.set(settings.bin, cached);
    }
    return cached;
  }
}

async function readPreamble(settings: TerraformSettings): Promise<{ text: string; version: string }> {
  const { output } = await runTerraform(settings, ['version', '-json'], process.cwd(), {
    PATH: process.env.PATH ?? '',
  });
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

/**
 * What a run's working directory is made of (its configuration, its workspace's current state,
 * SSH key and variables), and the run's options: one statement, which also writes the phase's token,
 * and the archive read alongside it (its id looked up in the same query that reads its bytes). A
 * run whose secrets are withheld (see withheld-secrets.ts) gets no sensitive variable, no state
 * and no SSH key; its token reads nothing of the API (see server/auth.ts).
 */
async function sourcesOf(
  deps: ExecutionDeps,
  runId: string,
  token: NewRunToken,
): Promise<{ sources: WorkdirSources; options: PlanOptions; variables: EffectiveVariables; secretsWithheld: boolean }> {
  const archiveId = deps
    .db('runs as r')
    .join('configuration_versions as cv', 'cv.id', 'r.configuration_version_id')
    .where('r.id', runId)
    .select('cv.archive_object_id');
  const archive = deps.store.get(archiveId);
  archive.catch(() => undefined);
  const row = await phaseSourcesOf(deps.db, runId, token);
  if (!row?.archive_object_id) throw new Error('the run has no configuration archive');
  const withheld = row.secrets_withheld;
  // The workspace's, its variable sets' and the run's own variables, resolved by precedence.
  const variables = resolveEffectiveVariables(
    deps.config.encryptionKey,
    row.reaching,
    openRunVariables(deps.config.encryptionKey, row),
    { withholdSensitive: withheld },
  );
  const sources = {
    archive: await archive,
    workingDirectory: row.working_directory ?? '',
    state: row.state_object_id && !withheld ? await readAll(deps.store, row.state_object_id) : null,
    variables: variables.terraform,
    environment: variables.env,
    sshKey: withheld ? null : openSshKey(deps.config.encryptionKey, row.ssh_key_sealed),
  };
  return { sources, options: row, variables, secretsWithheld: withheld };
}

/** A phase's working directory and its Terraform process, started before the run is claimed. */
interface PhaseStart {
  /** The directory, and the process once `init` is running in it. */
  ready: Promise<{ wd: Workdir; phase: PhaseProcess; variables: EffectiveVariables; secretsWithheld: boolean }>;
  /** Settles with `ready`, failed or not: the claim waits for it (see startPhase). */
  settled: Promise<void>;
  /** Stops the process and removes the directory: once the phase is over, or for a run this worker did not claim. */
  discard(): Promise<void>;
}

/**
 * Prepares a run's working directory and starts the phase's Terraform process in it, which runs
 * `init` at once and waits for `go` before the phase's command. Neither the directory nor init
 * depends on anything a claim changes (init reads the configuration and installs providers into
 * the directory, nothing else), so init overlaps the claim. The claim comes once init has
 * started: it is needed only when init ends, and its queries would otherwise compete with the
 * directory's reads on the way to init. Failures are reported where `ready` is awaited. The
 * phase's run token (see run-tokens.ts) is written by the sources' statement and revoked by `discard`.
 */
function startPhase(
  deps: ExecutionDeps,
  runId: string,
  what: 'plan' | 'apply',
  commands: (run: PlanOptions) => PhaseCommands,
): PhaseStart {
  let discarded = false;
  let made: Workdir | undefined;
  // The phase's own API token (terraform_remote_state and registry modules are read with it),
  // written by the statement that reads the sources, so it exists before the phase's process
  // starts; revoked when the phase is discarded (it ends, or was not claimed; revoking a token
  // that was never written changes nothing).
  const token = newPhaseToken(deps, runId, what);
  const ready = sourcesOf(deps, runId, token).then(async ({ sources, options, variables, secretsWithheld }) => {
    const wd = (made = await prepareWorkdir(
      deps.terraform,
      { ...sources, service: runServiceAccess(deps.config, token.secret) },
      deps.spareShell.place(deps.terraform),
    ));
    if (discarded) throw new Error('the phase was discarded');
    return {
      wd,
      phase: spawnPhase(deps.terraform, wd, commands(options), deps.spareShell),
      variables,
      secretsWithheld,
    };
  });
  return {
    ready,
    settled: ready.then(
      () => undefined,
      () => undefined,
    ),
    async discard() {
      discarded = true;
      const started = await ready.catch(() => undefined);
      if (started) {
        started.phase.process.kill();
        await started.phase.process.done;
      }
      await revokePhaseToken(deps, token.id).catch((err: unknown) =>
        deps.logger.warn('a run token could not be revoked', { runId, error: String(err) }),
      );
      await made?.cleanup();
    },
  };
}

/**
 * Opens the phase's log with `intro`. Not waited for: Terraform starts meanwhile, its output
 * queues behind the opening, and a failure surfaces when the log is closed.
 */
async function openLog(
  deps: ExecutionDeps,
  table: 'plans' | 'applies',
  row: { id: string; log_id: string | null },
  intro: string,
): Promise<LogWriter> {
  const { db } = deps;
  const logId = row.log_id ?? (await createLog(db));
  if (!row.log_id) await db(table).where({ id: row.id }).update({ log_id: logId });
  const writer = new LogWriter(db, logId, { maxBytes: deps.config.maxLogBytes });
  writer.open(intro).catch(() => undefined);
  return writer;
}

/** Why a phase is not run at all (its message becomes the run's error message). */
class PhaseRefused extends Error {}

interface PhaseStep {
  queued: RunStatus;
  executing: 'planning' | 'applying';
  event: 'start_plan' | 'start_apply';
  table: 'plans' | 'applies';
  /** Written to the plan or apply row when the run is claimed. */
  phase: Record<string, unknown>;
  /** Written to the run when it is claimed (a value may be SQL). */
  run?: { [K in keyof RunRow]?: RunRow[K] | Knex.Raw };
  /** Whether a run whose worker's lease expired is taken over (plans: yes; applies never run twice). */
  resumable: boolean;
}

/**
 * Claims a run for a Terraform phase under `owner`'s lease, with a compare-and-set from its queued
 * status or by taking over an expired lease when the step allows it, and marks its plan or apply
 * running in the same transaction.
 */
async function claim<P extends PlanRow | ApplyRow>(deps: ExecutionDeps, runId: string, owner: string, step: PhaseStep) {
  return deps.lifecycle.transaction(deps.db, async (m) => {
    const { tx } = m;
    const changes = { ...step.run, lease_owner: owner, lease_until: leaseUntil(tx, deps) };
    let run = await transitionRun(m, { id: runId, status: step.queued }, step.event, { changes });
    const resumed = !run;
    if (!run && step.resumable) {
      [run] = await claimLease<RunRow>(tx, {
        table: 'runs',
        id: runId,
        from: [],
        to: step.executing,
        takeOver: true,
        owner,
        leaseSeconds: deps.config.runLeaseSeconds,
        set: step.run,
      });
    }
    if (!run) return undefined;
    const phase = (await updatePhase<P>(tx, step.table, { run_id: runId }, step.phase))!;
    return { run, phase, resumed };
  });
}

/**
 * Claims a run for the phase `start` began (see startPhase), once its directory and process are
 * ready or have failed, under a lease owner of its own; discards the phase when the claim fails
 * or finds nothing to run. `earlier`: work left by the moves that queued the run in this job.
 */
async function claimStarted<P extends PlanRow | ApplyRow>(
  deps: ExecutionDeps,
  runId: string,
  start: PhaseStart,
  step: PhaseStep,
  earlier: FollowUp[] = [],
) {
  await start.settled;
  const owner = leaseOwner(deps.workerId);
  const [claimed, followUps] = await claim<P>(deps, runId, owner, step).catch(async (err: unknown) => {
    await start.discard();
    throw err;
  });
  if (claimed) {
    // What the claim's move wrote for after its commit (a run:planning or run:applying
    // notification) goes out now, not when the phase ends.
    await deps.lifecycle
      .runAfterMoves(deps, [...earlier, ...followUps])
      .catch((err: unknown) => deps.logger.warn('after-claim work failed', { runId, error: String(err) }));
    return { owner, ...claimed };
  }
  await start.discard();
  return undefined;
}

/** How often a running apply's state file is looked at (and stored when Terraform changed it). */
const STATE_SYNC_MS = 2_000;

/** Stores one state an apply wrote as a new current state version of the run's workspace. */
async function storeState(deps: ExecutionDeps, run: RunRow, state: Buffer): Promise<void> {
  const parsed = parseState(state);
  await deps.db.transaction(async (tx) => {
    const obj = await deps.store.put(tx, state, { contentType: 'application/json', prefix: 'state' });
    await insertStateVersion(tx, deps.config.encryptionKey, {
      workspaceId: run.workspace_id,
      runId: run.id,
      objectId: obj.id,
      size: state.length,
      state: parsed,
    });
  });
}

/**
 * Stores the state a running apply writes as Terraform writes it (it persists snapshots while it
 * applies), looking every STATE_SYNC_MS: a worker killed mid-apply leaves the service the state
 * of what was done so far, not only a file on its disk. A file caught half written (not JSON yet)
 * waits for the next look. `stop` ends the looking and resolves with the last state stored (or
 * `before`), which the apply's final save compares with.
 */
function syncState(
  deps: ExecutionDeps,
  run: RunRow,
  wd: Workdir,
  before: Buffer | null,
): { stop(): Promise<Buffer | null> } {
  let last = before;
  let tick: Promise<void> = Promise.resolve();
  const look = async () => {
    const now = await readFile(wd.statePath).catch(() => null);
    if (!now?.length || (last && now.equals(last))) return;
    try {
      await storeState(deps, run, now);
      last = now;
    } catch (err) {
      if (!(err instanceof SyntaxError))
        deps.logger.warn('an intermediate state could not be stored', { runId: run.id, error: String(err) });
    }
  };
  const timer = setInterval(() => (tick = tick.then(look)), STATE_SYNC_MS);
  return {
    async stop() {
      clearInterval(timer);
      await tick;
      return last;
    },
  };
}

/**
 * Stores the state Terraform wrote, if it changed (also after a failed apply, which may have
 * changed real infrastructure): tried three times, and while the database cannot be reached, for
 * up to STATE_SAVE_RETRY_SECONDS. When it cannot be stored, the state is not lost with the
 * working directory: it is kept on disk (see keepState), as Terraform keeps an `errored.tfstate`
 * when its backend refuses a state, and the error says where.
 */
async function saveState(deps: ExecutionDeps, run: RunRow, wd: Workdir, before: Buffer | null): Promise<void> {
  const after = await readFile(wd.statePath).catch(() => null);
  // Empty: Terraform was stopped before it wrote any state.
  if (!after?.length || (before && after.equals(before))) return;
  try {
    await whileDatabaseAway(deps, run.id, 'store the state an apply wrote', () => storeState(deps, run, after), {
      patienceMs: deps.config.stateSaveRetrySeconds * 1000,
      tries: 3,
    });
  } catch (err) {
    const kept = await keepState(deps, run, wd, after);
    // Named, not quoted: a database error's message may carry what it was given (the state).
    const code = (err as { code?: unknown }).code;
    const reason =
      err instanceof SyntaxError
        ? 'it is not valid JSON'
        : typeof code === 'string'
          ? `database error ${code}`
          : 'an unexpected error';
    deps.logger.error('the state an apply wrote could not be stored; it was kept on disk', {
      runId: run.id,
      workspaceId: run.workspace_id,
      host: hostname(),
      path: kept,
      error: reason,
    });
    throw new Error(
      `the state this apply wrote could not be stored (${reason}). It was kept at ${kept} on the worker's host ${hostname()}; ` +
        'push it to the workspace (terraform state push) before the workspace runs again.',
    );
  }
}

/**
 * Keeps a state that could not be stored, for an operator to push; returns its path. First in
 * STATE_RECOVERY_DIR; when that fails too (a full or read-only disk), the partial copy is removed
 * and the run's own directory, which holds the state already, is kept instead: the leftover
 * clean-up moves it to the recovery directory once this process is gone and there is room.
 */
async function keepState(deps: ExecutionDeps, run: RunRow, wd: Workdir, state: Buffer): Promise<string> {
  const path = join(deps.config.stateRecoveryDir, `${run.id}-${Date.now()}.tfstate`);
  try {
    await mkdir(deps.config.stateRecoveryDir, { recursive: true, mode: 0o700 });
    await writeFile(path, state, { mode: 0o600, flag: 'wx' });
    return path;
  } catch (err) {
    await rm(path, { force: true }).catch(() => undefined);
    wd.keep();
    const code = (err as { code?: unknown }).code;
    deps.logger.error("STATE_RECOVERY_DIR could not take an apply's state; the run's directory holding it is kept", {
      runId: run.id,
      path: wd.statePath,
      error: typeof code === 'string' ? code : String(err),
    });
    return wd.statePath;
  }
}

/**
 * Runs one phase claimed under `owner`'s lease, which it keeps until the phase is recorded:
 * opens its log with `intro`, lets `prepare` finish the working directory,
 * tells the phase's process to run its command as soon as `terraform init` (started with the
 * directory, before the claim) has succeeded, and then runs `body`, which waits for the command.
 * The end of the phase, what it produced and its closed log are recorded in one transaction that
 * moves the run on, whatever happened (see finishPhase); it begins as soon as the command has
 * ended, so what it does before the products are saved overlaps their making. When saving them
 * fails, that transaction is rolled back and a second one records the phase as errored. The
 * directory is removed after that, off the path to the run's next status.
 */
async function runPhase(
  deps: ExecutionDeps,
  run: RunRow,
  owner: string,
  phase: { table: 'plans' | 'applies'; id: string; log_id: string | null; executing: 'planning' | 'applying' },
  start: PhaseStart,
  intro: string,
  steps: {
    prepare?: (wd: Workdir) => Promise<void>;
    body: (wd: Workdir, phase: PhaseProcess, watch: Watch, log: LogWriter) => Promise<PhaseOutcome>;
  },
): Promise<void> {
  const what = phase.table === 'plans' ? 'plan' : 'apply';
  const lease = keepLease(deps, { table: 'runs', id: run.id }, owner);
  try {
    const log = await openLog(deps, phase.table, phase, intro);
    let outcome: PhaseOutcome;
    let running: PhaseProcess | undefined;
    try {
      const { wd, phase: proc, variables, secretsWithheld } = await start.ready;
      running = proc;
      deps.phases.add(proc.process);
      // What was withheld and the names of the variables given (never a value), before Terraform's output.
      if (secretsWithheld) log.write(secretsWithheldLine(variables.withheld.map((v) => v.key)));
      const header = variablesLogLines(variables);
      if (header) log.write(header);
      proc.output((c) => log.write(c));
      // Watched from the claim on: a cancel or force-cancel while init runs stops the phase before
      // its command, and the phase's time limit counts from here.
      const seconds = phase.table === 'plans' ? deps.config.runPlanTimeoutSeconds : deps.config.runApplyTimeoutSeconds;
      const limit = { deadline: Date.now() + seconds * 1000, graceMs: deps.config.runTimeoutGraceSeconds * 1000 };
      const watch = superviseProcess(
        deps,
        { table: 'runs', id: run.id, executing: phase.executing },
        proc.process,
        limit,
      );
      try {
        await steps.prepare?.(wd);
        proc.go();
        const init = await proc.init;
        const stopped = stoppedBy(watch, proc, what, seconds);
        if (stopped) outcome = stopped;
        else if (init.code === 0) outcome = await steps.body(wd, proc, watch, log);
        else {
          log.write(init.output);
          outcome = { kind: 'error', message: 'terraform init failed' };
        }
      } finally {
        watch.stop();
      }
    } catch (err) {
      log.write(`\nError: ${err instanceof Error ? err.message : String(err)}\n`);
      outcome = { kind: 'error', message: err instanceof PhaseRefused ? err.message : `the ${what} could not be run` };
    }
    if (running) deps.phases.delete(running.process);
    const stoppedAtShutdown = running !== undefined && deps.phases.wasStopped(running.process);
    if (stoppedAtShutdown && phase.table === 'plans') {
      // The worker is shutting down and stopped this plan: another worker plans it again.
      log.write('\nThe worker running this plan is shutting down; another worker will plan again.\n');
      // Flushed, not closed: the worker that plans again goes on writing this log.
      await log.flush().catch(() => undefined);
      await handBack(deps, run.id, owner);
      return;
    }
    // An apply stopped at shutdown is errored and its workspace locked, as when its worker dies; one
    // whose terraform had already finished well (its state saved) is recorded as it ended.
    const cutOff = stoppedAtShutdown && outcome.kind !== 'gone' && outcome.kind !== 'ok';
    if (cutOff) outcome = { kind: 'error', limit: true, message: APPLY_STOPPED_AT_SHUTDOWN, checkState: true };
    // A limit that stopped the phase is said in its log, where the CLI shows it.
    if (outcome.kind === 'error' && outcome.limit) log.write(`\nError: ${outcome.message}\n`);
    const record = (ended: PhaseOutcome) => {
      const check = ended.kind === 'error' && ended.checkState ? ended.message : null;
      return deps.lifecycle.transaction(deps.db, async (m) => {
        // The workspace first when it will be locked, in the order every such move takes them.
        if (check) await lockWorkspace(m.tx, run.workspace_id);
        const moved = await finishPhase(m, run, owner, phase, ended, (t) => log.closing(t));
        if (moved && check) await lockForStateCheck(m.tx, moved, check);
        return moved;
      });
    };
    const recordWhileAway = (ended: PhaseOutcome) =>
      whileDatabaseAway(deps, run.id, 'record the end of a phase', () => record(ended), {
        patienceMs: RECORD_PATIENCE_MS,
      });
    const [moved, followUps] = await recordWhileAway(outcome).catch((err: unknown) => {
      if (!(err instanceof ProductFailed)) throw err;
      log.write(`\nError: ${err.message}\n`);
      return recordWhileAway({ kind: 'error', message: `the ${what} could not be run` });
    });
    if (moved) await afterMove(deps, moved, followUps);
  } finally {
    lease.stop();
    await start.discard();
  }
}

const APPLY_STOPPED_AT_SHUTDOWN =
  "The worker applying this run shut down (SHUTDOWN_BUDGET_MS) and stopped the apply; check the workspace's state (the apply's log says what was stored) before queuing a new run.";

/** How long the end of a phase is tried again while the database cannot be reached. */
const RECORD_PATIENCE_MS = 10 * 60_000;
/** The longest wait between two tries (see whileDatabaseAway); they start at half a second and double. */
const RETRY_WAIT_MS = 5_000;

/**
 * Runs `attempt` until it is not refused for want of the database, for up to `patienceMs`, and
 * `tries` times in all whatever else refuses it (but a SyntaxError, which a retry cannot mend).
 * A worker that is alive stores its apply's state and records how its phase ended once the
 * database is back, rather than leaving it to the sweep as if it had died.
 */
async function whileDatabaseAway<T>(
  deps: ExecutionDeps,
  runId: string,
  what: string,
  attempt: () => Promise<T>,
  opts: { patienceMs: number; tries?: number },
): Promise<T> {
  const giveUpAt = Date.now() + opts.patienceMs;
  for (let tried = 1, wait = 500; ; tried++, wait = Math.min(wait * 2, RETRY_WAIT_MS)) {
    try {
      return await attempt();
    } catch (err) {
      const cause = err instanceof ProductFailed ? err.reason : err;
      const away = databaseUnavailable(cause) && Date.now() + wait < giveUpAt;
      if (!away && (cause instanceof SyntaxError || tried >= (opts.tries ?? 1))) throw err;
      if (away) deps.logger.warn(`the database cannot be reached to ${what}; trying again`, { runId, inMs: wait });
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
/**
 * Gives up `owner`'s lease on a run at once (it expires now), so the next sweep queues the plan
 * again for another worker, as it does one whose worker died (plans only).
 */
async function handBack(deps: ExecutionDeps, runId: string, owner: string): Promise<void> {
  await deps.db('runs').where({ id: runId, lease_owner: owner }).update({ lease_until: deps.db.fn.now() });
  deps.logger.info('plan handed back at shutdown', { runId });
}

type Watch = ReturnType<typeof superviseProcess>;

/**
 * How the phase ended when something stopped it, else null: a cancel or force-cancel, its time
 * limit, or a limit of its sandbox (the working directory's size).
 */
function stoppedBy(watch: Watch, phase: PhaseProcess, what: string, seconds: number): PhaseOutcome | null {
  if (watch.state.stop === 'force-canceled') return { kind: 'gone' };
  if (watch.state.stop === 'canceled') return { kind: 'canceled' };
  const env = what === 'plan' ? 'RUN_PLAN_TIMEOUT_SECONDS' : 'RUN_APPLY_TIMEOUT_SECONDS';
  if (watch.state.stop === 'timeout')
    return {
      kind: 'error',
      limit: true,
      message: `the ${what} exceeded its time limit of ${seconds} seconds (${env}) and was stopped`,
    };
  const violation = phase.process.violation();
  if (violation) return { kind: 'error', limit: true, message: `the ${what} was stopped: ${violation}` };
  return null;
}

/** Waits for the phase's command and stops watching it; `stopped` says how it ended when something stopped it (see stoppedBy). */
async function supervised(watch: Watch, phase: PhaseProcess, what: 'plan' | 'apply', seconds: number) {
  const exit = await phase.main;
  watch.stop();
  return { exit, stopped: stoppedBy(watch, phase, what, seconds) };
}

const exitMessage = (what: string, exit: ExitStatus) =>
  `terraform ${what} exited with code ${exit.code ?? exit.signal}`;

/**
 * What the log of a plan says when its JSON form was not stored (see savedPlan): over
 * MAX_PLAN_JSON_BYTES, or cut at the largest file the sandbox lets Terraform write.
 */
function planJsonOmittedLine(show: Pick<ShowResult, 'size' | 'cut'>, limit: number): string {
  const why = show.cut
    ? `reached the largest file a run may write (${show.size} bytes, RUN_DISK_LIMIT_MB), so Terraform could not write all of it`
    : `is ${show.size} bytes, more than the limit of ${limit} bytes (MAX_PLAN_JSON_BYTES)`;
  return (
    `\nThe JSON form of this plan (terraform show -json) ${why}: it was not stored. The plan itself was saved and can be applied; ` +
    'its JSON (json-output, json-output-redacted) and resource change counts are not available, policy checks of this run error, ' +
    'and run tasks that read the JSON get an error.\n'
  );
}

/**
 * A successful `terraform plan`, whose recording begins at once: its save stores the plan file
 * while `terraform show -json` runs; the JSON form goes with the statement that moves the run,
 * with the change counts to the plan row and the redacted form served by json-output-redacted,
 * made here once (on a thread of its own, see PlanDigester) so that the API only streams it. For a
 * structured run output, the schemas of the resource types the plan changes go with it (see
 * schemasOfChanges). A JSON form over MAX_PLAN_JSON_BYTES, or one cut at the sandbox's file-size
 * limit, is not stored (nor read): the log says so, the plan row keeps its size, and the plan still
 * succeeds.
 */
function savedPlan(
  deps: ExecutionDeps,
  wd: Workdir,
  phase: PhaseProcess,
  hasChanges: boolean,
  log: LogWriter,
): PhaseOutcome {
  const save = async (tx: Db) => {
    const fileObj = await deps.store.put(tx, await readFile(join(wd.dir, 'plan.tfplan')), { prefix: 'planfile' });
    const show = await phase.show;
    if (show.code !== 0 && !show.cut) throw new Error(`terraform show failed: ${show.output}`);
    const row = { file_object_id: fileObj.id, has_changes: hasChanges };
    if (!show.json) {
      log.write(planJsonOmittedLine(show, deps.config.maxPlanJsonBytes));
      return { row: { ...row, json_omitted_bytes: show.size } };
    }
    let schemas: Buffer | null = null;
    if (phase.schemas) {
      const listed = await phase.schemas;
      if (listed.code !== 0) throw new Error(`terraform providers schema failed: ${listed.output}`);
      schemas = Buffer.from(listed.output);
    }
    const digest = await deps.planDigests.digest({ plan: show.json, schemas });
    const put = (data: Buffer, prefix: string) =>
      deps.store.putAlong(tx, data, { contentType: 'application/json', prefix });
    const [json, redacted, used] = [
      await put(show.json, 'planjson'),
      await put(digest.redacted, 'planredacted'),
      digest.schemas && (await put(digest.schemas, 'planschemas')),
    ];
    return {
      row: {
        ...row,
        ...digest.counts,
        json_object_id: json.object.id,
        redacted_object_id: redacted.object.id,
        ...(used ? { schemas_object_id: used.object.id } : {}),
      },
      writes: [...json.writes, ...redacted.writes, ...(used?.writes ?? [])],
    };
  };
  return { kind: 'ok', hasChanges, save };
}

/** The `plan` step: runs terraform plan for a queued run (or plans again for one whose worker died). */
export async function executePlan(deps: ExecutionDeps, runId: string): Promise<void> {
  if (await waitsForFiles(deps, runId)) return;
  const start = startPhase(deps, runId, 'plan', (options) => ({
    ...planPhase(options),
    maxJsonBytes: deps.config.maxPlanJsonBytes,
  }));
  const { text, version } = await deps.preambles.of(deps.terraform);
  const claimed = await claimStarted<PlanRow>(deps, runId, start, {
    queued: 'plan_queued',
    executing: 'planning',
    event: 'start_plan',
    table: 'plans',
    phase: { status: 'running', attempts: deps.db.raw('attempts + 1') },
    // A version the run asked for (plan-only runs may) stays; others record the one that plans.
    run: { terraform_version: deps.db.raw('coalesce(terraform_version, ?)', [version]) },
    resumable: true,
  });
  if (!claimed) return;
  const { owner, run, phase: plan, resumed } = claimed;
  // Taken over from a worker that stopped, or queued again after one did (its plan row counts the attempts).
  const intro = resumed || plan.attempts > 1 ? '\nThe worker running this plan stopped; planning again.\n\n' : text;
  await runPhase(deps, run, owner, { ...plan, table: 'plans', executing: 'planning' }, start, intro, {
    // Only the installed Terraform runs here: a run that asked for another version errors before planning.
    prepare: async () => {
      if (run.terraform_version && run.terraform_version !== version) {
        throw new PhaseRefused(
          `Terraform ${run.terraform_version} was requested for this run, but only Terraform ${version} is installed`,
        );
      }
    },
    body: async (wd, phase, watch, log) => {
      const { exit, stopped } = await supervised(watch, phase, 'plan', deps.config.runPlanTimeoutSeconds);
      if (stopped) return stopped;
      // -detailed-exitcode: 0 no changes, 2 changes, anything else an error.
      if (exit.code !== 0 && exit.code !== 2) return { kind: 'error', message: exitMessage('plan', exit) };
      return savedPlan(deps, wd, phase, exit.code === 2, log);
    },
  });
}

/** A confirmed run passes the pre-apply stage and is queued; an apply whose worker died fails the run. */
async function prepareApply(deps: ExecutionDeps, runId: string): Promise<[RunRow | undefined, FollowUp[]]> {
  return deps.lifecycle.transaction(deps.db, async (m) => {
    const { tx } = m;
    // The workspace before the run, as every move that may lock the workspace takes them (an
    // abandoned apply locks it below), so this never deadlocks with a cancel or the sweep.
    await lockWorkspace(tx, tx('runs').where({ id: runId }).select('workspace_id'));
    const run: (RunRow & { lease_expired: boolean }) | undefined = await tx('runs')
      .where({ id: runId })
      .forUpdate()
      .first('*', leaseExpired(tx));
    if (!run) return undefined;
    if (run.status === 'confirmed') {
      const gate = runGate({ at: 'stage_entered', hooks: await m.lifecycle.enterStage(m, run, 'pre_apply') });
      return transitionRun(m, run, gate.gate === 'wait' ? 'start_pre_apply' : 'queue_apply');
    }
    if (run.status === 'pre_apply_completed') return transitionRun(m, run, 'queue_apply');
    // Its worker disappeared: errored, never applied twice (the sweep usually finds it first).
    if (run.status === 'applying' && run.lease_expired) return errorAbandonedApply(m, run);
    return run;
  });
}

/**
 * The `apply` step. The start of an apply is recorded before Terraform runs, and the saved plan
 * from the plan phase is applied; an apply is never run a second time.
 */
export async function executeApply(deps: ExecutionDeps, runId: string): Promise<void> {
  const [prepared, prepareFollowUps] = await prepareApply(deps, runId);
  if (!prepared) return;
  if (prepared.status !== 'apply_queued') {
    if (prepared.status !== 'applying') await afterMove(deps, prepared, prepareFollowUps);
    return;
  }
  const start = startPhase(deps, runId, 'apply', (run) => ({ command: applyCommand(run), show: false }));
  const { text } = await deps.preambles.of(deps.terraform);
  const claimed = await claimStarted<ApplyRow>(
    deps,
    runId,
    start,
    {
      queued: 'apply_queued',
      executing: 'applying',
      event: 'start_apply',
      table: 'applies',
      phase: { status: 'running', started_at: new Date() },
      resumable: false,
    },
    prepareFollowUps,
  );
  if (!claimed) return;
  const { owner, run, phase: apply } = claimed;
  let plan: PlanRow | undefined;
  let before: Buffer | null = null;
  await runPhase(deps, run, owner, { ...apply, table: 'applies', executing: 'applying' }, start, text, {
    // The saved plan is in place before the command may start (init does not read it). Read once
    // claimed, inside the phase: a failure errors the run and removes the directory.
    prepare: async (wd) => {
      before = await readFile(wd.statePath).catch(() => null);
      plan = await planOfRun(deps.db, run.id);
      const planFile = plan?.file_object_id ? await readAll(deps.store, plan.file_object_id) : null;
      if (!plan || !planFile) throw new Error('the saved plan is missing');
      await writeFile(join(wd.dir, 'plan.tfplan'), planFile);
      deps.terraform.sandbox.ownFile(join(wd.dir, 'plan.tfplan'), wd.user);
    },
    body: async (wd, phase, watch) => {
      const sync = syncState(deps, run, wd, before);
      const { exit, stopped } = await supervised(watch, phase, 'apply', deps.config.runApplyTimeoutSeconds);
      const unsaved = await saveState(deps, run, wd, await sync.stop()).then(
        () => null,
        (err: Error) => err,
      );
      // A limit that stopped the apply is the reason the run errored; a state it left unstorable is
      // said with it, and the workspace waits until someone has pushed that state.
      if (unsaved && stopped?.kind === 'error')
        return { ...stopped, message: `${stopped.message}. ${unsaved.message}`, checkState: true };
      if (unsaved) return { kind: 'error', limit: true, message: unsaved.message, checkState: true };
      if (stopped) return stopped;
      if (exit.code !== 0) return { kind: 'error', message: exitMessage('apply', exit) };
      const { resource_additions, resource_changes, resource_destructions } = plan!;
      return {
        kind: 'ok',
        save: async () => ({ row: { resource_additions, resource_changes, resource_destructions } }),
      };
    },
  });
}
