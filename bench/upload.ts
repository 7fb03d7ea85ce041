/*
 * Configuration version upload benchmark. Times what a client does to get an archive into the
 * service (create a version, PUT the bytes to its signed URL with no token, poll until
 * `uploaded`) against a baseline measured in the same run on the same database: one plain `pg`
 * insert of the same bytes as a single bytea. The ratio says what validation, chunked storage
 * and the API round trips cost, rather than how fast this machine's disk is. A second reference,
 * the same 1 MiB rows the object store writes but with bare pg, separates the service's own cost
 * from that of the storage layout.
 */
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { inspectArchive } from '../shared/platform/archive.js';
import {
  api,
  Cleanups,
  createCv,
  createFixture,
  log,
  machine,
  MiB,
  percentile,
  pollUntil,
  putArchive,
  runMain,
  startService,
  tarGz,
  type Fixture,
  type Service,
} from './support.js';

/** Archive sizes and repetitions: enough rounds for a median, while the run stays under half a minute. */
const CASES = [
  { label: '1 MiB', bytes: 1 * MiB, reps: Number(process.env.BENCH_REPS_SMALL ?? '5') },
  { label: '50 MiB', bytes: 50 * MiB, reps: Number(process.env.BENCH_REPS_LARGE ?? '3') },
];
const POLL_MS = 10;

/** An archive of about `bytes`: a tiny main.tf and `bytes` of random (incompressible) content. */
const makeArchive = (bytes: number): Promise<Buffer> =>
  tarGz({ 'main.tf': 'resource "terraform_data" "a" { input = "x" }\n', 'payload.bin': randomBytes(bytes) });

// ---------------------------------------------------------------- the sides

interface ServiceSample {
  total: number;
  create: number;
  put: number;
  poll: number;
}

/** Create version -> PUT bytes -> GET until uploaded, each step timed. */
async function serviceUpload(svc: Service, fx: Fixture, archive: Buffer): Promise<ServiceSample> {
  const t0 = performance.now();
  const cv = await createCv(svc, fx);
  const t1 = performance.now();
  await putArchive(cv.uploadUrl, archive);
  const t2 = performance.now();
  await pollUntil(
    async () => (await api(svc.baseUrl, fx.token, 'GET', `/configuration-versions/${cv.id}`))!,
    (d) => d.data.attributes.status === 'uploaded',
    {
      intervalMs: POLL_MS,
      timeoutMs: 60_000,
      failed: ['errored'],
    },
  );
  const t3 = performance.now();
  return { total: t3 - t0, create: t1 - t0, put: t2 - t1, poll: t3 - t2 };
}

/** The least work that still lands the bytes in the same database: one insert, one bytea. */
async function baselineInsert(client: pg.Client, archive: Buffer): Promise<number> {
  const t0 = performance.now();
  await client.query('insert into bench_upload_baseline (data) values ($1)', [archive]);
  return performance.now() - t0;
}

/**
 * A second reference: the object store's own layout (1 MiB rows in one transaction) written with
 * bare pg, so the service's cost can be told apart from the cost of the chunked layout itself.
 */
async function chunkedInsert(client: pg.Client, archive: Buffer, objectId: number): Promise<number> {
  const t0 = performance.now();
  await client.query('begin');
  for (let seq = 0; seq * MiB < archive.length; seq++) {
    await client.query('insert into bench_upload_chunks (object_id, seq, data) values ($1, $2, $3)', [
      objectId,
      seq,
      archive.subarray(seq * MiB, (seq + 1) * MiB),
    ]);
  }
  await client.query('commit');
  return performance.now() - t0;
}

// ---------------------------------------------------------------- measurement and report

/**
 * The two CPU-bound steps of an accepted upload, run on the same bytes outside the service, to
 * show how much of the PUT they account for: the archive check (gunzip + tar parse) and the
 * store's SHA-256.
 */
async function cpuSteps(archive: Buffer): Promise<{ inspect: number; sha256: number }> {
  const t0 = performance.now();
  const check = await inspectArchive(archive, 10 * 100 * MiB);
  if (!check.ok) throw new Error(`the generated archive is invalid: ${check.message}`);
  const t1 = performance.now();
  createHash('sha256').update(archive).digest('hex');
  return { inspect: t1 - t0, sha256: performance.now() - t1 };
}

interface Measured {
  label: string;
  archiveBytes: number;
  baseline: number[];
  chunked: number[];
  service: ServiceSample[];
  cpu: { inspect: number; sha256: number }[];
}

