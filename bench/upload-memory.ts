/*
 * Memory of the web process under concurrent uploads: 8 configuration archives of 95 MiB PUT at
 * once (two organizations, four each: the default per-organization cap), while the resident set
 * size of the service's `web` process is sampled every 20 ms. The baseline, measured in the same
 * run on the same archives, is a bare Node HTTP server that keeps each body whole in memory until
 * it has arrived, as the service did before uploads streamed. The figure that matters is the web
 * process's growth over its resident size before the uploads; the target is under ~150 MB.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  Cleanups,
  createCv,
  createFixture,
  freePort,
  log,
  machine,
  memoryKiB,
  MiB,
  openSetupRuntime,
  pollUntil,
  putArchive,
  api,
  runMain,
  serviceSetup,
  sleep,
  startServiceProcesses,
  tarGz,
  type Endpoint,
  type Fixture,
} from './support.js';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? '8');
const ARCHIVE_MIB = Number(process.env.BENCH_ARCHIVE_MIB ?? '95');
const SAMPLE_MS = 20;

/** Samples a process's RSS while `work` runs; the largest sample and the RSS just before, in MiB. */
async function rssDuring(pid: number, work: () => Promise<void>): Promise<{ before: number; peak: number }> {
  const now = async () => ((await memoryKiB(pid))?.rss ?? NaN) / 1024;
  const before = await now();
  let peak = before;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      peak = Math.max(peak, await now());
      await sleep(SAMPLE_MS);
    }
  })();
  try {
    await work();
  } finally {
    done = true;
    await sampler;
  }
  peak = Math.max(peak, await now());
  return { before, peak };
}

/** The baseline: an HTTP server that buffers every request body whole, then answers its length. */
async function startBufferingServer(cleanups: Cleanups): Promise<{ pid: number; url: string }> {
  const port = await freePort();
  const script = `require('http').createServer((req, res) => { const parts = []; req.on('data', (d) => parts.push(d)); req.on('end', () => { const body = Buffer.concat(parts); res.end(String(body.length)); }); }).listen(${port}, '127.0.0.1', () => console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.add(async () => void child.kill('SIGKILL'));
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return { pid: child.pid!, url: `http://127.0.0.1:${port}/` };
}

async function main(): Promise<void> {
  const started = Date.now();
  const before = machine();
  const cleanups = new Cleanups();
  try {
    log(`making a ${ARCHIVE_MIB} MiB archive`);
    const archive = await tarGz({
      'main.tf': 'output "x" { value = 1 }\n',
      'payload.bin': randomBytes(ARCHIVE_MIB * MiB),
    });

    // Baseline: the same concurrent bodies into a server that keeps them whole.
    const buffering = await startBufferingServer(cleanups);
    await putArchive(buffering.url, await tarGz({ 'main.tf': '' }));
    const base = await rssDuring(buffering.pid, async () => {
      await Promise.all(Array.from({ length: UPLOADS }, () => putArchive(buffering.url, archive)));
    });
    log(`  baseline (bodies kept whole): ${base.before.toFixed(0)} -> ${base.peak.toFixed(0)} MiB`);

    // The service as operators run it: the web process alone takes the uploads.
    const setup = await serviceSetup(cleanups);
    const rt = openSetupRuntime(cleanups, setup);
    const service = await startServiceProcesses(cleanups, setup, rt, 'procfile', []);
    const web = service.processes.find((p) => p.role === 'web')!;
    const svc: Endpoint = { baseUrl: setup.baseUrl, adminToken: setup.adminToken };
    const orgs: Fixture[] = [await createFixture(svc), await createFixture(svc)];
    // One untimed small upload first: connections, code paths and the first pages warmed.
    await putArchive((await createCv(svc, orgs[0])).uploadUrl, await tarGz({ 'main.tf': '' }));
    const versions = await Promise.all(Array.from({ length: UPLOADS }, (_, i) => createCv(svc, orgs[i % orgs.length])));
    const t0 = performance.now();
    const measured = await rssDuring(web.pid, async () => {
      await Promise.all(versions.map((cv) => putArchive(cv.uploadUrl, archive)));
    });
    const seconds = (performance.now() - t0) / 1000;
    for (const [i, cv] of versions.entries()) {
      await pollUntil(
        async () => (await api(svc.baseUrl, orgs[i % orgs.length].token, 'GET', `/configuration-versions/${cv.id}`))!,
        (d) => d.data.attributes.status === 'uploaded',
        { intervalMs: 50, timeoutMs: 10_000, failed: ['errored'] },
      );
    }
    log(
      `  service web process: ${measured.before.toFixed(0)} -> ${measured.peak.toFixed(0)} MiB in ${seconds.toFixed(1)} s`,
    );

    const growth = measured.peak - measured.before;
    const baseGrowth = base.peak - base.before;
    const total = (archive.length * UPLOADS) / MiB;
    const lines = [
      `| ${UPLOADS} concurrent uploads of ${(archive.length / MiB).toFixed(1)} MiB (${total.toFixed(0)} MiB in all) | RSS before MiB | RSS peak MiB | growth MiB | growth / bytes uploaded |`,
      '|---|---:|---:|---:|---:|',
      `| baseline: bare server keeping each body whole | ${base.before.toFixed(0)} | ${base.peak.toFixed(0)} | ${baseGrowth.toFixed(0)} | ${(baseGrowth / total).toFixed(3)} |`,
      `| service: web process, streaming into the store | ${measured.before.toFixed(0)} | ${measured.peak.toFixed(0)} | ${growth.toFixed(0)} | ${(growth / total).toFixed(3)} |`,
      `| **service / baseline growth** | | | **${(growth / baseGrowth).toFixed(3)}** | |`,
    ];
    process.stdout.write(
      `\n${lines.join('\n')}\n\nservice upload throughput ${(total / seconds).toFixed(1)} MiB/s; target growth < 150 MB: ${growth * 1.048576 < 150 ? 'met' : 'NOT met'}\nbefore: ${before}\nafter:  ${machine()}\ntotal ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );
  } finally {
    await cleanups.run();
  }
}

runMain(main);
