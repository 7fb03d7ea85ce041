import { expect } from 'chai';
import {
  noCodeConfiguration,
  provisionedVersion,
  provisioningProblem,
} from '../../../../shared/registry/no-code.rules.js';
import { inspectModule, parseHcl } from '../../../../shared/registry/module-config.rules.js';

const module = inspectModule('', {
  'main.tf': [
    'variable "region" {\n  type = string\n}',
    'variable "tags" {\n  type    = map(string)\n  default = { team = "infra" }\n}',
    'variable "token" {\n  type      = string\n  default   = ""\n  sensitive = true\n}',
    'output "id" { value = "x" }',
    'output "secret" {\n  value     = var.token\n  sensitive = true\n}',
  ].join('\n'),
});

describe('no-code modules', () => {
  it('provisions at the pinned version when it is published, else at the latest release; none when nothing fits', () => {
    const published = ['1.0.0', '1.2.0', '2.0.0-beta.1'];
    expect(provisionedVersion('1.0.0', published)).to.equal('1.0.0');
    expect(provisionedVersion('1.1.0', published)).to.equal(null);
    expect(provisionedVersion(null, published)).to.equal('1.2.0');
    expect(provisionedVersion('latest', published)).to.equal('1.2.0');
    expect(provisionedVersion(null, [])).to.equal(null);
  });

  it("needs a Terraform variable for each required input, and a value among a variable's options", () => {
    const options = [{ variable_name: 'region', variable_type: 'string', options: ['eu', 'us'] }];
    expect(provisioningProblem(module.inputs, options, [])).to.match(/requires a value for the variable region/);
    expect(provisioningProblem(module.inputs, options, [{ key: 'region', value: 'eu', category: 'env' }])).to.match(
      /region/,
    );
    expect(
      provisioningProblem(module.inputs, options, [{ key: 'region', value: 'ap', category: 'terraform' }]),
    ).to.equal('region must be one of "eu", "us"');
    expect(
      provisioningProblem(module.inputs, options, [{ key: 'region', value: 'eu', category: 'terraform' }]),
    ).to.equal(null);
  });

  it('writes a root that declares the inputs as the module does, calls it at the version with each, and passes every output on', () => {
    const text = noCodeConfiguration({ source: 'tfe.example.com/acme/net/aws', name: 'net', version: '1.2.0' }, module);
    const blocks = parseHcl(text).blocks;
    const variables = Object.fromEntries(
      blocks.filter((b) => b.type === 'variable').map((b) => [b.labels[0], b.attributes]),
    );
    expect(variables).to.deep.equal({
      region: { type: 'string' },
      tags: { type: 'map(string)', default: '{ team = "infra" }' },
      token: { type: 'string', default: '""', sensitive: 'true' },
    });
    const call = blocks.find((b) => b.type === 'module')!;
    expect(call.labels).to.deep.equal(['net']);
    expect(call.attributes).to.deep.equal({
      source: '"tfe.example.com/acme/net/aws"',
      version: '"1.2.0"',
      region: 'var.region',
      tags: 'var.tags',
      token: 'var.token',
    });
    const outputs = blocks.filter((b) => b.type === 'output').map((b) => [b.labels[0], b.attributes]);
    expect(outputs).to.deep.equal([
      ['id', { value: 'module.net.id' }],
      ['secret', { value: 'module.net.secret', sensitive: 'true' }],
    ]);
    expect(
      noCodeConfiguration({ source: 's', name: '9lives', version: '1.0.0' }, { inputs: [], outputs: [] }),
    ).to.include('module "this"');
  });
});
