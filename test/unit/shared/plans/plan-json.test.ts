import { expect } from 'chai';
import { redactPlanJson, schemasOfChanges, structuredPlan } from '../../../../shared/plans/json.js';

/** A JSON plan in the shape `terraform show -json` writes, sensitive values marked by their masks. */
const plan = () => ({
  format_version: '1.2',
  variables: { password: { value: 'hunter2' }, region: { value: 'eu' } },
  configuration: {
    root_module: {
      variables: { password: { sensitive: true, default: 'hunter2' }, region: { default: 'eu' } },
      outputs: {
        token: { sensitive: true, expression: { constant_value: 't0k3n' } },
        name: { expression: { constant_value: 'web' } },
      },
      module_calls: {
        m: { module: { outputs: { inner: { sensitive: true, expression: { constant_value: 'inn3r' } } } } },
      },
    },
  },
  planned_values: {
    outputs: { token: { sensitive: true, type: 'string', value: 't0k3n' }, name: { sensitive: false, value: 'web' } },
    root_module: {
      resources: [
        {
          address: 'x.a',
          values: { user: 'admin', pass: 'p4ss', tags: ['open', 'k3y'] },
          sensitive_values: { pass: true, tags: [false, true] },
        },
      ],
      child_modules: [
        {
          address: 'module.m',
          resources: [
            {
              address: 'module.m.y.b',
              values: { nested: { secret: 's3' } },
              sensitive_values: { nested: { secret: true } },
            },
          ],
        },
      ],
    },
  },
  prior_state: {
    values: {
      outputs: { token: { sensitive: true, value: 'old-t0k3n' } },
      root_module: { resources: [{ values: { pass: 'old-p4ss' }, sensitive_values: { pass: true } }] },
    },
  },
  resource_changes: [
    {
      address: 'x.a',
      change: {
        actions: ['update'],
        before: { pass: 'old-p4ss', user: 'admin' },
        after: { pass: 'p4ss', user: 'admin' },
        before_sensitive: { pass: true },
        after_sensitive: { pass: true },
      },
    },
    {
      address: 'x.c',
      change: { actions: ['create'], before: null, after: 'whole', before_sensitive: false, after_sensitive: true },
    },
  ],
  resource_drift: [
    {
      address: 'x.a',
      change: {
        before: { pass: 'dr1ft' },
        after: { pass: 'dr1ft2' },
        before_sensitive: { pass: true },
        after_sensitive: { pass: true },
      },
    },
  ],
  output_changes: {
    token: { actions: ['update'], before: 'old-t0k3n', after: 't0k3n', before_sensitive: true, after_sensitive: true },
    name: { before: null, after: 'web', after_sensitive: false },
  },
});

const [S, CHANGED] = ['(sensitive value)', '(sensitive value, changed)'];

describe('redactPlanJson', () => {
  it('removes every value a mask or a sensitive flag marks (null in values, a stand-in of its kind in changes), keeping the masks and everything else', () => {
    const source = plan();
    const out = redactPlanJson(source) as ReturnType<typeof plan>;
    expect(out.variables).to.deep.equal({ password: { value: null }, region: { value: 'eu' } });
    expect(out.planned_values.outputs).to.deep.equal({
      token: { sensitive: true, type: 'string', value: null },
      name: { sensitive: false, value: 'web' },
    });
    expect(out.planned_values.root_module.resources[0].values).to.deep.equal({
      user: 'admin',
      pass: null,
      tags: ['open', null],
    });
    expect(out.planned_values.root_module.resources[0].sensitive_values).to.deep.equal({
      pass: true,
      tags: [false, true],
    });
    expect(out.planned_values.root_module.child_modules[0].resources[0].values).to.deep.equal({
      nested: { secret: null },
    });
    expect(out.prior_state.values.outputs.token.value).to.equal(null);
    expect(out.prior_state.values.root_module.resources[0].values).to.deep.equal({ pass: null });
    // Changed sensitive values get two different stand-ins, so a renderer still sees a change.
    expect(out.resource_changes[0].change).to.deep.include({
      before: { pass: S, user: 'admin' },
      after: { pass: CHANGED, user: 'admin' },
    });
    expect(out.resource_changes[1].change).to.deep.include({ before: null, after: S, after_sensitive: true });
    expect(out.resource_drift[0].change).to.deep.include({ before: { pass: S }, after: { pass: CHANGED } });
    expect(out.output_changes.token).to.deep.include({ before: S, after: CHANGED });
    expect(out.output_changes.name.after).to.equal('web');
    expect(out.configuration.root_module.variables).to.deep.equal({
      password: { sensitive: true, default: null },
      region: { default: 'eu' },
    });
    expect(out.configuration.root_module.outputs.token.expression.constant_value).to.equal(null);
    expect(out.configuration.root_module.outputs.name.expression.constant_value).to.equal('web');
    expect(out.configuration.root_module.module_calls.m.module.outputs.inner.expression.constant_value).to.equal(null);
    const text = JSON.stringify(out);
    for (const secret of ['hunter2', 't0k3n', 'p4ss', 'k3y', 's3', 'dr1ft', 'whole', 'inn3r'])
      expect(text).to.not.include(secret);
    // The source document is left as it was.
    expect(source).to.deep.equal(plan());
  });

  it('keeps in changes whether a sensitive value is set, removed, unchanged or changed, with stand-ins of its kind', () => {
    const change = (before: unknown, after: unknown, beforeSensitive: unknown, afterSensitive: unknown) => {
      const out = redactPlanJson({
        resource_changes: [
          { change: { before, after, before_sensitive: beforeSensitive, after_sensitive: afterSensitive } },
        ],
      }) as {
        resource_changes: { change: { before: unknown; after: unknown } }[];
      };
      const { before: b, after: a } = out.resource_changes[0].change;
      return { before: b, after: a };
    };
    // Unchanged: equal stand-ins; changed: different ones of the same kind.
    expect(
      change(
        { n: 5, b: true, l: ['x'], m: { k: 'v' } },
        { n: 5, b: true, l: ['x'], m: { k: 'v' } },
        { n: true, b: true, l: true, m: true },
        { n: true, b: true, l: true, m: true },
      ),
    ).to.deep.equal({
      before: { n: 0, b: false, l: [S], m: {} },
      after: { n: 0, b: false, l: [S], m: {} },
    });
    expect(
      change(
        { n: 5, b: true, l: ['x'] },
        { n: 6, b: false, l: ['y', 'z'] },
        { n: true, b: true, l: true },
        { n: true, b: true, l: true },
      ),
    ).to.deep.equal({
      before: { n: 0, b: false, l: [S] },
      after: { n: 1, b: true, l: [S, S] },
    });
    // Set and removed; a value that becomes sensitive; elements of a list marked one by one.
    expect(change(null, { s: 'new', e: [] }, false, { s: true, e: true })).to.deep.equal({
      before: null,
      after: { s: S, e: [] },
    });
    expect(change({ s: 'old' }, { s: null }, { s: true }, { s: true })).to.deep.equal({
      before: { s: S },
      after: { s: null },
    });
    expect(change({ s: 'same' }, { s: 'same' }, {}, { s: true })).to.deep.equal({
      before: { s: 'same' },
      after: { s: S },
    });
    expect(change({ l: ['a', 'b'] }, { l: ['a', 'c'] }, { l: [false, true] }, { l: [false, true] })).to.deep.equal({
      before: { l: ['a', S] },
      after: { l: ['a', CHANGED] },
    });
  });

  it('passes through what is not a plan, and a plan without the optional parts', () => {
    expect(redactPlanJson(null)).to.equal(null);
    expect(redactPlanJson([1])).to.deep.equal([1]);
    expect(redactPlanJson({ format_version: '1.2' })).to.deep.equal({ format_version: '1.2' });
  });
});

