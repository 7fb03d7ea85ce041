/*
 * The variables reaching a workspace, read as every run phase reads them (with its sources) and as
 * the effective-variables reads do, in a database that holds many organizations' variables.
 *
 * - Creates a throwaway database (`rls_bench_<random>`), applies the migrations and fills it with
 *   BENCH_ORGS organizations, 20 workspaces and 4 variable sets each (one in ten global, one set
 *   applied to each workspace), BENCH_VARIABLES workspace variables spread over the workspaces and
 *   a sixth as many set variables spread over the sets; then ANALYZE, as autovacuum would.
 * - Reads, in turns over BENCH_READS random workspaces: the service's read (`variablesReaching`,
 *   the same condition the phase's sources statement uses); the baseline, the minimum equivalent
 *   work: the workspace's own variables by its index, one statement on the same pool; and, as the
 *   figure before this read was rewritten, the earlier condition (the three cases or'ed in one
 *   filter) as text. Each statement is prepared on its connections, as the service's are.
 * - Prints p50 and p99 of each and the ratios of the p50s to the baseline; drops the database.
 */
import { randomInt } from 'node:crypto';
import { rowsOf } from '../shared/platform/db.js';
import { variablesReaching } from '../shared/variables/repo.js';
import { Cleanups, cleanupOnSignals, log, machine, migratedSetup, percentile, runMain } from './support.js';

const ORGS = Number(process.env.BENCH_ORGS ?? '500');
const VARIABLES = Number(process.env.BENCH_VARIABLES ?? '200000');
const READS = Number(process.env.BENCH_READS ?? '300');
const WORKSPACES_PER_ORG = 20;
const SETS_PER_ORG = 4;

/** The condition as it was before the three cases were found through their own indexes. */
const OR_ED = `select v.*, s.name as set_name, s.global as set_global, s.priority as set_priority
  from variables v left join variable_sets s on s.id = v.variable_set_id
  where v.workspace_id = ?
     or v.variable_set_id in (select vsw.variable_set_id from variable_set_workspaces vsw where vsw.workspace_id = ?)
     or (s.global and s.organization_name = (select ow.organization_name from workspaces ow where ow.id = ?))`;

const BASELINE = 'select * from variables where workspace_id = ?';

async function main(): Promise<void> {
  const cleanups = new Cleanups();
  cleanupOnSignals(cleanups);
  try {
    const { rt } = await migratedSetup(cleanups);
    const { db } = rt;
    const workspaces = ORGS * WORKSPACES_PER_ORG;
    const sets = ORGS * SETS_PER_ORG;
    const setVariables = Math.round(VARIABLES / 6);
    const t0 = performance.now();
    await db.raw(
      `insert into organizations (name, external_id, email) select 'org-' || i, 'ext-' || i, 'o' || i || '@example.com' from generate_series(1, ?) i`,
      [ORGS],
    );
    await db.raw(
      `insert into projects (id, organization_name, name, is_default) select 'prj-' || i, 'org-' || i, 'Default Project', true from generate_series(1, ?) i`,
      [ORGS],
    );
    await db.raw(
      `insert into workspaces (id, organization_name, name, project_id) select 'ws-' || i, 'org-' || (1 + i % ?), 'w-' || i, 'prj-' || (1 + i % ?) from generate_series(1, ?) i`,
      [ORGS, ORGS, workspaces],
    );
    await db.raw(
      `insert into variable_sets (id, organization_name, name, global) select 'varset-' || i, 'org-' || (1 + i % ?), 's-' || i, i % 10 = 0 from generate_series(1, ?) i`,
      [ORGS, sets],
    );
    await db.raw(
      `insert into variable_set_workspaces (variable_set_id, workspace_id) select 'varset-' || (1 + i % ?), 'ws-' || i from generate_series(1, ?) i`,
      [sets, workspaces],
    );
    await db.raw(
      `insert into variables (id, workspace_id, key, value, category, version_id) select 'var-w-' || i, 'ws-' || (1 + i % ?), 'k' || i, 'v', 'terraform', 'x' from generate_series(1, ?) i`,
      [workspaces, VARIABLES],
    );
    await db.raw(
      `insert into variables (id, variable_set_id, key, value, category, version_id) select 'var-s-' || i, 'varset-' || (1 + i % ?), 'k' || i, 'v', 'env', 'x' from generate_series(1, ?) i`,
      [sets, setVariables],
    );
    await db.raw('analyze');
    log(
      `${machine()}; ${ORGS} organizations, ${workspaces} workspaces, ${sets} variable sets, ${VARIABLES + setVariables} variables (filled in ${((performance.now() - t0) / 1000).toFixed(1)} s); ${READS} reads of each kind`,
    );

    const timed = async (read: () => Promise<unknown[]>) => {
      const t = performance.now();
      const rows = await read();
      return { ms: performance.now() - t, rows: rows.length };
    };
    const kinds = {
      service: (ws: string) => timed(() => variablesReaching(db, { workspaceId: ws })),
      baseline: (ws: string) => timed(() => rowsOf(db, BASELINE, [ws])),
      before: (ws: string) => timed(() => rowsOf(db, OR_ED, [ws, ws, ws])),
    };
    const samples: Record<keyof typeof kinds, number[]> = { service: [], baseline: [], before: [] };
    // Untimed: every statement prepared on the pool's connections first.
    for (let i = 0; i < 20; i++) for (const read of Object.values(kinds)) await read(`ws-${1 + randomInt(workspaces)}`);
    for (let i = 0; i < READS; i++) {
      const ws = `ws-${1 + randomInt(workspaces)}`;
      const service = await kinds.service(ws);
      const before = await kinds.before(ws);
      if (service.rows !== before.rows)
        throw new Error(`the two conditions disagree for ${ws}: ${service.rows} rows against ${before.rows}`);
      samples.service.push(service.ms);
      samples.before.push(before.ms);
      samples.baseline.push((await kinds.baseline(ws)).ms);
    }
    const p50 = (k: keyof typeof kinds) => percentile(samples[k], 50);
    const lines = ['| read | p50 ms | p99 ms | p50 / baseline |', '|---|---:|---:|---:|'];
    const names = {
      baseline: "baseline: the workspace's own variables by its index",
      service: 'the service: variables reaching the workspace',
      before: "before: the three cases or'ed in one filter",
    };
    for (const k of ['baseline', 'service', 'before'] as const) {
      lines.push(
        `| ${names[k]} | ${p50(k).toFixed(2)} | ${percentile(samples[k], 99).toFixed(2)} | ${(p50(k) / p50('baseline')).toFixed(1)} |`,
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await cleanups.run();
  }
}

runMain(main);
