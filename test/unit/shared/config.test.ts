import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../shared/config.js';

const KEY = 'a'.repeat(64);

describe('configuration', () => {
  it('applies defaults and freezes the result', () => {
    const c = loadConfig({ ENCRYPTION_KEY: KEY });
    expect(c.port).to.equal(8080);
    expect(c.databaseUrl).to.equal('postgres://postgres@127.0.0.1:5432/rls');
    expect(c.redisUrl).to.equal('redis://127.0.0.1:6379');
    expect(c.edition).to.equal('self-hosted');
    expect(c.baseUrl).to.equal('http://127.0.0.1:8080');
    expect(Object.isFrozen(c)).to.equal(true);
  });

  it('fails naming every bad variable at once', () => {
    const bad = { PORT: 'eighty', EDITION: 'gold', REDIS_URL: 'http://x', ENCRYPTION_KEY: 'short' };
    expect(() => loadConfig(bad)).to.throw(ConfigError).with.property('message').that.satisfies((m: string) =>
      ['PORT', 'EDITION', 'REDIS_URL', 'ENCRYPTION_KEY'].every((name) => m.includes(name)),
    );
  });

  it('requires an encryption key in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).to.throw(ConfigError, /ENCRYPTION_KEY/);
  });

  it('reads the allowed outbound CIDRs and trims the base URL', () => {
    const c = loadConfig({ ENCRYPTION_KEY: KEY, OUTBOUND_ALLOWED_CIDRS: '127.0.0.0/8, ::1/128', BASE_URL: 'https://tfe.example.test/' });
    expect(c.outboundAllowedCidrs).to.deep.equal(['127.0.0.0/8', '::1/128']);
    expect(c.baseUrl).to.equal('https://tfe.example.test');
    expect(c.uploadUrl).to.equal('https://tfe.example.test');
  });
});