describe('structured plans (json-output-redacted)', () => {
  const schemas = {
    format_version: '1.0',
    provider_schemas: {
      'registry.terraform.io/hashicorp/aws': {
        provider: { version: 0, block: {} },
        resource_schemas: {
          aws_s3_bucket: { version: 0, block: { attributes: { bucket: { type: 'string' } } } },
          aws_instance: { version: 1, block: {} },
        },
        data_source_schemas: { aws_ami: { version: 0, block: {} }, aws_region: { version: 0, block: {} } },
      },
      'terraform.io/builtin/terraform': { resource_schemas: { terraform_data: { version: 0, block: {} } } },
    },
  };
  const changes = {
    format_version: '1.2',
    resource_changes: [
      {
        address: 'aws_s3_bucket.b',
        mode: 'managed',
        type: 'aws_s3_bucket',
        provider_name: 'registry.terraform.io/hashicorp/aws',
        change: { actions: ['create'], before: null, after: { bucket: 'b' } },
      },
      {
        address: 'data.aws_ami.a',
        mode: 'data',
        type: 'aws_ami',
        provider_name: 'registry.terraform.io/hashicorp/aws',
        change: { actions: ['read'], before: null, after: {} },
      },
    ],
    resource_drift: [
      {
        address: 'terraform_data.d',
        mode: 'managed',
        type: 'terraform_data',
        provider_name: 'terraform.io/builtin/terraform',
        change: { actions: ['update'] },
      },
    ],
  };

  it('keeps the schemas of the types a plan changes or reads, and no others', () => {
    expect(schemasOfChanges(changes, schemas)).to.deep.equal({
      format_version: '1.0',
      provider_schemas: {
        'registry.terraform.io/hashicorp/aws': {
          resource_schemas: {
            aws_s3_bucket:
              schemas.provider_schemas['registry.terraform.io/hashicorp/aws'].resource_schemas.aws_s3_bucket,
          },
          data_source_schemas: { aws_ami: { version: 0, block: {} } },
        },
        'terraform.io/builtin/terraform': { resource_schemas: { terraform_data: { version: 0, block: {} } } },
      },
    });
    expect(
      schemasOfChanges({ resource_changes: [{ mode: 'managed', type: 'nope', provider_name: 'nowhere' }] }, schemas),
    ).to.deep.equal({ format_version: '1.0', provider_schemas: {} });
  });

  it('is the redacted plan with the format versions the CLI reads, and the schemas the plan recorded, else empty ones', () => {
    const used = schemasOfChanges(changes, schemas);
    const doc = structuredPlan(changes, used) as Record<string, unknown>;
    expect(doc).to.deep.include({
      plan_format_version: '1.2',
      provider_format_version: '1.0',
      provider_schemas: used.provider_schemas,
      format_version: '1.2',
    });
    expect(doc.resource_changes).to.deep.equal(changes.resource_changes);
    const empty = { version: 0, block: {} };
    expect(structuredPlan(changes, null)).to.deep.include({
      plan_format_version: '1.2',
      provider_format_version: '1.0',
      provider_schemas: {
        'registry.terraform.io/hashicorp/aws': {
          resource_schemas: { aws_s3_bucket: empty },
          data_source_schemas: { aws_ami: empty },
        },
        'terraform.io/builtin/terraform': { resource_schemas: { terraform_data: empty } },
      },
    });
  });
});
