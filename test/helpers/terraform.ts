import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { deploymentWorkRoot } from '../../shared/platform/terraform/work-root.js';
import { createServer, type Server } from 'node:http';
import { expect } from 'chai';
import { api, doc } from './api.js';
import { createCv, putArchive, tarGz } from './fixtures.js';
import { spawnWorkers, waitFor, workersReady, type WorkerProcess } from './processes.js';
import { harness } from './harness.js';
import { toolPresent } from './tools.js';
import { listenForSandboxes } from './sandbox.js';

/** Whether the real terraform binary is on PATH (tests that execute Terraform need it). */
export function terraformAvailable(): boolean {
  let present = true;
  try {
    execFileSync('terraform', ['version'], { stdio: 'ignore' });
  } catch {
    present = false;
  }
  return toolPresent('terraform', present);
}

/**
 * Hooks for a suite that runs Terraform: skipped when it is not installed, otherwise one worker
 * process on `queues` is started before the suite's tests and stopped after them.
 */
export function terraformWorkers(queues: string[], env: NodeJS.ProcessEnv = {}): void {
  let worker: WorkerProcess | undefined;
  before(async function () {
    if (!terraformAvailable()) this.skip();
    worker = spawnWorkers(queues, env);
    await workersReady(worker);
  });
  after(async () => {
    await worker?.stop();
  });
}

export interface CliResult {
  code: number;
  output: string;
}

/**
 * Runs the real terraform CLI in `dir` with the given environment; resolves with its exit code and
 * output. `input`, when given, is what the user types at its prompts (its standard input).
 */
