import { expect } from 'chai';
import { assessmentFindings, assessmentTriggers } from '../../../../shared/assessments/rules.js';

describe('assessment findings', () => {
  const prior = {
    values: {
      root_module: {
        resources: [{ mode: 'managed' }, { mode: 'managed' }, { mode: 'data' }],
        child_modules: [{ resources: [{ mode: 'managed' }] }],
      },
    },
  };

  it('counts drift from refresh and from configuration that no longer matches the state, once per resource', () => {
    const f = assessmentFindings({
      prior_state: prior,
      resource_drift: [{ address: 'a.x', mode: 'managed' }],
      resource_changes: [
        { address: 'a.x', mode: 'managed', change: { actions: ['update'] } },
        { address: 'b.y', mode: 'managed', change: { actions: ['no-op'] } },
        { address: 'c.z', mode: 'managed', change: { actions: ['delete', 'create'] } },
        { address: 'data.d', mode: 'data', change: { actions: ['read'] } },
      ],
      checks: [{ status: 'pass' }, { status: 'fail' }, { status: 'unknown' }, { status: 'error' }],
    });
    expect(f).to.deep.equal({
      drifted: true,
      resources_drifted: 2,
      resources_undrifted: 1,
      checks_passed: 1,
      checks_failed: 1,
      checks_errored: 1,
      checks_unknown: 1,
    });
  });

  it('fires failed alone for a failed assessment, else drifted and check_failure as found', () => {
    const clean = assessmentFindings({ prior_state: prior });
    expect(assessmentTriggers({ succeeded: false, ...clean })).to.deep.equal(['assessment:failed']);
    expect(assessmentTriggers({ succeeded: true, ...clean })).to.deep.equal([]);
    expect(assessmentTriggers({ succeeded: true, ...clean, drifted: true, checks_errored: 1 })).to.deep.equal([
      'assessment:drifted',
      'assessment:check_failure',
    ]);
  });
});
