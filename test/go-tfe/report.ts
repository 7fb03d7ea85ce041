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

/** How anyone with the tfe provider checks that managing this service with it converges. */
const PROVIDER_PROCEDURE = [
  '## The tfe Terraform provider: a second plan shows no changes',
  '',
  'The provider cannot be downloaded where CI runs, so this is a procedure to repeat by hand with',
  'provider v0.50.0 and terraform 1.11. `test/go-tfe/tfe-provider/main.tf` manages an organization, a',
  'team and a membership, a project, a workspace with a Terraform and a sensitive environment',
  'variable, a variable set with a variable applied to the workspace, team access, a notification',
  'configuration, a run task and its attachment, an OPA policy and policy set, a registry module,',
  'organization and team tokens, and reads the `tfe_workspace` and `tfe_outputs` data sources.',
  '',
  '1. Serve the service over https (the provider speaks https only) through a TLS proxy in front of',
  '   it, with `BASE_URL` the https address, `TRUST_PROXY` set, and `OUTBOUND_ALLOWED_CIDRS` allowing',
  '   the run task and notification receivers.',
  "2. Make a user and its token (the README's quick start), and `export TFE_TOKEN=<token>`.",
  '3. In `test/go-tfe/tfe-provider/`: `terraform init`, then `terraform apply -var hostname=<host>',
  '   -var email=<you> -var run_task_url=<receiver> -var notification_url=<receiver>`.',
  '4. `terraform plan` with the same variables must print "No changes" (`-detailed-exitcode` exits 0),',
  '   also after `terraform apply -refresh-only`.',
  '5. `terraform destroy` removes everything; the organization is gone (`GET /organizations/provider-check` is 404).',
  '',
  "The requests the provider sends for the items that once differed are tested in the project's suite:",
  'variables read by id (`variables-go-tfe.test.ts`), tokens created with an empty or missing type',
  '(`tokens-go-tfe.test.ts`), and trigger attributes equal at creation and on read',
  '(`workspaces-go-tfe.test.ts`).',
];

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
    "# Client compatibility: go-tfe's integration tests, run for real",
    '',
    '<!-- Written by test/go-tfe/report.ts from a run of the go-tfe gate; do not edit by hand. -->',
    '',
    "HashiCorp's Go client, go-tfe (v1.90.0), is what most tools that speak this API are built on (the",
    '`tfe` Terraform provider, CLIs, bots). Its own integration tests, compiled, run against this service',
    'in CI (`npm run test:go-tfe`, see `test/go-tfe/`): one process per test function, over the areas this',
    'service provides. A failure CI does not expect fails CI; each expected one is listed in',
    '`test/go-tfe/expected-failures.tsv` with its reason:',
    '',
    '- **HCP-only**: the test needs Terraform Cloud (HCP) itself, not an Enterprise-like service;',
    '- **Enterprise admin**: a Terraform Enterprise site-admin feature this service does not have;',
    '- **not built**: a feature this service does not offer yet;',
    '- **needs github.com**: the test reads a repository on GitHub itself, and the gate runs offline;',
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
      const reason =
        outcome === 'PASS'
          ? ''
          : outcome === 'SKIP'
            ? 'skipped by go-tfe itself'
            : (expected.get(fn) ?? '**not expected**');
      lines.push(`| ${fn} | ${outcome.toLowerCase()} | ${reason} |`);
    }
  }
  lines.push('', ...PROVIDER_PROCEDURE);
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
  await writeCompatibilityPage({
    results,
    expect: join(repo, 'test/go-tfe/expected-failures.tsv'),
    areas,
    seconds: null,
    page: join(repo, 'docs/compatibility.md'),
  });
}
