// The module-test engine's face for worker processes: a test run executes terraform test in the sandbox.
import { StringDecoder } from 'node:string_decoder';
import type { Runtime } from '../runtime.js';
import { decryptSecret } from '../platform/crypto.js';
import { summaryOf, type TestSummary } from './machine.js';
import { findCv } from '../configuration-versions/index.js';
import {
  lockTestRunForClaim,
  moveTestRun,
  releaseTestRunLease,
  testRunCancelState,
  testRunVariables,
  testVariablesOf,
  type TestRunRow,
} from './repo.js';
import { LogWriter } from '../platform/logs.js';
import {
  prepareWorkdir,
  spawnTerraform,
  type ExitStatus,
  type TerraformSettings,
  type Workdir,
} from '../platform/terraform/runner.js';
import { keepLease, leaseOwner, superviseProcess, type Stop } from '../platform/terraform/supervise.js';
import { leaseUntil } from '../platform/leases.js';

export interface TestExecutionDeps extends Runtime {
  workerId: string;
  terraform: TerraformSettings;
}

/** Grace between the interrupt sent at the time limit and the kill. */
const TIMEOUT_GRACE_MS = 30_000;

/**
 * Takes a queued test run. A run found `running` with an expired lease had its worker die
 * mid-test: it is errored rather than run again, since Terraform may have created resources.
 */
async function claim(deps: TestExecutionDeps, id: string, owner: string): Promise<TestRunRow | undefined> {
  return deps.db.transaction(async (tx) => {
    const run = await lockTestRunForClaim(tx, id);
    if (!run) return undefined;
    if (run.status === 'queued') {
      return moveTestRun(
        tx,
        id,
        'start',
        { lease_owner: owner, lease_until: leaseUntil(tx, deps), attempts: run.attempts + 1 },
        ['queued'],
      );
    }
    if (run.status === 'running' && run.lease_expired) {
      const message =
        'The worker running this test stopped unexpectedly. The test was not started again, because it may have created resources; check for leftovers and queue a new test run.';
      await moveTestRun(tx, id, 'error', { message, test_status: 'error', lease_owner: null, lease_until: null }, [
        'running',
      ]);
      await appendLog(deps, run.log_id, `\n${message}\n`);
    }
    return undefined;
  });
}

/** Appends a line to a log that another writer may have left open, and ends it. */
async function appendLog(deps: TestExecutionDeps, logId: string, text: string): Promise<void> {
  const log = new LogWriter(deps.db, logId, { maxBytes: deps.config.maxLogBytes });
  await log.open();
  log.write(text);
  await log.close();
}

/**
 * Splits a byte stream into whole lines, so stdout and stderr never interleave mid-line. A
 * multi-byte character split across two chunks is decoded whole.
 */
function lines(onLine: (line: string) => void) {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  return {
    push(chunk: Buffer) {
      const parts = (rest + decoder.write(chunk)).split('\n');
      rest = parts.pop() ?? '';
      for (const p of parts) onLine(p);
    },
    end() {
      rest += decoder.end();
      if (rest) onLine(rest);
      rest = '';
    },
  };
}

function testArgs(run: TestRunRow): string[] {
  const args = ['test', '-json', '-no-color', `-test-directory=${run.test_directory}`];
  for (const f of run.filters) args.push(`-filter=${f}`);
  if (run.verbose) args.push('-verbose');
  return args;
}

/** The module's test variables as the process environment (category `env`). */
async function moduleEnv(deps: TestExecutionDeps, run: TestRunRow): Promise<Record<string, string>> {
  const vars = await testVariablesOf(deps.db, run.registry_module_id);
  return Object.fromEntries(vars.map((v) => [v.key, decryptSecret(deps.config.encryptionKey, v.value_sealed)]));
}

type Outcome =
  | { kind: 'finished'; summary: TestSummary }
  | { kind: 'errored'; message: string }
  | { kind: 'canceled'; message?: string }
  | { kind: 'gone' };

/** Runs one Terraform command in its own process group, supervised (see superviseProcess). */
async function supervised(
  deps: TestExecutionDeps,
  run: TestRunRow,
  wd: Workdir,
  args: string[],
  deadline: number,
  onOutput: (chunk: Buffer, stream: 'stdout' | 'stderr') => void,
): Promise<{ exit: ExitStatus; stop: Stop }> {
  // Terraform leads its own process group: a cancel interrupts it as Ctrl-C in a terminal would
  // (it then tears down what it created), a force-cancel or the time limit kills the whole group.
  const proc = spawnTerraform(deps.terraform, args, wd, onOutput);
  const watch = superviseProcess(deps, { table: 'test_runs', id: run.id, executing: 'running' }, proc, {
    deadline,
    graceMs: TIMEOUT_GRACE_MS,
  });
  const exit = await proc.done;
  watch.stop();
  return { exit, stop: watch.state.stop };
}