/** Alternates the sides, reversing the order every other round, so drift hits all of them equally. */
async function measure(
  svc: Service,
  fx: Fixture,
  client: pg.Client,
  c: (typeof CASES)[number],
  ids: { next: number },
): Promise<Measured> {
  const archive = await makeArchive(c.bytes);
  const m: Measured = { label: c.label, archiveBytes: archive.length, baseline: [], chunked: [], service: [], cpu: [] };
  const sides = [
    async () => m.baseline.push(await baselineInsert(client, archive)),
    async () => m.chunked.push(await chunkedInsert(client, archive, ids.next++)),
    async () => m.service.push(await serviceUpload(svc, fx, archive)),
  ];
  for (let i = 0; i < c.reps; i++) {
    for (const side of i % 2 === 0 ? sides : [...sides].reverse()) await side();
    m.cpu.push(await cpuSteps(archive));
    log(
      `  ${c.label} round ${i + 1}: baseline ${m.baseline[i].toFixed(0)} ms, chunked ${m.chunked[i].toFixed(0)} ms, service ${m.service[i].total.toFixed(0)} ms (PUT ${m.service[i].put.toFixed(0)} ms)`,
    );
  }
  return m;
}

const mibps = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);
const p50 = (xs: number[]) => percentile(xs, 50);

/** Markdown tables, so the output can be pasted into docs/performance.md as is. */
function report(results: Measured[]): string {
  const lines = [
    '| Archive | Side | runs | p50 ms | min ms | max ms | MiB/s (at p50) |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const m of results) {
    const base = m.baseline;
    const svc = m.service.map((s) => s.total);
    const row = (side: string, xs: number[]) =>
      `| ${m.label} (${(m.archiveBytes / MiB).toFixed(2)} MiB) | ${side} | ${xs.length} | ${p50(xs).toFixed(0)} | ${Math.min(...xs).toFixed(0)} | ${Math.max(...xs).toFixed(0)} | ${mibps(m.archiveBytes, p50(xs)).toFixed(1)} |`;
    lines.push(
      row('baseline: one pg insert', base),
      row('reference: pg, 1 MiB rows, one tx', m.chunked),
      row('service: create + PUT + poll', svc),
    );
    lines.push(`| ${m.label} | **service / baseline throughput** | | | | | **${(p50(base) / p50(svc)).toFixed(2)}** |`);
    lines.push(`| ${m.label} | service / reference throughput | | | | | ${(p50(m.chunked) / p50(svc)).toFixed(2)} |`);
  }
  lines.push(
    '',
    '| Archive | create p50 ms | PUT p50 ms | poll p50 ms | PUT-only MiB/s | PUT-only / baseline | archive check p50 ms | SHA-256 p50 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const m of results) {
    const put = p50(m.service.map((s) => s.put));
    const parts = [p50(m.service.map((s) => s.create)), put, p50(m.service.map((s) => s.poll))].map((x) =>
      x.toFixed(0),
    );
    const cpu = [p50(m.cpu.map((x) => x.inspect)), p50(m.cpu.map((x) => x.sha256))].map((x) => x.toFixed(0));
    lines.push(
      `| ${m.label} | ${parts.join(' | ')} | ${mibps(m.archiveBytes, put).toFixed(1)} | ${(p50(m.baseline) / put).toFixed(2)} | ${cpu.join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------- orchestration

async function main(): Promise<void> {
  const started = Date.now();
  const before = machine();
  const cleanups = new Cleanups();
  try {
    const svc = await startService(cleanups);
    const client = new pg.Client({ connectionString: svc.databaseUrl });
    await client.connect();
    cleanups.add(() => client.end());
    await client.query('create table bench_upload_baseline (id bigserial primary key, data bytea not null)');
    await client.query(
      'create table bench_upload_chunks (object_id integer not null, seq integer not null, data bytea not null, primary key (object_id, seq))',
    );
    const fx = await createFixture(svc);

    // One untimed round per side: connections, JIT and the table's first pages.
    const warm = await makeArchive(MiB);
    const ids = { next: 1 };
    await baselineInsert(client, warm);
    await chunkedInsert(client, warm, ids.next++);
    await serviceUpload(svc, fx, warm);

    const results: Measured[] = [];
    for (const c of CASES) results.push(await measure(svc, fx, client, c, ids));
    process.stdout.write(
      `\n${report(results)}\n\nbefore: ${before}\nafter:  ${machine()}\ntotal ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );
  } finally {
    await cleanups.run();
  }
}

runMain(main);
