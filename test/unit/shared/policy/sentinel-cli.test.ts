import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { parseSentinelApply, SentinelCliEngine, sentinelPrints } from '../../../../shared/policies/sentinel-cli.js';
import { SENTINEL_CONFIG, sentinelModule, tfplanV2Data } from '../../../../shared/policies/sentinel-mocks.js';
import {
  binaryRuns,
  POLICY_RUN_DOCUMENT,
  policyToEvaluate,
  realPlanForSuite,
  standInPerTest,
} from '../../../helpers/policy-cli.js';

const TRACE_BANNER = `Execution trace. The information below will show the values of all
the rules evaluated. Note that some rules may be missing if
short-circuit logic was taken.

Note that for collection types and long strings, output may be
truncated; re-run "sentinel apply" with the -json flag to see the
full contents of these values.
`;

// `sentinel apply -trace` output, as the CLI prints it for a passing and a failing policy.
const PASS_OUTPUT = `${TRACE_BANNER}
Pass - policy.sentinel

Description:
  Every terraform_data resource carries tags.

Print messages:

checked 3 resources

policy.sentinel:12:1 - Rule "main"
  Value:
    true
`;
const FAIL_OUTPUT = `${TRACE_BANNER}
The trace is displayed due to a failed policy.

Fail - policy.sentinel

Print messages:

terraform_data.untagged has no tags
  (owner is required)

policy.sentinel:12:1 - Rule "main"
  Value:
    false
`;

/** Reads a generated mock module back: each line `name = <json>`. */
const readModule = (text: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const at = line.indexOf(' = ');
        return [line.slice(0, at), JSON.parse(line.slice(at + 3))];
      }),
  );

describe('sentinel apply output', () => {
  it('maps exit codes: 0 passed, 1 failed, 2 undefined and 3 runtime error errored', () => {
    expect(parseSentinelApply(0, PASS_OUTPUT)).to.deep.equal({ status: 'passed', messages: ['checked 3 resources'] });
    expect(parseSentinelApply(1, FAIL_OUTPUT)).to.deep.equal({
      status: 'failed',
      messages: ['terraform_data.untagged has no tags', '(owner is required)'],
    });
    expect(
      parseSentinelApply(
        2,
        `${TRACE_BANNER}\nFail - policy.sentinel\n\npolicy.sentinel:3:1 - Rule "main"\n  Value:\n    undefined\n`,
      ),
    ).to.deep.equal({
      status: 'errored',
      messages: [],
      error: 'the policy result was undefined (sentinel apply exit code 2); make sure main evaluates to true or false',
    });
    const runtime = parseSentinelApply(3, 'Error: policy.sentinel:4:9: import "tfconfig/v2" is not available\n');
    expect(runtime).to.deep.equal({
      status: 'errored',
      messages: [],
      error:
        'the policy failed with a runtime error: Error: policy.sentinel:4:9: import "tfconfig/v2" is not available',
    });
    expect(parseSentinelApply(9, 'Error loading configuration: sentinel.hcl:1,1-5: bad block\n').error).to.equal(
      'sentinel apply exited with code 9: Error loading configuration: sentinel.hcl:1,1-5: bad block',
    );
  });

  it('reads print messages with colour codes and without any', () => {
    expect(
      sentinelPrints(
        '\x1b[32mPass - policy.sentinel\x1b[0m\n\nPrint messages:\n\n\x1b[1mhello\x1b[0m\n\nPass - other.sentinel\n\nnot a print\n',
      ),
    ).to.deep.equal(['hello']);
    expect(sentinelPrints('Pass - policy.sentinel\n')).to.deep.equal([]);
  });
});

