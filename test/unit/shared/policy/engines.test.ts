import { expect } from 'chai';
import { loadConfig } from '../../../../shared/platform/config.js';
import { cliEngines, evaluatePolicies } from '../../../../shared/policies/engines.js';
import { OpaCliEngine } from '../../../../shared/policies/opa-cli.js';
import { SentinelCliEngine } from '../../../../shared/policies/sentinel-cli.js';
import type { EvaluationInput } from '../../../../shared/policies/types.js';
import { buildRunInput } from '../../../../shared/policies/run-input.js';
import { policyRunSource, policyToEvaluate, StandInCli } from '../../../helpers/policy-cli.js';

describe('policy engines', () => {
  const input: EvaluationInput = {
    plan: { format_version: '1.2', resource_changes: [] },
    run: buildRunInput(policyRunSource()),
  };
  let opa: StandInCli;
  before(async () => {
    opa = await StandInCli.create('Version: 1.4.2\n');
    await opa.answer({
      stdout: JSON.stringify({
        result: [{ expressions: [{ value: [], text: 'data.a.deny', location: { row: 1, col: 1 } }] }],
      }),
    });
  });
  after(() => opa.remove());

  it('builds the CLI engines from configuration', async () => {
    const engines = cliEngines(
      loadConfig({
        ENCRYPTION_KEY: 'a'.repeat(64),
        OPA_PATH: opa.bin,
        SENTINEL_PATH: '/nonexistent/sentinel',
        POLICY_EVAL_TIMEOUT_SECONDS: '5',
      }),
    );
    expect(await engines.opa!.available()).to.equal(true);
    expect(engines.opa!.description).to.equal('opa 1.4.2 (CLI)');
    expect(await engines.sentinel!.available()).to.equal(false);
  });

  it('sends each policy to the engine of its kind and keeps the order, a policy in two sets included', async () => {
    const engines = cliEngines({
      opaPath: opa.bin,
      sentinelPath: '/nonexistent/sentinel',
      policyEvalTimeoutSeconds: 5,
    });
    const shared = policyToEvaluate({ kind: 'opa', name: 'a', code: 'package a\n', query: 'data.a.deny' });
    const outcomes = await evaluatePolicies(
      engines,
      [
        shared,
        policyToEvaluate({ kind: 'sentinel', name: 's', code: 'main = rule { true }' }),
        { ...shared, policySetName: 'other' },
      ],
      input,
    );
    expect(outcomes.map((o) => [o.kind, o.name, o.policySetName, o.status])).to.deep.equal([
      ['opa', 'a', 'baseline', 'passed'],
      ['sentinel', 's', 'baseline', 'errored'],
      ['opa', 'a', 'other', 'passed'],
    ]);
  });

  it('errors the policies of a kind with no engine', async () => {
    const outcomes = await evaluatePolicies(
      {},
      [policyToEvaluate({ kind: 'opa', name: 'a', code: 'package a\n', query: 'data.a.deny' })],
      input,
    );
    expect(outcomes.map((o) => [o.status, o.error])).to.deep.equal([['errored', 'no opa engine is configured']]);
  });

  const runtimes = [
    {
      Engine: OpaCliEngine,
      kind: 'opa',
      found: 'opa 1.4.2 (CLI)',
      version: 'Version: 1.4.2\n',
      advice: "install the opa binary on the workers' PATH or set OPA_PATH",
      name: 'OPA',
    },
    {
      Engine: SentinelCliEngine,
      kind: 'sentinel',
      found: 'sentinel 0.26.3 (CLI)',
      version: 'Sentinel v0.26.3\n',
      advice: "install the sentinel binary on the workers' PATH or set SENTINEL_PATH",
      name: 'Sentinel',
    },
  ] as const;

  for (const r of runtimes) {
    it(`describes the ${r.name} runtime it found by its version`, async () => {
      const cli = await StandInCli.create(r.version);
      try {
        const engine = new r.Engine({ bin: cli.bin, timeoutSeconds: 5 });
        expect(await engine.available()).to.equal(true);
        expect(engine.description).to.equal(r.found);
      } finally {
        await cli.remove();
      }
    });

    it(`with no ${r.name} binary, is unavailable and errors every policy saying what to install, never passing one`, async () => {
      const bin = `/nonexistent/${r.kind}`;
      const engine = new r.Engine({ bin, timeoutSeconds: 5 });
      expect(await engine.available()).to.equal(false);
      const message = `no ${r.name} runtime is configured (${bin} could not be run): ${r.advice}`;
      expect(engine.description).to.equal(message);
      const policies = [
        policyToEvaluate({ kind: r.kind, name: 'a', code: 'x', query: 'data.a.deny' }),
        policyToEvaluate({ kind: r.kind, name: 'b', code: 'x', query: 'data.b.deny', enforcementLevel: 'advisory' }),
      ];
      const outcomes = await engine.evaluate(policies, input);
      expect(outcomes.map((o) => [o.name, o.status, o.error, o.messages])).to.deep.equal([
        ['a', 'errored', message, []],
        ['b', 'errored', message, []],
      ]);
    });
  }
});
