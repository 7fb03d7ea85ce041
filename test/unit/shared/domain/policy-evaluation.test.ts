import { expect } from 'chai';
import { policyBlocks, readBundle } from '../../../../shared/policies/bundle.rules.js';
import {
  evaluationVerdict,
  reportsThroughEvaluation,
  resultCount,
  stageOverridableNow,
} from '../../../../shared/policies/evaluations.machine.js';
import { stageOutcome } from '../../../../shared/runs/gates.js';

const files = (entries: Record<string, string>) => new Map(Object.entries(entries));

describe('policy set version bundles', () => {
  it('reads policy blocks, ignoring comments and other blocks', () => {
    const hcl =
      '# a comment\nmodule "tfplan-functions" {\n  source = "./f.sentinel"\n}\n// policy "commented" { source = "x" }\npolicy "tags" {\n  source = "./tags.sentinel"\n  enforcement_level = "soft-mandatory"\n}\n';
    expect(policyBlocks(hcl)).to.deep.equal([
      { name: 'tags', attributes: { source: './tags.sentinel', enforcement_level: 'soft-mandatory' } },
    ]);
  });

  it('reads a Sentinel bundle: each policy from its source, advisory unless a level is named', () => {
    const bundle = readBundle(
      'sentinel',
      files({
        './sentinel.hcl':
          'policy "a" {\n  source = "./a.sentinel"\n}\npolicy "b" {\n  enforcement_level = "hard-mandatory"\n}\n',
        './a.sentinel': 'main = rule { true }',
        'b.sentinel': 'main = rule { false }',
      }),
    );
    expect(bundle).to.deep.equal({
      ok: true,
      policies: [
        {
          name: 'a',
          kind: 'sentinel',
          enforcement_level: 'advisory',
          query: null,
          code: 'main = rule { true }',
          description: null,
        },
        {
          name: 'b',
          kind: 'sentinel',
          enforcement_level: 'hard-mandatory',
          query: null,
          code: 'main = rule { false }',
          description: null,
        },
      ],
    });
  });

  it('reads an OPA bundle: each query from the module whose package it reads (the longest)', () => {
    const bundle = readBundle(
      'opa',
      files({
        'policies.hcl':
          'policy "public" {\n  query = "data.terraform.policies.public.deny"\n  enforcement_level = "mandatory"\n}\n',
        'a/outer.rego': 'package terraform.policies\n\ndeny := []\n',
        'a/public.rego': 'package terraform.policies.public\n\ndeny := ["x"]\n',
      }),
    );
    expect(bundle.ok && bundle.policies[0]).to.include({
      name: 'public',
      enforcement_level: 'mandatory',
      query: 'data.terraform.policies.public.deny',
      code: 'package terraform.policies.public\n\ndeny := ["x"]\n',
    });
  });

  it('says why a bundle is not valid', () => {
    const message = (kind: 'sentinel' | 'opa', entries: Record<string, string>) => {
      const r = readBundle(kind, files(entries));
      return r.ok ? '' : r.message;
    };
    expect(message('sentinel', { 'a.sentinel': '' })).to.include('no sentinel.hcl');
    expect(message('opa', { 'sentinel.hcl': 'policy "a" {}' })).to.include('no policies.hcl');
    expect(message('sentinel', { 'sentinel.hcl': '' })).to.include('names no policy');
    expect(message('sentinel', { 'sentinel.hcl': 'policy "a" {\n  source = "./x.sentinel"\n}' })).to.include(
      'x.sentinel is not in the archive',
    );
    expect(
      message('sentinel', { 'sentinel.hcl': 'policy "a" {\n  enforcement_level = "mandatory"\n}', 'a.sentinel': '' }),
    ).to.include('not a sentinel level');
    expect(message('sentinel', { 'sentinel.hcl': 'policy "a" {}\npolicy "a" {}', 'a.sentinel': '' })).to.include(
      'named twice',
    );
    expect(message('opa', { 'policies.hcl': 'policy "a" {}' })).to.include('query is required');
    expect(
      message('opa', {
        'policies.hcl': 'policy "a" {\n  query = "data.nowhere.deny"\n}',
        'x.rego': 'package elsewhere\n',
      }),
    ).to.include('no .rego file');
  });
});

describe('policy evaluations', () => {
  it('report OPA sets and agent-enabled Sentinel sets; legacy Sentinel sets report through checks', () => {
    expect(reportsThroughEvaluation({ kind: 'opa', agent_enabled: false })).to.equal(true);
    expect(reportsThroughEvaluation({ kind: 'sentinel', agent_enabled: true })).to.equal(true);
    expect(reportsThroughEvaluation({ kind: 'sentinel', agent_enabled: false })).to.equal(false);
  });

  it('count results: errors apart, failures by whether they were advisory', () => {
    const o = (status: string, enforcementLevel: string) => ({ status, enforcementLevel });
    expect(
      resultCount([
        o('passed', 'mandatory'),
        o('failed', 'advisory'),
        o('failed', 'hard-mandatory'),
        o('failed', 'mandatory'),
        o('errored', 'advisory'),
      ]),
    ).to.deep.equal({
      'advisory-failed': 1,
      'mandatory-failed': 2,
      passed: 1,
      errored: 1,
    });
  });

  it('give a verdict: only a soft failure may be overridden', () => {
    expect(evaluationVerdict('passed')).to.deep.equal({ event: 'pass', overridable: false });
    expect(evaluationVerdict('soft_failed')).to.deep.equal({ event: 'fail', overridable: true });
    expect(evaluationVerdict('hard_failed')).to.deep.equal({ event: 'fail', overridable: false });
    expect(evaluationVerdict('errored')).to.deep.equal({ event: 'error', overridable: false });
  });

  it('decide the stage with its task results', () => {
    const passed = { status: 'passed' as const, enforcement_level: 'mandatory' };
    expect(stageOutcome([passed], [{ status: 'queued', is_overridable: false }])).to.equal('running');
    expect(stageOutcome([passed], [{ status: 'failed', is_overridable: true }])).to.equal('awaiting_override');
    expect(stageOutcome([passed], [{ status: 'failed', is_overridable: false }])).to.equal('failed');
    expect(stageOutcome([passed], [{ status: 'errored', is_overridable: false }])).to.equal('failed');
    expect(
      stageOutcome(
        [{ status: 'failed', enforcement_level: 'mandatory' }],
        [{ status: 'failed', is_overridable: true }],
      ),
      'a failed mandatory task is never overridable',
    ).to.equal('failed');
    expect(
      stageOutcome(
        [],
        [
          { status: 'overridden', is_overridable: false },
          { status: 'passed', is_overridable: false },
        ],
      ),
    ).to.equal('passed');
    expect(
      stageOutcome(
        [{ status: 'running', enforcement_level: 'advisory' }],
        [{ status: 'passed', is_overridable: false }],
      ),
    ).to.equal('running');
  });

  it('let a stage be overridden only while it and its run wait for the decision', () => {
    expect(stageOverridableNow('awaiting_override', 'post_plan_awaiting_decision')).to.equal(true);
    expect(stageOverridableNow('awaiting_override', 'discarded')).to.equal(false);
    expect(stageOverridableNow('failed', 'post_plan_awaiting_decision')).to.equal(false);
  });
});