export function terraform(
  dir: string,
  env: NodeJS.ProcessEnv,
  args: string[],
  timeoutMs = 180_000,
  input?: string,
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      'terraform',
      args,
      { cwd: dir, env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 1
          : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** The host name the CLI is configured with (it must contain a dot). */
export const CLI_HOST = 'rls.test';

/**
 * Writes a CLI configuration to `dir` that points CLI_HOST at the test service over plain HTTP
 * (a `host` block: its API and its module registry) with `token` as its credentials; returns the
 * CLI's environment.
 */
export async function writeCliConfig(dir: string, token: string): Promise<NodeJS.ProcessEnv> {
  const h = harness();
  await writeFile(
    join(dir, 'cli.tfrc'),
    `host "${CLI_HOST}" {\n  services = {\n    "tfe.v2" = "${h.baseUrl}/api/v2/"\n    "modules.v1" = "${h.baseUrl}/api/registry/v1/modules/"\n  }\n}\ncredentials "${CLI_HOST}" {\n  token = "${token}"\n}\n`,
  );
  return {
    PATH: process.env.PATH,
    HOME: dir,
    TF_CLI_CONFIG_FILE: join(dir, 'cli.tfrc'),
    TF_IN_AUTOMATION: '1',
    CHECKPOINT_DISABLE: '1',
  };
}

/** Uploads a configuration (file name -> content) to a workspace; returns the version id. */
export async function uploadConfig(
  workspaceId: string,
  token: string,
  files: Record<string, string>,
  attrs: Record<string, unknown> = {},
): Promise<string> {
  const cv = await createCv(workspaceId, token, { 'auto-queue-runs': false, ...attrs });
  const put = await putArchive(cv.uploadUrl, await tarGz(files));
  expect(put.status, put.text).to.equal(200);
  return cv.id;
}

/** Creates a run through the API. */
export async function startRun(
  workspaceId: string,
  token: string,
  attrs: Record<string, unknown> = {},
  cvId?: string,
): Promise<string> {
  const res = await api('POST', '/runs', {
    token,
    body: doc('runs', attrs, {
      workspace: { data: { type: 'workspaces', id: workspaceId } },
      ...(cvId ? { 'configuration-version': { data: { type: 'configuration-versions', id: cvId } } } : {}),
    }),
  });
  expect(res.status, res.text).to.equal(201);
  return res.body.data.id;
}

/** Polls a run until its status is one of `statuses`; returns the run document. */
export async function waitForRun(runId: string, token: string, statuses: string[], timeoutMs = 60_000) {
  let last = '';
  return waitFor(
    async () => {
      const res = await api('GET', `/runs/${runId}`, { token });
      last = res.body?.data?.attributes?.status;
      return statuses.includes(last) ? res.body.data : null;
    },
    () => `run ${runId} to reach ${statuses.join('/')} (last: ${last})`,
    timeoutMs,
  );
}

/**
 * A real HTTP server standing in for a remote state backend that answers slowly, so a plan that
 * reads `terraform_remote_state` stays in Terraform for as long as the test needs.
 */
export interface SlowStateServer {
  address: string;
  requests: number;
  /** Requests whose connection closed before the answer: the client (Terraform) went away. */
  abandoned: number;
  close(): Promise<void>;
}

export async function startSlowStateServer(delayMs: number): Promise<SlowStateServer> {
  const state = { requests: 0, abandoned: 0 };
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((_req, res) => {
    state.requests++;
    let answered = false;
    res.on('close', () => {
      if (!answered) state.abandoned++;
    });
    const t = setTimeout(() => {
      answered = true;
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({
          version: 4,
          terraform_version: '1.11.4',
          serial: 1,
          lineage: 'slow-state',
          outputs: {},
          resources: [],
        }),
      );
    }, delayMs);
    timers.add(t);
  });
  const base = await listenForSandboxes(server);
  return {
    address: `${base}/state`,
    get requests() {
      return state.requests;
    },
    get abandoned() {
      return state.abandoned;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A configuration whose plan waits on the slow state server. */
export const slowPlanConfig = (address: string) => `
data "terraform_remote_state" "slow" {
  backend = "http"
  config = { address = "${address}" }
}
resource "terraform_data" "a" { input = "x" }
`;

/** A process as /proc shows it: its parent and its start time (which tells a reused pid apart). */
function procStat(pid: number): { ppid: number; started: string } | null {
  try {
    // The command name (field 2) may hold spaces and parentheses; the fields after its last ')' do not.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), started: fields[19] };
  } catch {
    return null;
  }
}

/** A `terraform plan` process started by one worker process, or a sandbox process whose command line carries its arguments (see planProcessesOf). */
export interface PlanProcess {
  pid: number;
  started: string;
}

/**
 * The `terraform plan` processes that descend from the worker process `workerPid` (through its
 * sandbox), so a test counts its own run's plans only, whatever else plans on the machine.
 */
export function planProcessesOf(workerPid: number): PlanProcess[] {
  const found: PlanProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    } catch {
      continue;
    }
    if (!cmdline.includes('plan -input=false -no-color -detailed-exitcode')) continue;
    const own = procStat(pid);
    for (let at = own?.ppid ?? 0, hops = 0; at > 1 && hops < 64; at = procStat(at)?.ppid ?? 0, hops++) {
      if (at === workerPid) {
        found.push({ pid, started: own!.started });
        break;
      }
    }
  }
  return found;
}

/** How many of `plans` still run (a process that was reparented when its parent died still counts). */
export const stillRunning = (plans: readonly PlanProcess[]): number =>
  plans.filter((p) => procStat(p.pid)?.started === p.started).length;

/**
 * Where workers started with `env` (besides the run's environment) keep their run directories:
 * their deployment's root under their TMPDIR (see deploymentWorkRoot).
 */
export function workRootOf(env: NodeJS.ProcessEnv = {}): string {
  const { config } = harness();
  return deploymentWorkRoot(
    { databaseUrl: env.DATABASE_URL ?? config.databaseUrl, queuePrefix: env.QUEUE_PREFIX ?? config.queuePrefix },
    env.TMPDIR ?? tmpdir(),
  );
}

/**
 * The names of the run working directories in `dir` (a work root, see workRootOf) (of one worker process when `pid` is given):
 * those holding a configuration. A sandbox a worker keeps started ahead for its next phase has a
 * directory of the same kind, which stays empty until a phase takes it.
 */
export async function runWorkdirs(dir: string, pid?: number): Promise<string[]> {
  const prefix = pid === undefined ? 'rls-run-' : `rls-run-${pid}-`;
  return (await readdir(dir)).filter((name) => name.startsWith(prefix) && existsSync(join(dir, name, 'config')));
}

/** An apply whose first resource is stored at once and whose second one's provisioner sleeps `seconds` (a `marker` tells the runs apart). */
export const slowApplyConfig = (
  marker: string,
  seconds = 120,
) => `resource "terraform_data" "first" { input = "${marker}" }
resource "terraform_data" "second" {
  input = terraform_data.first.output
  provisioner "local-exec" { command = "sleep ${seconds} # ${marker}" }
}
`;
