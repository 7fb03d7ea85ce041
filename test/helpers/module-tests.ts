import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { api, doc, type ApiResponse } from './api.js';
import { putArchive, tarGz, uniq, type TestUser } from './fixtures.js';
import { waitFor } from './processes.js';
import { listenForSandboxes } from './sandbox.js';
import { terraform } from './terraform.js';
import type { TestSummary } from '../../shared/module-tests/machine.js';

/** Shared by the module test suites: modules, test configuration versions, test runs and their logs. */

export interface Org {
  name: string;
  owner: TestUser;
}

export interface TestModule {
  id: string;
  org: string;
  name: string;
  provider: string;
  /** The module's test endpoints, relative to /api/v2. */
  tests: string;
  /** The module's registry address, relative to /api/v2. */
  self: string;
}

export const modulePaths = (org: string, name: string, provider: string) => ({
  tests: `/organizations/${org}/tests/registry-modules/private/${org}/${name}/${provider}`,
  self: `/organizations/${org}/registry-modules/private/${org}/${name}/${provider}`,
});

/** Creates a private registry module in `org` as its owner. */
export async function createModule(
  org: Org,
  name = uniq('mod').replace(/-/g, ''),
  provider = 'null',
): Promise<TestModule> {
  const res = await api('POST', `/organizations/${org.name}/registry-modules`, {
    token: org.owner.token,
    body: doc('registry-modules', { name, provider, 'registry-name': 'private', namespace: org.name }),
  });
  expect(res.status, res.text).to.equal(201);
  return { id: res.body.data.id, org: org.name, name, provider, ...modulePaths(org.name, name, provider) };
}

/** Headers the terraform CLI sends; a test configuration version created with them queues no test run. */
export const CLI_HEADERS = { 'X-Terraform-Integration': 'cloud' };

/**
 * Creates a test configuration version and uploads `files` to it. With `cli`, it is created the
 * way the terraform CLI does, so the upload queues no test run. Returns the version id.
 */
export async function uploadTestConfig(
  mod: TestModule,
  token: string,
  files: Record<string, string>,
  opts: { cli?: boolean } = {},
): Promise<string> {
  const cv = await api('POST', `${mod.tests}/test-runs/configuration-versions`, {
    token,
    headers: opts.cli ? CLI_HEADERS : {},
  });
  expect(cv.status, cv.text).to.equal(201);
  const put = await putArchive(cv.body.data.attributes['upload-url'], await tarGz(files));
  expect(put.status, put.text).to.equal(200);
  return cv.body.data.id;
}

export const testRunBody = (
  cvId: string,
  attributes: Record<string, unknown> = {},
  relationships: Record<string, unknown> = {},
) =>
  doc('test-runs', attributes, {
    'configuration-version': { data: { type: 'configuration-versions', id: cvId } },
    ...relationships,
  });

export const postTestRun = (
  mod: TestModule,
  token: string,
  cvId: string,
  attributes: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) => api('POST', `${mod.tests}/test-runs`, { token, body: testRunBody(cvId, attributes), headers });

/** Creates a test run through the API; returns its document. */
export async function createTestRun(
  mod: TestModule,
  token: string,
  cvId: string,
  attributes: Record<string, unknown> = {},
) {
  const res = await postTestRun(mod, token, cvId, attributes);
  expect(res.status, res.text).to.equal(201);
  return res.body.data;
}

export const showTestRun = (mod: TestModule, token: string, id: string): Promise<ApiResponse> =>
  api('GET', `${mod.tests}/test-runs/${id}`, { token });

/** Polls a test run until its status is one of `statuses`; returns its document. */
export async function waitForTestRun(
  mod: TestModule,
  token: string,
  id: string,
  statuses: string[],
  timeoutMs = 60_000,
) {
  let last = '';
  return waitFor(
    async () => {
      const res = await showTestRun(mod, token, id);
      expect(res.status, res.text).to.equal(200);
      last = res.body.data.attributes.status;
      return statuses.includes(last) ? res.body.data : null;
    },
    `test run ${id} to reach ${statuses.join('/')} (last: ${last})`,
    timeoutMs,
  );
}

