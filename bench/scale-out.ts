/*
 * Scale-out benchmark: runs per second and notification deliveries per second with one and then
 * two processes of each type (web and every worker queue), as real processes of dist/bin/web.js and
 * dist/bin/workers.js on one database and one Redis (a fresh database and queue prefix per stage).
 *
 * Each stage: W workspaces (auto-apply), each with C generic notification configurations subscribed
 * to run:created, run:planning and run:completed, pointing at a bare node:http sink in the bench's
 * process. First one untimed run per workspace (warm-up), then R runs created at once through the web
 * processes in turn (each replaces the resource, so every run plans and applies). Measured from the
 * first POST to the last run applied (runs/s) and to the last of their deliveries at the sink
 * (deliveries/s). Runs execute without the sandbox (RUN_SANDBOX=none), whose cost bench/runs.ts
 * measures on its own. Loopback only; everything the bench started or wrote is removed at the end.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QUEUE_NAMES } from '../shared/platform/queues.js';
import {
  api,
  Cleanups,
  cleanupOnSignals,
  createCv,
  createFixture,
  doc,
  log,
  machine,
  openSetupRuntime,
  putArchive,
  runMain,
  serviceSetup,
  sleep,
  startServiceProcesses,
  tarGz,
  type Fixture,
} from './support.js';

const WORKSPACES = Number(process.env.BENCH_WORKSPACES ?? '12');
const RUNS = Number(process.env.BENCH_RUNS ?? '36');
const CONFIGS = Number(process.env.BENCH_CONFIGS ?? '5');
const COPIES = (process.env.BENCH_COPIES ?? '1,2').split(',').map(Number);
const TRIGGERS = ['run:created', 'run:planning', 'run:completed'];
const CONFIG = 'resource "terraform_data" "a" { input = "x" }\n';
const TIMEOUT_MS = 600_000;

/** The destination: counts each delivery once by its id, noting when the last arrived. */
interface Sink {
  url: string;
  deliveries: Set<string>;
  last: number;
  close(): Promise<void>;
}

