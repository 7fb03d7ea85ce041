import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { OpaCliEngine, parseOpaEvalOutput } from '../../../../shared/policies/opa-cli.js';
import {
  binaryRuns,
  POLICY_RUN_DOCUMENT,
  policyToEvaluate,
  realPlanForSuite,
  standInPerTest,
} from '../../../helpers/policy-cli.js';

const QUERY = 'data.terraform.policies.public_buckets.deny';
// `opa eval --format json` prints its result (or its errors) as indented JSON on stdout.
const json = (doc: unknown) => JSON.stringify(doc, null, 2) + '\n';
const resultOf = (value: unknown, text = QUERY) =>
  json({ result: [{ expressions: [{ value, text, location: { row: 1, col: 1 } }] }] });

describe('opa eval output', () => {
  it('passes on an empty array and fails with one message per element', () => {
    expect(parseOpaEvalOutput(QUERY, 0, resultOf([]))).to.deep.equal({ status: 'passed', messages: [] });
    expect(
      parseOpaEvalOutput(
        QUERY,
        0,
        resultOf(['terraform_data.public_bucket is public', { address: 'x', acl: 'public-read' }, 3]),
      ),
    ).to.deep.equal({
      status: 'failed',
      messages: ['terraform_data.public_bucket is public', '{"address":"x","acl":"public-read"}', '3'],
    });
  });

  it('errors on an undefined result, a value that is not an array, or several results', () => {
    const undefinedResult = parseOpaEvalOutput(QUERY, 0, '{}\n');
    expect(undefinedResult.status).to.equal('errored');
    expect(undefinedResult.error).to.equal(
      `the query ${QUERY} is undefined: it must yield an array (check the package and rule names)`,
    );
    expect(parseOpaEvalOutput(QUERY, 0, resultOf({ allow: false })).error).to.equal(
      `the query ${QUERY} must yield an array, but it yielded an object`,
    );
    expect(parseOpaEvalOutput(QUERY, 0, resultOf(true)).error).to.equal(
      `the query ${QUERY} must yield an array, but it yielded a boolean`,
    );
    const twoResults = json({
      result: [
        { expressions: [{ value: ['a'], text: 'data.x.deny[i]', location: { row: 1, col: 1 } }], bindings: { i: 0 } },
        { expressions: [{ value: ['b'], text: 'data.x.deny[i]', location: { row: 1, col: 1 } }], bindings: { i: 1 } },
      ],
    });
    expect(parseOpaEvalOutput('data.x.deny[i]', 0, twoResults).status).to.equal('errored');
  });

  it('errors with the compile and runtime errors OPA reports', () => {
    const parse = json({
      errors: [
        {
          message: 'unexpected eof token',
          code: 'rego_parse_error',
          location: { file: 'policy.rego', row: 4, col: 1 },
          details: { line: 'deny contains msg if {', idx: 21 },
        },
      ],
    });
    expect(parseOpaEvalOutput(QUERY, 1, parse)).to.deep.equal({
      status: 'errored',
      messages: [],
      error: 'opa eval failed: rego_parse_error: unexpected eof token (policy.rego:4:1)',
    });
    const runtime = json({
      errors: [
        {
          message: 'var msg is unsafe',
          code: 'rego_unsafe_var_error',
          location: { file: 'policy.rego', row: 6, col: 3 },
        },
        {
          message: 'functions must not produce multiple outputs for same inputs',
          code: 'eval_conflict_error',
          location: { file: 'policy.rego', row: 9, col: 1 },
        },
      ],
    });
    expect(parseOpaEvalOutput(QUERY, 1, runtime).error).to.equal(
      'opa eval failed: rego_unsafe_var_error: var msg is unsafe (policy.rego:6:3); eval_conflict_error: functions must not produce multiple outputs for same inputs (policy.rego:9:1)',
    );
  });

  it('errors with what OPA said when it printed no JSON', () => {
    const r = parseOpaEvalOutput(
      QUERY,
      1,
      '',
      'error: unable to parse input: yaml: line 1: did not find expected node content\n',
    );
    expect(r.status).to.equal('errored');
    expect(r.error).to.equal(
      'opa eval exited with code 1 without a JSON result: error: unable to parse input: yaml: line 1: did not find expected node content',
    );
  });
});