describe('Sentinel mocks', () => {
  it('builds tfplan/v2 collections keyed by address and name, with module addresses and deposed keys', () => {
    const plan = {
      format_version: '1.2',
      terraform_version: '1.11.4',
      variables: { region: { value: 'eu-west-1' } },
      planned_values: {
        outputs: { url: { sensitive: true, value: 'https://x' } },
        root_module: {
          resources: [
            {
              address: 'terraform_data.a',
              mode: 'managed',
              type: 'terraform_data',
              name: 'a',
              provider_name: 'terraform.io/builtin/terraform',
              values: { input: 1 },
            },
          ],
          child_modules: [
            {
              address: 'module.m',
              resources: [
                {
                  address: 'module.m.terraform_data.b[0]',
                  mode: 'managed',
                  type: 'terraform_data',
                  name: 'b',
                  index: 0,
                  provider_name: 'terraform.io/builtin/terraform',
                  values: {},
                  depends_on: ['terraform_data.a'],
                },
              ],
            },
          ],
        },
      },
      resource_changes: [
        {
          address: 'terraform_data.a',
          mode: 'managed',
          type: 'terraform_data',
          name: 'a',
          provider_name: 'p',
          change: { actions: ['create'], before: null, after: { input: 1 }, after_unknown: { id: true } },
        },
        {
          address: 'module.m.terraform_data.b[0]',
          module_address: 'module.m',
          mode: 'managed',
          type: 'terraform_data',
          name: 'b',
          index: 0,
          provider_name: 'p',
          deposed: '00000001',
          change: { actions: ['delete'], before: {}, after: null, after_unknown: {} },
        },
      ],
      output_changes: { url: { actions: ['create'], before: null, after: 'https://x', after_unknown: false } },
    };
    const data = tfplanV2Data(plan);
    expect(data.terraform_version).to.equal('1.11.4');
    expect(data.variables).to.deep.equal({ region: { name: 'region', value: 'eu-west-1' } });
    expect(data.planned_values).to.deep.equal({
      outputs: { url: { name: 'url', sensitive: true, value: 'https://x' } },
      resources: {
        'terraform_data.a': {
          address: 'terraform_data.a',
          module_address: '',
          mode: 'managed',
          type: 'terraform_data',
          name: 'a',
          index: null,
          provider_name: 'terraform.io/builtin/terraform',
          values: { input: 1 },
          depends_on: [],
          tainted: false,
          deposed_key: '',
        },
        'module.m.terraform_data.b[0]': {
          address: 'module.m.terraform_data.b[0]',
          module_address: 'module.m',
          mode: 'managed',
          type: 'terraform_data',
          name: 'b',
          index: 0,
          provider_name: 'terraform.io/builtin/terraform',
          values: {},
          depends_on: ['terraform_data.a'],
          tainted: false,
          deposed_key: '',
        },
      },
    });
    expect(data.resource_changes).to.deep.equal({
      'terraform_data.a': {
        address: 'terraform_data.a',
        module_address: '',
        mode: 'managed',
        type: 'terraform_data',
        name: 'a',
        index: null,
        provider_name: 'p',
        deposed: '',
        change: plan.resource_changes[0].change,
      },
      'module.m.terraform_data.b[0]:00000001': {
        address: 'module.m.terraform_data.b[0]',
        module_address: 'module.m',
        mode: 'managed',
        type: 'terraform_data',
        name: 'b',
        index: 0,
        provider_name: 'p',
        deposed: '00000001',
        change: plan.resource_changes[1].change,
      },
    });
    expect(data.output_changes).to.deep.equal({ url: { name: 'url', change: plan.output_changes.url } });
    expect(data.raw).to.deep.equal(plan);
  });

  it('writes each collection as one Sentinel assignment per line', () => {
    expect(
      sentinelModule({ terraform_version: '1.11.4', variables: { a: { name: 'a', value: 'x"y\nz' } }, raw: null }),
    ).to.equal('terraform_version = "1.11.4"\n\nvariables = {"a":{"name":"a","value":"x\\"y\\nz"}}\n\nraw = null\n');
    expect(() => sentinelModule({ 'not-an-identifier': 1 })).to.throw(/cannot be a Sentinel identifier/);
  });
});