async function startSink(): Promise<Sink> {
  const state = { deliveries: new Set<string>(), last: 0 };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = req.headers['x-svc-delivery-id'];
      if (typeof id === 'string') {
        state.deliveries.add(id);
        state.last = performance.now();
      }
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    get deliveries() {
      return state.deliveries;
    },
    get last() {
      return state.last;
    },
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

interface StageResult {
  copies: number;
  runs: number;
  runsSeconds: number;
  deliveries: number;
  deliveriesSeconds: number;
}

async function stage(copies: number): Promise<StageResult> {
  const cleanups = new Cleanups();
  cleanupOnSignals(cleanups);
  try {
    const sink = await startSink();
    cleanups.add(() => sink.close());
    const setup = await serviceSetup(cleanups, { RUN_SANDBOX: 'none', OUTBOUND_ALLOWED_CIDRS: '127.0.0.0/8' });
    const rt = openSetupRuntime(cleanups, setup);
    const procs = await startServiceProcesses(cleanups, setup, rt, 'procfile', QUEUE_NAMES, copies);
    const webs = procs.webUrls;
    const fx: Fixture = await createFixture(setup);
    const workspaces: { id: string; cv: string }[] = [];
    for (let w = 0; w < WORKSPACES; w++) {
      const ws = (await api(
        webs[w % webs.length],
        fx.token,
        'POST',
        `/organizations/${fx.org}/workspaces`,
        doc('workspaces', { name: `scale-${w}`, 'auto-apply': true }),
      ))!;
      for (let c = 0; c < CONFIGS; c++) {
        await api(
          webs[c % webs.length],
          fx.token,
          'POST',
          `/workspaces/${ws.data.id}/notification-configurations`,
          doc('notification-configuration', {
            'destination-type': 'generic',
            enabled: true,
            name: `hook-${c}`,
            url: sink.url,
            triggers: TRIGGERS,
          }),
        );
      }
      const cv = await createCv(setup, { ...fx, workspaceId: ws.data.id });
      await putArchive(cv.uploadUrl, await tarGz({ 'main.tf': CONFIG }));
      workspaces.push({ id: ws.data.id, cv: cv.id });
    }
    const createRuns = (count: number) =>
      Promise.all(
        Array.from({ length: count }, async (_, i) => {
          const ws = workspaces[i % workspaces.length];
          const run = await api(
            webs[i % webs.length],
            fx.token,
            'POST',
            '/runs',
            doc(
              'runs',
              { 'replace-addrs': ['terraform_data.a'] },
              {
                workspace: { data: { type: 'workspaces', id: ws.id } },
                'configuration-version': { data: { type: 'configuration-versions', id: ws.cv } },
              },
            ),
          );
          return run!.data.id;
        }),
      );
    const settled = async (ids: string[], deliveries: number) => {
      const deadline = Date.now() + TIMEOUT_MS;
      let lastApplied = 0;
      for (;;) {
        const rows = (await rt.db('runs').whereIn('id', ids).select('status')) as { status: string }[];
        const bad = rows.find((r) => ['errored', 'canceled', 'discarded', 'planned_and_finished'].includes(r.status));
        if (bad) throw new Error(`a run ended ${bad.status}`);
        const applied = rows.filter((r) => r.status === 'applied').length;
        if (applied === ids.length && lastApplied === 0) lastApplied = performance.now();
        if (lastApplied && sink.deliveries.size >= deliveries) return lastApplied;
        if (Date.now() > deadline)
          throw new Error(
            `after ${TIMEOUT_MS} ms: ${applied}/${ids.length} runs applied, ${sink.deliveries.size}/${deliveries} deliveries`,
          );
        await sleep(50);
      }
    };
    // Warm-up: one run per workspace, untimed.
    const warm = await createRuns(WORKSPACES);
    await Promise.race([procs.failed, settled(warm, warm.length * CONFIGS * TRIGGERS.length)]);
    const before = sink.deliveries.size;
    const expected = before + RUNS * CONFIGS * TRIGGERS.length;
    const started = performance.now();
    const ids = await createRuns(RUNS);
    const lastApplied = await Promise.race([procs.failed, settled(ids, expected)]);
    const result = {
      copies,
      runs: RUNS,
      runsSeconds: (lastApplied - started) / 1000,
      deliveries: expected - before,
      deliveriesSeconds: (sink.last - started) / 1000,
    };
    await procs.stop();
    return result;
  } finally {
    await cleanups.run();
  }
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  const before = machine();
  log(
    `${before}; ${WORKSPACES} workspaces, ${CONFIGS} configurations each, ${RUNS} timed runs per stage, ${COPIES.join(' then ')} process(es) of each type`,
  );
  const results: StageResult[] = [];
  for (const copies of COPIES) {
    const r = await stage(copies);
    log(
      `${copies} of each: ${(r.runs / r.runsSeconds).toFixed(2)} runs/s, ${(r.deliveries / r.deliveriesSeconds).toFixed(1)} deliveries/s`,
    );
    results.push(r);
  }
  const rows = results.map(
    (r) =>
      `| ${r.copies} web + ${r.copies} per worker queue | ${r.runs} in ${r.runsSeconds.toFixed(1)} s | **${(r.runs / r.runsSeconds).toFixed(2)}** | ${r.deliveries} in ${r.deliveriesSeconds.toFixed(1)} s | **${(r.deliveries / r.deliveriesSeconds).toFixed(1)}** |`,
  );
  const table = [
    '| processes | runs (POST to applied) | runs/s | deliveries (POST to last at the sink) | deliveries/s |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  process.stdout.write(
    `\n${table}\n\nbefore: ${before}\nafter:  ${machine()}\ntotal ${((Date.now() - startedAt) / 1000).toFixed(0)} s\n`,
  );
}

runMain(main);
