import { expect } from 'chai';
import { renderOutput, summarizeCheck } from '../../../../shared/policies/summary.js';
import type { EnforcementLevel, PolicyOutcome } from '../../../../shared/policies/types.js';

let n = 0;
const outcome = (
  enforcementLevel: EnforcementLevel,
  status: PolicyOutcome['status'],
  more: Partial<PolicyOutcome> = {},
): PolicyOutcome => ({
  policyId: `pol-${++n}`,
  name: `policy-${n}`,
  kind: enforcementLevel === 'mandatory' ? 'opa' : 'sentinel',
  policySetName: 'baseline',
  enforcementLevel,
  status,
  messages: [],
  ...(status === 'errored' ? { error: 'boom' } : {}),
  durationMs: 10,
  ...more,
});

const verdict = (outcomes: PolicyOutcome[], opts = {}) => {
  const s = summarizeCheck(outcomes, opts);
  return { status: s.status, isOverridable: s.isOverridable, result: s.result.result };
};

describe('policy check summary', () => {
  it('passes when every policy passes, counting them', () => {
    const s = summarizeCheck([outcome('hard-mandatory', 'passed'), outcome('mandatory', 'passed')]);
    expect(s.status).to.equal('passed');
    expect(s.isOverridable).to.equal(false);
    const { sentinel: _details, ...counts } = s.result;
    expect(counts).to.deep.equal({
      result: true,
      passed: 2,
      'total-failed': 0,
      'hard-failed': 0,
      'soft-failed': 0,
      'advisory-failed': 0,
      duration: 20,
      'duration-ms': 20,
    });
  });

  it('only warns for advisory failures', () => {
    const s = summarizeCheck([
      outcome('advisory', 'failed'),
      outcome('advisory', 'failed'),
      outcome('soft-mandatory', 'passed'),
    ]);
    expect(verdict([outcome('advisory', 'failed'), outcome('advisory', 'failed')])).to.deep.equal({
      status: 'passed',
      isOverridable: false,
      result: true,
    });
    expect(s.result).to.include({ passed: 1, 'total-failed': 2, 'advisory-failed': 2, 'soft-failed': 0 });
  });

  it('never passes a policy that could not be evaluated, even an advisory one', () => {
    expect(verdict([outcome('advisory', 'errored'), outcome('soft-mandatory', 'passed')])).to.deep.equal({
      status: 'errored',
      isOverridable: false,
      result: false,
    });
    const outcomes = [outcome('advisory', 'errored', { kind: 'opa', error: 'opa is not installed' })];
    expect(renderOutput(outcomes, summarizeCheck(outcomes)))
      .to.match(/^OPA Result: false\n\n.*could not be evaluated/)
      .and.include('Error: opa is not installed');
  });

  it('soft fails, overridable, on a failed soft-mandatory or OPA mandatory policy', () => {
    expect(verdict([outcome('soft-mandatory', 'failed'), outcome('advisory', 'failed')])).to.deep.equal({
      status: 'soft_failed',
      isOverridable: true,
      result: false,
    });
    expect(verdict([outcome('mandatory', 'failed')])).to.deep.equal({
      status: 'soft_failed',
      isOverridable: true,
      result: false,
    });
    expect(summarizeCheck([outcome('mandatory', 'failed')]).result).to.include({
      'soft-failed': 1,
      'hard-failed': 0,
      'total-failed': 1,
    });
  });

  it('hard fails an OPA mandatory failure whose policy set is not overridable', () => {
    expect(verdict([outcome('mandatory', 'failed')], { overridableSet: false })).to.deep.equal({
      status: 'hard_failed',
      isOverridable: false,
      result: false,
    });
    const perSet = (set: string) => set === 'relaxed';
    expect(
      verdict([outcome('mandatory', 'failed', { policySetName: 'relaxed' })], { overridableSet: perSet }).status,
    ).to.equal('soft_failed');
    expect(
      verdict([outcome('mandatory', 'failed', { policySetName: 'strict' })], { overridableSet: perSet }).status,
    ).to.equal('hard_failed');
  });

  it('hard fails, not overridable, on a failed hard-mandatory policy whatever else failed or errored', () => {
    const s = summarizeCheck([
      outcome('hard-mandatory', 'failed'),
      outcome('soft-mandatory', 'failed'),
      outcome('soft-mandatory', 'errored'),
    ]);
    expect(s.status).to.equal('hard_failed');
    expect(s.isOverridable).to.equal(false);
    expect(s.result).to.include({ 'hard-failed': 1, 'soft-failed': 2, 'total-failed': 3, passed: 0 });
  });

  it('errors when an enforced policy errored, whatever its level; an errored check is never overridable', () => {
    expect(verdict([outcome('hard-mandatory', 'errored'), outcome('soft-mandatory', 'failed')])).to.deep.equal({
      status: 'errored',
      isOverridable: false,
      result: false,
    });
    expect(verdict([outcome('soft-mandatory', 'errored')])).to.deep.equal({
      status: 'errored',
      isOverridable: false,
      result: false,
    });
    expect(verdict([outcome('mandatory', 'errored')])).to.deep.equal({
      status: 'errored',
      isOverridable: false,
      result: false,
    });
    expect(verdict([outcome('soft-mandatory', 'errored'), outcome('soft-mandatory', 'failed')])).to.deep.equal({
      status: 'errored',
      isOverridable: false,
      result: false,
    });
    expect(summarizeCheck([outcome('hard-mandatory', 'errored')]).result).to.include({
      'hard-failed': 1,
      'total-failed': 1,
    });
  });

  it('lists every policy in the engine details', () => {
    const o = outcome('soft-mandatory', 'failed', {
      name: 'require-tags',
      policySetName: 'tags',
      messages: ['x has no tags'],
      durationMs: 7,
    });
    expect(summarizeCheck([o]).result.sentinel).to.deep.equal({
      'schema-version': '1.0.0',
      policies: [
        {
          policy: 'tags/require-tags',
          name: 'require-tags',
          'policy-set': 'tags',
          kind: 'sentinel',
          'enforcement-level': 'soft-mandatory',
          status: 'failed',
          result: false,
          'allowed-failure': false,
          messages: ['x has no tags'],
          error: null,
          'duration-ms': 7,
        },
      ],
    });
  });

  it('renders the output terraform prints, one block per runtime and policy', () => {
    const outcomes = [
      outcome('soft-mandatory', 'failed', {
        name: 'require-tags',
        policySetName: 'tags',
        messages: ['terraform_data.untagged has no tags'],
      }),
      outcome('advisory', 'errored', {
        name: 'cost',
        policySetName: 'tags',
        error: 'the policy failed with a runtime error: policy.sentinel:3:1: undefined',
      }),
      outcome('mandatory', 'passed', { name: 'public-buckets', policySetName: 'opa-baseline' }),
    ];
    expect(renderOutput(outcomes, summarizeCheck(outcomes))).to.equal(
      [
        'Sentinel Result: false',
        '',
        'Sentinel evaluated to false because one or more policies could not be evaluated; their errors are shown below.',
        '',
        '2 policies evaluated.',
        '',
        '## Policy 1: tags/require-tags (soft-mandatory)',
        '',
        'Result: false',
        '',
        'Print messages:',
        '',
        'terraform_data.untagged has no tags',
        '',
        '## Policy 2: tags/cost (advisory)',
        '',
        'Result: false',
        '',
        'Error: the policy failed with a runtime error: policy.sentinel:3:1: undefined',
        '',
        'OPA Result: true',
        '',
        'This result means that all OPA policies passed and the protected behavior is allowed.',
        '',
        '1 policies evaluated.',
        '',
        '## Policy 1: opa-baseline/public-buckets (mandatory)',
        '',
        'Result: true',
        '',
        'The check errored: a policy that could not be evaluated cannot be overridden, so the run cannot continue. Fix the policy (or install its runtime) and start a new run.',
        '',
      ].join('\n'),
    );
    expect(renderOutput([], summarizeCheck([]))).to.equal('No policies were evaluated.\n');
  });

  it('says why a runtime failed when a policy could not be evaluated, and that advisory failures only warn', () => {
    const errored = [outcome('mandatory', 'errored', { error: 'no OPA runtime is configured' })];
    const text = renderOutput(errored, summarizeCheck(errored));
    expect(text).to.include('OPA evaluated to false because one or more policies could not be evaluated');
    expect(text).to.include('Error: no OPA runtime is configured');
    expect(text).to.include('cannot be overridden, so the run cannot continue');
    expect(text).not.to.include('can be overridden');
    const advisory = [outcome('advisory', 'failed', { kind: 'opa', messages: ['bucket is public'] })];
    const warn = renderOutput(advisory, summarizeCheck(advisory));
    expect(warn).to.match(/^OPA Result: true\n\n.*advisory policies that failed only warn/);
    expect(warn).to.include('Messages:\n\nbucket is public\n');
  });
});