/** How a run that was stopped ends, or null when it was not stopped. */
function stopped(deps: TestExecutionDeps, stop: Stop, canceledMessage?: string): Outcome | null {
  if (stop === 'force-canceled') return { kind: 'gone' };
  if (stop === 'canceled') return { kind: 'canceled', message: canceledMessage };
  if (stop === 'timeout')
    return {
      kind: 'errored',
      message: `the test run exceeded its time limit of ${deps.config.testRunTimeoutSeconds} seconds`,
    };
  return null;
}

const CANCELED_BEFORE_TESTS = 'The test run was canceled before its tests started.';

/**
 * init, then `terraform test -json`, every output line into the log as it appears. Both are
 * supervised, so a cancel or force-cancel during a slow init stops it too, and a run canceled
 * before its tests start never starts them.
 */
async function runTests(deps: TestExecutionDeps, run: TestRunRow, wd: Workdir, log: LogWriter): Promise<Outcome> {
  const deadline = Date.now() + deps.config.testRunTimeoutSeconds * 1000;
  const initOutput: Buffer[] = [];
  const init = await supervised(deps, run, wd, ['init', '-input=false', '-no-color', '-backend=false'], deadline, (c) =>
    initOutput.push(c),
  );
  const initStopped = stopped(deps, init.stop, CANCELED_BEFORE_TESTS);
  if (initStopped) return initStopped;
  if (init.exit.code !== 0) {
    log.write(Buffer.concat(initOutput));
    return {
      kind: 'errored',
      message: init.exit.code === 127 ? 'the terraform binary could not be started' : 'terraform init failed',
    };
  }
  // A cancel that arrived between two supervision ticks is honoured before the tests start.
  const row = await testRunCancelState(deps.db, run.id);
  if (!row || row.status !== 'running') return { kind: 'gone' };
  if (row.cancel_requested_at) return { kind: 'canceled', message: CANCELED_BEFORE_TESTS };

  let summary: TestSummary | null = null;
  const onLine = (line: string) => {
    log.write(line + '\n');
    summary = summaryOf(line) ?? summary;
  };
  const out = lines(onLine);
  const err = lines(onLine);
  const test = await supervised(deps, run, wd, testArgs(run), deadline, (chunk, stream) =>
    (stream === 'stderr' ? err : out).push(chunk),
  );
  out.end();
  err.end();
  const testStopped = stopped(deps, test.stop);
  if (testStopped) return testStopped;
  if (test.exit.code === 127) return { kind: 'errored', message: 'the terraform binary could not be started' };
  if (summary) return { kind: 'finished', summary };
  return {
    kind: 'errored',
    message: `terraform test exited with code ${test.exit.code ?? test.exit.signal} without a summary`,
  };
}

/** Executes a queued test run in a fresh directory and records how it ended. */
export async function executeTestRun(deps: TestExecutionDeps, id: string): Promise<void> {
  const owner = leaseOwner(deps.workerId);
  const run = await claim(deps, id, owner);
  if (!run) return;
  const lease = keepLease(deps, { table: 'test_runs', id }, owner);
  try {
    await execute(deps, run);
  } finally {
    lease.stop();
  }
}

/** Runs a claimed test run and records how it ended. */
async function execute(deps: TestExecutionDeps, run: TestRunRow): Promise<void> {
  const log = new LogWriter(deps.db, run.log_id, { maxBytes: deps.config.maxLogBytes });
  await log.open();
  let wd: Workdir | null = null;
  let outcome: Outcome;
  try {
    const cv = run.configuration_version_id ? await findCv(deps.db, run.configuration_version_id) : undefined;
    if (!cv?.archive_object_id) throw new Error('the configuration version has no uploaded files');
    wd = await prepareWorkdir(deps.terraform, {
      archive: await deps.store.get(cv.archive_object_id),
      workingDirectory: '',
      variables: testRunVariables(deps.config.encryptionKey, run),
    });
    wd.env = { ...wd.env, ...(await moduleEnv(deps, run)) };
    outcome = await runTests(deps, run, wd, log);
  } catch (err) {
    outcome = {
      kind: 'errored',
      message: `the test run could not be executed: ${err instanceof Error ? err.message : String(err)}`,
    };
  } finally {
    await wd?.cleanup();
  }
  if (outcome.kind === 'errored') log.write(`\nError: ${outcome.message}\n`);
  await log.close();
  const done = { lease_owner: null, lease_until: null };
  switch (outcome.kind) {
    case 'finished': {
      const s = outcome.summary;
      await moveTestRun(deps.db, run.id, 'finish', {
        ...done,
        test_status: s.status,
        tests_passed: s.passed,
        tests_failed: s.failed,
        tests_errored: s.errored,
        tests_skipped: s.skipped,
      });
      return;
    }
    case 'errored':
      await moveTestRun(deps.db, run.id, 'error', { ...done, test_status: 'error', message: outcome.message });
      return;
    case 'canceled':
      await moveTestRun(deps.db, run.id, 'cancel', {
        ...done,
        message: outcome.message ?? 'The test run was canceled; Terraform tore down what it had created.',
      });
      return;
    case 'gone':
      await releaseTestRunLease(deps.db, run.id);
  }
}
