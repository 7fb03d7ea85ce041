/*
 * Large redacted plans and the API's event loop. A synthetic JSON plan of BENCH_PLAN_MB megabytes
 * (with sensitive values) is stored for a run; the web process runs as its own process; then
 * CONCURRENT clients GET its json-output-redacted at once while a probe asks /healthz every
 * PROBE_MS. Printed: the probe's latencies as ratios of those of an idle web process measured in
 * the same run, for
 *   stored: the redacted form stored with the plan (what a plan finishing now has);
 *   lazy:   a plan stored without it, whose first requests make it on a thread and store it;
 *   old:    with `--old-dist <dir>`, the web process of another build (e.g. one from before this
 *           change, which parses and redacts the plan in the request), on the same database.
 *
 * Usage: node dist/bench/plan-json.js [--old-dist /path/to/other/build/dist]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { insertPendingRun } from '../shared/runs/moves.js';
import type { Runtime } from '../shared/runtime.js';
import { Cleanups, cleanupOnSignals, createFixture, log, migratedSetup, sleep, type ServiceSetup } from './support.js';

const PLAN_MB = Number(process.env.BENCH_PLAN_MB ?? '36');
const CONCURRENT = 4;
const PROBE_MS = 20;
const IDLE_MS = 3000;
const ROUNDS = 2;
const THIS_DIST = fileURLToPath(new URL('..', import.meta.url));

// ---------------------------------------------------------------- the plan

/** One resource change of the synthetic plan, and its planned value: a password (sensitive) among plain attributes. */
function resource(i: number) {
  const values = {
    input: {
      user: `user-${i}`,
      password: `secret-${i}-${'p'.repeat(24)}`,
      notes: 'n'.repeat(400),
      tags: { team: 'platform', index: String(i) },
    },
  };
  const mask = { input: { password: true } };
  return {
    change: {
      address: `terraform_data.r[${i}]`,
      mode: 'managed',
      type: 'terraform_data',
      name: 'r',
      index: i,
      provider_name: 'terraform.io/builtin/terraform',
      change: {
        actions: ['update'],
        before: values,
        after: { ...values, input: { ...values.input, notes: 'm'.repeat(400) } },
        after_unknown: {},
        before_sensitive: mask,
        after_sensitive: mask,
      },
    },
    planned: {
      address: `terraform_data.r[${i}]`,
      mode: 'managed',
      type: 'terraform_data',
      name: 'r',
      index: i,
      provider_name: 'terraform.io/builtin/terraform',
      schema_version: 0,
      values,
      sensitive_values: mask,
    },
  };
}

/** A JSON plan of about `mb` megabytes, as `terraform show -json` shapes it. */
function syntheticPlan(mb: number): Buffer {
  const one = Buffer.byteLength(JSON.stringify(resource(0)));
  const n = Math.max(1, Math.round((mb * 1024 * 1024) / one));
  const rs = Array.from({ length: n }, (_, i) => resource(i));
  const plan = {
    format_version: '1.2',
    terraform_version: '1.11.4',
    variables: { password: { value: 'root-secret' } },
    planned_values: {
      outputs: { password: { sensitive: true, value: 'root-secret' } },
      root_module: { resources: rs.map((r) => r.planned) },
    },
    resource_changes: rs.map((r) => r.change),
    output_changes: {
      password: {
        actions: ['no-op'],
        before: 'root-secret',
        after: 'root-secret',
        after_unknown: false,
        before_sensitive: true,
        after_sensitive: true,
      },
    },
    configuration: { root_module: { variables: { password: { sensitive: true, default: 'root-secret' } } } },
  };
  return Buffer.from(JSON.stringify(plan));
}

/** A finished plan of a new run of `workspaceId` with `json` as its JSON plan, and its redacted form when `redacted`. */
async function storePlan(rt: Runtime, workspaceId: string, json: Buffer, redacted: Buffer | null): Promise<string> {
  const run = await insertPendingRun(rt.lifecycle.moves(rt.db), {
    workspace_id: workspaceId,
    configuration_version_id: null,
    source: 'tfe-api',
  });
  return rt.db.transaction(async (tx) => {
    const jsonObj = await rt.store.put(tx, json, { contentType: 'application/json', prefix: 'planjson' });
    const redactedObj =
      redacted && (await rt.store.put(tx, redacted, { contentType: 'application/json', prefix: 'planredacted' }));
    const [plan] = await tx('plans')
      .where({ run_id: run.id })
      .update({
        status: 'finished',
        has_changes: true,
        json_object_id: jsonObj.id,
        redacted_object_id: redactedObj?.id ?? null,
      })
      .returning('id');
    return plan.id as string;
  });
}

// ---------------------------------------------------------------- the web process and its clients