/** Reads a log through its signed URL; `query` is appended as is (e.g. `limit=10&offset=3`). */
export async function readLogUrl(url: string, query = ''): Promise<{ status: number; body: Buffer }> {
  const { onTestServer } = await import('./fixtures.js');
  const target = await onTestServer(url);
  const res = await fetch(query ? `${target}${target.includes('?') ? '&' : '?'}${query}` : target);
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

/** The whole log as a client reads it: chunk after chunk until ETX. */
export async function readWholeLog(url: string, chunk = 65536): Promise<string> {
  const parts: Buffer[] = [];
  let offset = 0;
  for (let i = 0; i < 10_000; i++) {
    const { status, body } = await readLogUrl(url, `limit=${chunk}&offset=${offset}`);
    expect(status).to.equal(200);
    if (!body.length) break;
    parts.push(body);
    offset += body.length;
    if (body[body.length - 1] === 0x03) break;
  }
  return Buffer.concat(parts).toString('utf8');
}

export interface ProcessInfo {
  pid: number;
  pgid: number;
  args: string;
}

/** Processes on this machine whose command line contains `marker`. */
export function processesWith(marker: string): ProcessInfo[] {
  const out = execFileSync('ps', ['-eo', 'pid=,pgid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && m[3].includes(marker) && !m[3].startsWith('ps '))
    .map((m) => ({ pid: Number(m[1]), pgid: Number(m[2]), args: m[3] }));
}

/** Kills the process groups of every process whose command line contains `marker` (cleanup after a killed worker). */
export function killProcessesWith(marker: string): void {
  for (const p of processesWith(marker)) {
    for (const target of [-p.pgid, p.pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/**
 * Runs the real `terraform test -json` on `files` in a temporary directory (environment
 * `env` added to a minimal one); returns the summary line and the output.
 */
export async function localTerraformTest(
  files: Record<string, string>,
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<{ summary: TestSummary | null; output: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'rls-local-test-'));
  try {
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), content);
    }
    const base = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      TF_IN_AUTOMATION: '1',
      CHECKPOINT_DISABLE: '1',
      ...env,
    };
    const init = await terraform(dir, base, ['init', '-input=false', '-no-color', '-backend=false']);
    expect(init.code, init.output).to.equal(0);
    const run = await terraform(dir, base, ['test', '-json', '-no-color', ...args]);
    let summary: TestSummary | null = null;
    for (const line of run.output.split('\n')) {
      if (!line.includes('"test_summary"')) continue;
      try {
        const msg = JSON.parse(line);
        if (msg.type === 'test_summary') summary = msg.test_summary;
      } catch {
        // not a JSON line
      }
    }
    return { summary, output: run.output };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The four counts and the test status of a test run document, shaped like a summary line. */
export const countsOf = (run: { attributes: Record<string, unknown> }): TestSummary => ({
  status: run.attributes['test-status'] as string,
  passed: run.attributes['tests-passed'] as number,
  failed: run.attributes['tests-failed'] as number,
  errored: run.attributes['tests-errored'] as number,
  skipped: run.attributes['tests-skipped'] as number,
});

/**
 * A local HTTP server serving a module archive (for `module` blocks with an http source) that
 * holds every GET until released, so `terraform init` stays busy for as long as a test needs.
 */
export interface HeldModuleServer {
  /** The module source address. */
  source: string;
  /** GET requests received. */
  readonly requests: number;
  /** Requests whose client went away before the answer. */
  readonly abandoned: number;
  release(): void;
  close(): Promise<void>;
}

export async function startHeldModuleServer(files: Record<string, string>): Promise<HeldModuleServer> {
  const { createServer } = await import('node:http');
  const archive = await tarGz(files);
  const state = { requests: 0, abandoned: 0, released: false };
  const waiting = new Set<() => void>();
  const server = createServer((req, res) => {
    if (req.method !== 'GET') {
      res.statusCode = 405;
      res.end();
      return;
    }
    state.requests++;
    let answered = false;
    res.on('close', () => {
      if (!answered) state.abandoned++;
    });
    const answer = () => {
      answered = true;
      res.setHeader('Content-Type', 'application/gzip');
      res.end(archive);
    };
    if (state.released) answer();
    else waiting.add(answer);
  });
  const base = await listenForSandboxes(server);
  return {
    source: `${base}/module.tar.gz`,
    get requests() {
      return state.requests;
    },
    get abandoned() {
      return state.abandoned;
    },
    release() {
      state.released = true;
      for (const answer of waiting) answer();
      waiting.clear();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