describe('OPA CLI engine', function () {
  this.timeout(60_000);
  const real = realPlanForSuite();

  describe('with a stand-in opa binary', () => {
    const stand = standInPerTest('Version: 0.70.0\nBuild Commit: 0000000\nGo Version: go1.23.1\n');

    it('writes the policy and the {plan, run} input into a fresh directory, runs opa eval there with a clean environment, then removes it', async () => {
      await stand.cli.answer({ stdout: resultOf(['terraform_data.public_bucket is public']), code: 0 });
      const engine = new OpaCliEngine({ bin: stand.cli.bin, timeoutSeconds: 30 });
      const code = 'package terraform.policies.public_buckets\n';
      process.env.RLS_TEST_SECRET = 'do-not-leak';
      let outcomes;
      try {
        outcomes = await engine.evaluate(
          [policyToEvaluate({ kind: 'opa', name: 'public-buckets', code, query: QUERY })],
          real.input,
        );
      } finally {
        delete process.env.RLS_TEST_SECRET;
      }
      expect(outcomes).to.have.length(1);
      expect(outcomes[0]).to.deep.include({
        policyId: 'pol-public-buckets',
        name: 'public-buckets',
        kind: 'opa',
        policySetName: 'baseline',
        enforcementLevel: 'mandatory',
        status: 'failed',
        messages: ['terraform_data.public_bucket is public'],
      });
      const [call] = await stand.cli.calls();
      expect(call.args).to.deep.equal([
        'eval',
        '--format',
        'json',
        '--data',
        'policy.rego',
        '--input',
        'input.json',
        '--',
        QUERY,
      ]);
      expect(Object.keys(call.files).sort()).to.deep.equal(['input.json', 'policy.rego']);
      expect(call.files['policy.rego']).to.equal(code);
      const written = JSON.parse(call.files['input.json']);
      expect(Object.keys(written)).to.deep.equal(['plan', 'run']);
      expect(written.plan).to.deep.equal(real.plan);
      expect(written.run).to.deep.equal(POLICY_RUN_DOCUMENT);
      expect(written.plan.resource_changes.map((rc: { address: string }) => rc.address)).to.have.members([
        'terraform_data.public_bucket',
        'terraform_data.tagged',
        'terraform_data.untagged',
      ]);
      expect(call.env.PATH).to.equal(process.env.PATH);
      expect(call.env.HOME.startsWith(call.cwd + '/')).to.equal(true);
      expect(call.env).not.to.have.property('RLS_TEST_SECRET');
      expect(
        Object.keys(call.env).filter(
          (k) => !['PATH', 'HOME', 'CHECKPOINT_DISABLE', 'PWD', 'OLDPWD', 'SHLVL', '_'].includes(k),
        ),
      ).to.deep.equal([]);
      expect(existsSync(call.cwd)).to.equal(false);
    });

    it('evaluates each policy on its own and keeps their order', async () => {
      await stand.cli.answer({ stdout: resultOf([]), code: 0 });
      const engine = new OpaCliEngine({ bin: stand.cli.bin, timeoutSeconds: 30 });
      const outcomes = await engine.evaluate(
        [
          policyToEvaluate({ kind: 'opa', name: 'a', code: 'package a\n', query: 'data.a.deny' }),
          policyToEvaluate({
            kind: 'opa',
            name: 'b',
            code: 'package b\n',
            query: 'data.b.deny',
            enforcementLevel: 'advisory',
          }),
        ],
        real.input,
      );
      expect(outcomes.map((o) => [o.name, o.status, o.enforcementLevel])).to.deep.equal([
        ['a', 'passed', 'mandatory'],
        ['b', 'passed', 'advisory'],
      ]);
      const calls = await stand.cli.calls();
      expect(calls.map((c) => c.args.at(-1))).to.deep.equal(['data.a.deny', 'data.b.deny']);
      expect(calls[0].cwd).not.to.equal(calls[1].cwd);
    });

    it('errors a policy with no code or no query without running opa', async () => {
      const engine = new OpaCliEngine({ bin: stand.cli.bin, timeoutSeconds: 30 });
      const outcomes = await engine.evaluate(
        [
          policyToEvaluate({ kind: 'opa', name: 'no-code', query: QUERY }),
          policyToEvaluate({ kind: 'opa', name: 'no-query', code: 'package x\n', query: ' ' }),
          policyToEvaluate({ kind: 'sentinel', name: 'wrong-kind', code: 'main = rule { true }' }),
        ],
        real.input,
      );
      expect(outcomes.map((o) => [o.status, o.error])).to.deep.equal([
        ['errored', 'the policy has no uploaded code'],
        ['errored', 'the policy has no query (an OPA policy needs one, e.g. data.terraform.policies.<name>.deny)'],
        ['errored', 'a sentinel policy cannot be evaluated by the opa engine'],
      ]);
      expect(await stand.cli.calls()).to.deep.equal([]);
    });

    it('stops and errors a policy that runs too long or writes too much', async () => {
      const code = 'package x\n';
      await stand.cli.answer({ sleepSeconds: 30 });
      const slow = await new OpaCliEngine({ bin: stand.cli.bin, timeoutSeconds: 0.3 }).evaluate(
        [policyToEvaluate({ kind: 'opa', name: 'slow', code, query: QUERY })],
        real.input,
      );
      expect(slow[0]).to.include({
        status: 'errored',
        error: 'opa did not finish within 0.3 s (POLICY_EVAL_TIMEOUT_SECONDS) and was stopped',
      });
      expect(slow[0].durationMs).to.be.below(5000);
      await stand.cli.answer({ flood: true });
      const noisy = await new OpaCliEngine({
        bin: stand.cli.bin,
        timeoutSeconds: 30,
        maxOutputBytes: 64 * 1024,
      }).evaluate([policyToEvaluate({ kind: 'opa', name: 'noisy', code, query: QUERY })], real.input);
      expect(noisy[0]).to.include({
        status: 'errored',
        error: 'opa wrote more than 65536 bytes of output and was stopped',
      });
    });

    it('errors the policies left when the check is canceled', async () => {
      await stand.cli.answer({ stdout: resultOf([]) });
      const ac = new AbortController();
      ac.abort();
      const outcomes = await new OpaCliEngine({ bin: stand.cli.bin, timeoutSeconds: 30 }).evaluate(
        [policyToEvaluate({ kind: 'opa', name: 'a', code: 'package a\n', query: QUERY })],
        real.input,
        ac.signal,
      );
      expect(outcomes[0]).to.include({
        status: 'errored',
        error: 'the policy check was canceled before this policy finished',
      });
    });
  });

  describe('with the real opa binary', () => {
    before(function () {
      if (!binaryRuns('opa')) {
        console.log('      (opa is not on PATH: skipping real OPA evaluations)');
        this.skip();
      }
    });

    const engine = () => new OpaCliEngine({ bin: 'opa', timeoutSeconds: 60 });
    const REQUIRE_TAGS = `package terraform.policies.require_tags

import rego.v1

deny contains msg if {
  some rc in input.plan.resource_changes
  rc.type == "terraform_data"
  not rc.change.after.input.tags
  msg := sprintf("%s has no tags", [rc.address])
}
`;
    const PUBLIC_BUCKETS = `package terraform.policies.public_buckets

import rego.v1

deny contains msg if {
  some rc in input.plan.resource_changes
  rc.change.after.input.acl == "public-read"
  msg := sprintf("%s is public (workspace %s)", [rc.address, input.run.workspace.name])
}
`;

    it('fails "require tags" and "deny public buckets" on the real plan with their messages', async () => {
      const outcomes = await engine().evaluate(
        [
          policyToEvaluate({
            kind: 'opa',
            name: 'require-tags',
            code: REQUIRE_TAGS,
            query: 'data.terraform.policies.require_tags.deny',
          }),
          policyToEvaluate({ kind: 'opa', name: 'public-buckets', code: PUBLIC_BUCKETS, query: QUERY }),
        ],
        real.input,
      );
      expect(outcomes.map((o) => [o.status, o.messages])).to.deep.equal([
        ['failed', ['terraform_data.untagged has no tags']],
        ['failed', ['terraform_data.public_bucket is public (workspace networking)']],
      ]);
    });

    it('passes when nothing matches, and errors on an undefined query or broken code', async () => {
      const outcomes = await engine().evaluate(
        [
          policyToEvaluate({
            kind: 'opa',
            name: 'clean',
            code: PUBLIC_BUCKETS.replace('"public-read"', '"public-read-write"'),
            query: QUERY,
          }),
          policyToEvaluate({
            kind: 'opa',
            name: 'undefined',
            code: PUBLIC_BUCKETS,
            query: 'data.terraform.policies.nothing_here.deny',
          }),
          policyToEvaluate({
            kind: 'opa',
            name: 'broken',
            code: 'package broken\n\ndeny contains msg if {\n',
            query: 'data.broken.deny',
          }),
        ],
        real.input,
      );
      expect(outcomes.map((o) => o.status)).to.deep.equal(['passed', 'errored', 'errored']);
      expect(outcomes[1].error).to.match(/is undefined/);
      expect(outcomes[2].error).to.match(/^opa eval failed: rego_parse_error/);
    });
  });
});