/** The web process of the build at `dist` on the setup's database and port; resolves once it answers. */
async function startWeb(cleanups: Cleanups, setup: ServiceSetup, dist: string): Promise<ChildProcess> {
  const env = { ...setup.env, PATH: process.env.PATH ?? '' };
  // The web entry point is bin/web.js; builds from before the entry points moved there have server/main.js.
  const entry =
    [join(dist, 'bin', 'web.js'), join(dist, 'server', 'main.js')].find((path) => existsSync(path)) ??
    join(dist, 'bin', 'web.js');
  const child = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  cleanups.add(stop);
  for (let i = 0; i < 200; i++) {
    if ((await get(`${setup.baseUrl}/healthz`, '').catch(() => null))?.status === 200) return child;
    await sleep(50);
  }
  throw new Error(`the web process of ${dist} did not start`);
}

/** GET `url`, its body read and dropped; status, bytes and milliseconds. */
function get(url: string, token: string): Promise<{ status: number; bytes: number; ms: number }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - start }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** /healthz latencies, one request every PROBE_MS, until `until` settles. */
async function probe(baseUrl: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const times: number[] = [];
  while (!done) {
    times.push((await get(`${baseUrl}/healthz`, '')).ms);
    await sleep(PROBE_MS);
  }
  return times;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

interface Row {
  name: string;
  getMs: number;
  bytes: number;
  p50: number;
  p99: number;
  max: number;
}

/** CONCURRENT GETs of a plan's redacted JSON at once, /healthz probed meanwhile. */
async function measure(name: string, baseUrl: string, token: string, planId: string): Promise<Row> {
  const gets = Promise.all(
    Array.from({ length: CONCURRENT }, () => get(`${baseUrl}/api/v2/plans/${planId}/json-output-redacted`, token)),
  );
  const [answers, times] = await Promise.all([gets, probe(baseUrl, gets)]);
  for (const a of answers) if (a.status !== 200) throw new Error(`${name}: json-output-redacted answered ${a.status}`);
  return {
    name,
    getMs: Math.max(...answers.map((a) => a.ms)),
    bytes: answers[0].bytes,
    p50: pct(times, 50),
    p99: pct(times, 99),
    max: Math.max(...times),
  };
}

async function idle(baseUrl: string): Promise<Row> {
  const times = await probe(baseUrl, sleep(IDLE_MS));
  return { name: 'idle', getMs: 0, bytes: 0, p50: pct(times, 50), p99: pct(times, 99), max: Math.max(...times) };
}

// ---------------------------------------------------------------- the bench

async function main(): Promise<void> {
  const oldAt = process.argv.indexOf('--old-dist');
  const oldDist = oldAt > 0 ? process.argv[oldAt + 1] : null;
  const cleanups = new Cleanups();
  cleanupOnSignals(cleanups);
  try {
    const { setup, rt } = await migratedSetup(cleanups);
    let web = await startWeb(cleanups, setup, THIS_DIST);
    const fx = await createFixture(setup);

    const json = syntheticPlan(PLAN_MB);
    const { redacted } = await rt.planDigests.digest({ plan: json, schemas: null });
    log(`plan JSON ${(json.length / 1048576).toFixed(1)} MiB, redacted ${(redacted.length / 1048576).toFixed(1)} MiB`);
    const stored = await storePlan(rt, fx.workspaceId, json, redacted);
    const lazy = await Promise.all(Array.from({ length: ROUNDS }, () => storePlan(rt, fx.workspaceId, json, null)));

    const rows: Row[] = [await idle(setup.baseUrl)];
    for (let r = 0; r < ROUNDS; r++) rows.push(await measure('stored', setup.baseUrl, fx.token, stored));
    for (const planId of lazy) rows.push(await measure('lazy (first requests)', setup.baseUrl, fx.token, planId));
    if (oldDist) {
      web.kill('SIGTERM');
      await new Promise((resolve) => web.once('exit', resolve));
      web = await startWeb(cleanups, setup, oldDist);
      rows.push(await idle(setup.baseUrl));
      for (let r = 0; r < ROUNDS; r++) rows.push(await measure('old build', setup.baseUrl, fx.token, stored));
    }

    const base = rows[0];
    const f = (n: number) => n.toFixed(0).padStart(7);
    const x = (n: number, b: number) => `${(n / b).toFixed(1)}x`.padStart(8);
    process.stdout.write(
      `\n${CONCURRENT} concurrent GET json-output-redacted of a ${(json.length / 1048576).toFixed(0)} MiB plan; /healthz every ${PROBE_MS} ms\n`,
    );
    process.stdout.write(
      `${'scenario'.padEnd(24)} ${'GET ms'.padStart(7)} ${'hz p50'.padStart(7)} ${'hz p99'.padStart(7)} ${'hz max'.padStart(7)} ${'p99/idle'.padStart(8)} ${'max/idle'.padStart(8)}\n`,
    );
    for (const r of rows) {
      process.stdout.write(
        `${r.name.padEnd(24)} ${f(r.getMs)} ${f(r.p50)} ${f(r.p99)} ${f(r.max)} ${x(r.p99, base.p99)} ${x(r.max, base.max)}\n`,
      );
    }
  } finally {
    await cleanups.run();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