describe('Sentinel CLI engine', function () {
  this.timeout(60_000);
  const real = realPlanForSuite();

  describe('with a stand-in sentinel binary', () => {
    const stand = standInPerTest('Sentinel v0.26.3\n');

    it('writes the policy, the tfplan/v2 and tfrun mocks and their configuration, runs sentinel apply, then removes them', async () => {
      await stand.cli.answer({ stdout: FAIL_OUTPUT, code: 1 });
      const engine = new SentinelCliEngine({ bin: stand.cli.bin, timeoutSeconds: 30 });
      const code = 'import "tfplan/v2" as tfplan\n\nmain = rule { false }\n';
      const outcomes = await engine.evaluate(
        [policyToEvaluate({ kind: 'sentinel', name: 'require-tags', code, enforcementLevel: 'hard-mandatory' })],
        real.input,
      );
      expect(outcomes[0]).to.deep.include({
        kind: 'sentinel',
        enforcementLevel: 'hard-mandatory',
        status: 'failed',
        messages: ['terraform_data.untagged has no tags', '(owner is required)'],
      });
      const [call] = await stand.cli.calls();
      expect(call.args).to.deep.equal(['apply', '-trace', '-config=sentinel.hcl', 'policy.sentinel']);
      expect(Object.keys(call.files).sort()).to.deep.equal([
        'mock-tfplan-v2.sentinel',
        'mock-tfrun.sentinel',
        'policy.sentinel',
        'sentinel.hcl',
      ]);
      expect(call.files['policy.sentinel']).to.equal(code);
      expect(call.files['sentinel.hcl']).to.equal(SENTINEL_CONFIG);
      expect(call.files['sentinel.hcl']).to.include(
        'mock "tfplan/v2" {\n  module {\n    source = "mock-tfplan-v2.sentinel"',
      );
      const tfplan = readModule(call.files['mock-tfplan-v2.sentinel']);
      expect(tfplan).to.deep.equal(tfplanV2Data(real.plan));
      expect(Object.keys(tfplan.resource_changes).sort()).to.deep.equal([
        'terraform_data.public_bucket',
        'terraform_data.tagged',
        'terraform_data.untagged',
      ]);
      expect(tfplan.resource_changes['terraform_data.public_bucket'].change.after.input).to.deep.equal({
        acl: 'public-read',
        tags: { owner: 'web' },
      });
      expect(tfplan.variables).to.deep.equal({ environment: { name: 'environment', value: 'dev' } });
      expect(readModule(call.files['mock-tfrun.sentinel'])).to.deep.equal(POLICY_RUN_DOCUMENT);
      expect(call.env.HOME.startsWith(call.cwd + '/')).to.equal(true);
      expect(existsSync(call.cwd)).to.equal(false);
    });
  });

  describe('with the real sentinel binary', () => {
    before(function () {
      if (!binaryRuns('sentinel')) {
        console.log('      (sentinel is not on PATH: skipping real Sentinel evaluations)');
        this.skip();
      }
    });

    const REQUIRE_TAGS = `import "tfplan/v2" as tfplan

untagged = filter tfplan.resource_changes as _, rc {
  rc.type is "terraform_data" and (rc.change.after.input.tags else null) is null
}

for untagged as address, _ {
  print(address, "has no tags")
}

main = rule { length(untagged) is 0 }
`;
    const SPECULATIVE_ONLY = `import "tfrun"

main = rule { tfrun.speculative and tfrun.workspace.name is "networking" }
`;

    it('fails "require tags" on the real plan with its print output, and reads tfrun', async () => {
      const outcomes = await new SentinelCliEngine({ bin: 'sentinel', timeoutSeconds: 60 }).evaluate(
        [
          policyToEvaluate({ kind: 'sentinel', name: 'require-tags', code: REQUIRE_TAGS }),
          policyToEvaluate({ kind: 'sentinel', name: 'speculative-only', code: SPECULATIVE_ONLY }),
          policyToEvaluate({ kind: 'sentinel', name: 'broken', code: 'main = rule {' }),
        ],
        real.input,
      );
      expect(outcomes.map((o) => o.status)).to.deep.equal(['failed', 'passed', 'errored']);
      expect(outcomes[0].messages).to.deep.equal(['terraform_data.untagged has no tags']);
    });
  });
});
