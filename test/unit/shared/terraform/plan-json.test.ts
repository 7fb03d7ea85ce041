import { expect } from 'chai';
import { redactPlanJson } from '../../../../shared/terraform/plan-json.js';

/** A JSON plan in the shape `terraform show -json` writes, sensitive values marked by their masks. */
const plan = () => ({
  format_version: '1.2',
  variables: { password: { value: 'hunter2' }, region: { value: 'eu' } },
  configuration: {
    root_module: {
      variables: { password: { sensitive: true, default: 'hunter2' }, region: { default: 'eu' } },
      outputs: { token: { sensitive: true, expression: { constant_value: 't0k3n' } }, name: { expression: { constant_value: 'web' } } },
      module_calls: { m: { module: { outputs: { inner: { sensitive: true, expression: { constant_value: 'inn3r' } } } } } },
    },
  },
  planned_values: {
    outputs: { token: { sensitive: true, type: 'string', value: 't0k3n' }, name: { sensitive: false, value: 'web' } },
    root_module: {
      resources: [{ address: 'x.a', values: { user: 'admin', pass: 'p4ss', tags: ['open', 'k3y'] }, sensitive_values: { pass: true, tags: [false, true] } }],
      child_modules: [{ address: 'module.m', resources: [{ address: 'module.m.y.b', values: { nested: { secret: 's3' } }, sensitive_values: { nested: { secret: true } } }] }],
    },
  },
  prior_state: { values: { outputs: { token: { sensitive: true, value: 'old-t0k3n' } }, root_module: { resources: [{ values: { pass: 'old-p4ss' }, sensitive_values: { pass: true } }] } } },
  resource_changes: [
    { address: 'x.a', change: { actions: ['update'], before: { pass: 'old-p4ss', user: 'admin' }, after: { pass: 'p4ss', user: 'admin' }, before_sensitive: { pass: true }, after_sensitive: { pass: true } } },
    { address: 'x.c', change: { actions: ['create'], before: null, after: 'whole', before_sensitive: false, after_sensitive: true } },
  ],
  resource_drift: [{ address: 'x.a', change: { before: { pass: 'dr1ft' }, after: { pass: 'dr1ft2' }, before_sensitive: { pass: true }, after_sensitive: { pass: true } } }],
  output_changes: { token: { actions: ['update'], before: 'old-t0k3n', after: 't0k3n', before_sensitive: true, after_sensitive: true }, name: { before: null, after: 'web', after_sensitive: false } },
});

describe('redactPlanJson', () => {
  it('sets every value a mask or a sensitive flag marks to null, keeping the masks and everything else', () => {
    const source = plan();
    const out = redactPlanJson(source) as ReturnType<typeof plan>;
    expect(out.variables).to.deep.equal({ password: { value: null }, region: { value: 'eu' } });
    expect(out.planned_values.outputs).to.deep.equal({ token: { sensitive: true, type: 'string', value: null }, name: { sensitive: false, value: 'web' } });
    expect(out.planned_values.root_module.resources[0].values).to.deep.equal({ user: 'admin', pass: null, tags: ['open', null] });
    expect(out.planned_values.root_module.resources[0].sensitive_values).to.deep.equal({ pass: true, tags: [false, true] });
    expect(out.planned_values.root_module.child_modules[0].resources[0].values).to.deep.equal({ nested: { secret: null } });
    expect(out.prior_state.values.outputs.token.value).to.equal(null);
    expect(out.prior_state.values.root_module.resources[0].values).to.deep.equal({ pass: null });
    expect(out.resource_changes[0].change).to.deep.include({ before: { pass: null, user: 'admin' }, after: { pass: null, user: 'admin' } });
    expect(out.resource_changes[1].change).to.deep.include({ before: null, after: null, after_sensitive: true });
    expect(out.resource_drift[0].change).to.deep.include({ before: { pass: null }, after: { pass: null } });
    expect(out.output_changes.token).to.deep.include({ before: null, after: null });
    expect(out.output_changes.name.after).to.equal('web');
    expect(out.configuration.root_module.variables).to.deep.equal({ password: { sensitive: true, default: null }, region: { default: 'eu' } });
    expect(out.configuration.root_module.outputs.token.expression.constant_value).to.equal(null);
    expect(out.configuration.root_module.outputs.name.expression.constant_value).to.equal('web');
    expect(out.configuration.root_module.module_calls.m.module.outputs.inner.expression.constant_value).to.equal(null);
    const text = JSON.stringify(out);
    for (const secret of ['hunter2', 't0k3n', 'p4ss', 'k3y', 's3', 'dr1ft', 'whole', 'inn3r']) expect(text).to.not.include(secret);
    // The source document is left as it was.
    expect(source).to.deep.equal(plan());
  });

  it('passes through what is not a plan, and a plan without the optional parts', () => {
    expect(redactPlanJson(null)).to.equal(null);
    expect(redactPlanJson([1])).to.deep.equal([1]);
    expect(redactPlanJson({ format_version: '1.2' })).to.deep.equal({ format_version: '1.2' });
  });
});
