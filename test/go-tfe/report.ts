/*
 * Writes docs/compatibility.md from a go-tfe run's results.tsv and the expected-failures list, so
 * that the page always says what the real suite said.
 *
 *   node dist/test/go-tfe/report.js RESULTS_TSV     (rewrites docs/compatibility.md)
 */
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Page {
  results: string;
  expect: string;
  areas: string[];
  seconds: number | null;
  page: string;
}

type Outcome = 'PASS' | 'FAIL' | 'SKIP';

/** Reads `TestName<TAB>reason` lines (comments and blanks ignored). */
export async function readExpected(path: string): Promise<Map<string, string>> {
  const reasons = new Map<string, string>();
  for (const line of (await readFile(path, 'utf8')).split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const [name, reason = ''] = line.split('\t');
    reasons.set(name!.trim(), reason.trim());
  }
  return reasons;
}

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

export async function writeCompatibilityPage(p: Page): Promise<void> {
  const expected = await readExpected(p.expect);
  const rows = (await readFile(p.results, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t') as [string, string, Outcome]);
  const byArea = new Map<string, [string, Outcome][]>();
  for (const [area, fn, outcome] of rows) byArea.set(area, [...(byArea.get(area) ?? []), [fn, outcome]]);
  const count = (o: Outcome) => rows.filter((r) => r[2] === o).length;
  const lines: string[] = [
    '# Client compatibility: go-tfe\'s integration tests, run for real',
    '',
    '<!-- Written by test/go-tfe/report.ts from a run of the go-tfe gate; do not edit by hand. -->',
    '',
    'HashiCorp\'s Go client, go-tfe (v1.90.0), is what most tools that speak this API are built on (the',
    '`tfe` Terraform provider, CLIs, bots). Its own integration tests, compiled, run against this service',
    'in CI (`npm run test:go-tfe`, see `test/go-tfe/`): one process per test function, over the areas this',
    'service provides. A failure CI does not expect fails CI; each expected one is listed in',
    '`test/go-tfe/expected-failures.tsv` with its reason:',
    '',
    '- **HCP-only**: the test needs Terraform Cloud (HCP) itself, not an Enterprise-like service;',
    '- **Enterprise admin**: a Terraform Enterprise site-admin feature this service does not have;',
    '- **not built**: a feature this service does not offer yet;',
    '- **differs**: this service answers differently on purpose, as the named section of',
    '  [decisions.md](decisions.md) says.',
    '',
    `Last run: commit \`${commit()}\`, ${new Date().toISOString().slice(0, 10)}${p.seconds === null ? '' : `, ${p.seconds} s`}: ` +
      `**${count('PASS')} passed, ${count('FAIL')} failed, ${count('SKIP')} skipped** of ${rows.length} test functions.`,
    '',
    '| area | passed | failed | skipped |',
    '|---|---|---|---|',
  ];
  const areas = [...p.areas.filter((a) => byArea.has(a)), ...[...byArea.keys()].filter((a) => !p.areas.includes(a))];
  for (const area of areas) {
    const fns = byArea.get(area)!;
    const n = (o: Outcome) => fns.filter((f) => f[1] === o).length;
    lines.push(`| ${area} | ${n('PASS')} | ${n('FAIL')} | ${n('SKIP')} |`);
  }
  for (const area of areas) {
    lines.push('', `## ${area}`, '', '| test | result | reason |', '|---|---|---|');
    for (const [fn, outcome] of byArea.get(area)!) {
      const reason = outcome === 'PASS' ? '' : outcome === 'SKIP' ? 'skipped by go-tfe itself' : (expected.get(fn) ?? '**not expected**');
      lines.push(`| ${fn} | ${outcome.toLowerCase()} | ${reason} |`);
    }
  }
  await writeFile(p.page, `${lines.join('\n')}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
  const results = process.argv[2];
  if (!results) {
    process.stderr.write('usage: node dist/test/go-tfe/report.js RESULTS_TSV\n');
    process.exit(2);
  }
  const areas = (await readFile(join(repo, 'test/go-tfe/areas.txt'), 'utf8')).split(/\s+/).filter(Boolean);
  await writeCompatibilityPage({ results, expect: join(repo, 'test/go-tfe/expected-failures.tsv'), areas, seconds: null, page: join(repo, 'docs/compatibility.md') });
}
