#!/usr/bin/env node
// `npm run lint:rules`: breaks every import boundary and lint rule once, on purpose, and fails when
// one of them does not fire. A rule that silently stopped matching (a renamed folder, a mistyped
// pattern) would otherwise pass CI while checking nothing.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// Each import rule of .dependency-cruiser.cjs with a file that breaks it. `from` is where the
// violation is reported when that is not the fixture itself (what bin/web.ts reaches, a cycle).
const IMPORT_CASES = [
  {
    rule: 'no-cycles',
    file: 'shared/runs/violation-cycle-a.ts',
    code: "import { b } from './violation-cycle-b.js';\nexport const a = () => b;\n",
  },
  // The other half of the cycle: the cycle is reported once, from either of its files.
  {
    rule: 'no-cycles',
    file: 'shared/runs/violation-cycle-b.ts',
    from: ['shared/runs/violation-cycle-a.ts', 'shared/runs/violation-cycle-b.ts'],
    code: "import { a } from './violation-cycle-a.js';\nexport const b = () => a;\n",
  },
  {
    rule: 'features-through-faces',
    file: 'shared/policies/violation-deep.ts',
    code: "import { findRun } from '../runs/repo.js';\nexport const x = findRun;\n",
  },
  {
    rule: 'web-not-workers',
    file: 'server/violation-workers.ts',
    code: "import { startWorkers } from '../workers/bootstrap.js';\nexport const x = startWorkers;\n",
  },
  {
    rule: 'web-not-processes',
    file: 'server/violation-spawn.ts',
    code: "import { spawn } from 'node:child_process';\nexport const x = spawn;\n",
  },
  {
    rule: 'workers-not-web',
    file: 'workers/violation-web.ts',
    code: "import { buildApp } from '../server/app.js';\nexport const x = buildApp;\n",
  },
  {
    rule: 'shared-not-processes',
    file: 'shared/runs/violation-entry.ts',
    code: "import { buildApp } from '../../server/app.js';\nexport const x = buildApp;\n",
  },
  {
    rule: 'entries-through-faces',
    file: 'server/violation-repo.ts',
    code: "import { findRun } from '../shared/runs/repo.js';\nexport const x = findRun;\n",
  },
  {
    rule: 'entries-platform-edge',
    file: 'server/violation-platform.ts',
    code: "import { encryptSecret } from '../shared/platform/crypto.js';\nexport const x = encryptSecret;\n",
  },
  {
    rule: 'entries-no-database',
    file: 'workers/violation-db.ts',
    code: "import { createDb } from '../shared/platform/db.js';\nexport const x = createDb;\n",
  },
  {
    rule: 'pure-imports-pure',
    file: 'shared/runs/violation.rules.ts',
    code: "import { findRun } from './repo.js';\nexport const x = findRun;\n",
  },
  {
    rule: 'platform-below-features',
    file: 'shared/platform/violation-feature.ts',
    code: "import { cancelRun } from '../runs/commands.js';\nexport const x = cancelRun;\n",
  },
  {
    rule: 'sql-files-sql-only',
    file: 'shared/runs/violation.repo.ts',
    code: "import { createQueues } from '../platform/queues.js';\nexport const x = createQueues;\n",
  },
  {
    rule: 'console-api-only',
    file: 'console/src/violation-shared.ts',
    code: "import { newId } from '../../shared/platform/ids.js';\nexport const x = newId;\n",
  },
  {
    rule: 'nothing-imports-console',
    file: 'server/violation-console.ts',
    code: "import { api } from '../console/src/api.js';\nexport const x = api;\n",
  },
  {
    rule: 'web-process-spawns-nothing',
    from: 'bin/web.ts',
    file: 'shared/runs/violation-reach.ts',
    code: "import { runSubprocess } from '../platform/subprocess.js';\nexport const x = runSubprocess;\n",
  },
];
// bin/web.ts gets one extra import for the reachability case, and is restored afterwards.
const WEB = join(root, 'bin', 'web.ts');
const WEB_EXTRA = "\nimport '../shared/runs/violation-reach.js';\n";

// Each eslint rule with a file where it applies and code that breaks it.
const LINT_CASES = [
  {
    rule: 'no `any`',
    file: 'shared/runs/violation-any.ts',
    code: 'export const x = (v: any) => v;\n',
    id: '@typescript-eslint/no-explicit-any',
  },
  {
    rule: 'no `as never`',
    file: 'shared/runs/violation-never.ts',
    code: 'export const x = (v: unknown) => v as never;\n',
    id: 'no-restricted-syntax',
  },
  {
    rule: 'no SQL in handlers',
    file: 'server/handlers/violation-sql.ts',
    code: "export const x = (db: (t: string) => unknown) => db('runs');\n",
    id: 'no-restricted-syntax',
  },
  {
    rule: 'no SQL in commands',
    file: 'shared/runs/violation-sql.ts',
    code: "export const x = (tx: (t: string) => unknown) => tx('runs');\n",
    id: 'no-restricted-syntax',
  },
  {
    rule: 'no JSON:API pointers in shared',
    file: 'shared/runs/violation-pointer.rules.ts',
    code: "export const x = '/data/attributes/name';\n",
    id: 'no-restricted-syntax',
  },
  {
    rule: 'no JSON:API pointers in a command',
    file: 'shared/runs/violation-pointer.ts',
    code: 'export const x = (f: string) => `/data/attributes/${f}`;\n',
    id: 'no-restricted-syntax',
  },
  {
    rule: 'no transactions in workers',
    file: 'workers/violation-sql.ts',
    code: 'export const x = (rt: { db: { transaction: () => void } }) => rt.db.transaction();\n',
    id: 'no-restricted-syntax',
  },
];

const failures = [];
const written = IMPORT_CASES.map((c) => join(root, c.file));
const webSource = readFileSync(WEB, 'utf8');
try {
  for (const c of IMPORT_CASES) writeFileSync(join(root, c.file), c.code);
  writeFileSync(WEB, webSource + WEB_EXTRA);
  const cruise = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'),
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'json',
      'bin/web.ts',
      ...IMPORT_CASES.map((c) => c.file),
    ],
    { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  if (!cruise.stdout) throw new Error(`dependency-cruiser printed nothing: ${cruise.stderr}`);
  const found = JSON.parse(cruise.stdout).summary.violations.map((v) => `${v.rule.name} ${v.from}`);
  for (const c of IMPORT_CASES) {
    const from = [c.from ?? c.file].flat();
    if (!from.some((f) => found.includes(`${c.rule} ${f}`)))
      failures.push(`import rule ${c.rule} did not fire for ${c.file}`);
  }
} finally {
  writeFileSync(WEB, webSource);
  for (const file of written) rmSync(file, { force: true });
}

const eslint = new ESLint({ cwd: root });
for (const c of LINT_CASES) {
  const [result] = await eslint.lintText(c.code, { filePath: join(root, c.file) });
  if (!result.messages.some((m) => m.ruleId === c.id))
    failures.push(`lint rule "${c.rule}" did not fire for ${c.file}`);
}

if (failures.length) {
  for (const f of failures) console.error(f);
  process.exit(1);
}
console.log(
  `every boundary and lint rule fired on its deliberate violation (${IMPORT_CASES.length} import cases, ${LINT_CASES.length} lint cases)`,
);
