import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { encryptSecret } from '../../../shared/platform/crypto.js';
import { resolveEffectiveVariables } from '../../../shared/variables/commands.js';
import type { ResolvableVariable } from '../../../shared/variables/repo.js';

const key = randomBytes(32);

/** A reaching variable: the workspace's own, or a variable set's (applied to the workspace); sensitive ones sealed. */
function reaching(
  k: string,
  value: string,
  o: { category?: 'terraform' | 'env'; sensitive?: boolean; set?: string } = {},
): ResolvableVariable {
  return {
    key: k,
    value: o.sensitive ? null : value,
    value_sealed: o.sensitive ? encryptSecret(key, value) : null,
    category: o.category ?? 'terraform',
    hcl: false,
    variable_set_id: o.set ?? null,
    set_name: o.set ?? null,
    set_global: o.set ? false : null,
    set_priority: o.set ? false : null,
    set_reach: o.set ? 'workspace' : null,
  };
}

describe('variables of a run whose secrets are withheld', () => {
  const rows = [
    reaching('password', 'from the workspace', { sensitive: true }),
    // A variable set's value of the same key, which the workspace's overrides.
    reaching('password', 'from a set', { set: 'varset-1' }),
    reaching('region', 'eu-west-1'),
    reaching('API_TOKEN', 'token-value', { category: 'env', sensitive: true }),
    reaching('LOG_LEVEL', 'debug', { category: 'env' }),
  ];

  it('gives every variable by precedence when nothing is withheld', () => {
    const v = resolveEffectiveVariables(key, rows, []);
    expect(v.terraform).to.have.deep.members([
      { key: 'password', value: '"from the workspace"' },
      { key: 'region', value: '"eu-west-1"' },
    ]);
    expect(v.env).to.deep.equal({ API_TOKEN: 'token-value', LOG_LEVEL: 'debug' });
    expect(v.withheld).to.deep.equal([]);
  });

  it('gives no sensitive winner, nor the value it overrides, and names what it withheld', () => {
    const v = resolveEffectiveVariables(key, rows, [{ key: 'extra', value: '"from the run"' }], {
      withholdSensitive: true,
    });
    expect(v.terraform).to.have.deep.members([
      { key: 'region', value: '"eu-west-1"' },
      { key: 'extra', value: '"from the run"' },
    ]);
    expect(v.env).to.deep.equal({ LOG_LEVEL: 'debug' });
    expect(v.names.map((n) => n.key)).to.have.members(['region', 'extra', 'LOG_LEVEL']);
    expect(v.withheld).to.have.deep.members([
      { key: 'password', category: 'terraform' },
      { key: 'API_TOKEN', category: 'env' },
    ]);
    expect(JSON.stringify(v))
      .to.not.include('from the workspace')
      .and.not.include('from a set')
      .and.not.include('token-value');
  });
});
