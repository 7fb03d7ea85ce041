import { resolve } from 'node:path';
import { expect } from 'chai';
import {
  ConfigError,
  loadConfig,
  OUTBOUND_QUEUE_CONCURRENCY,
  verificationWaitMs,
} from '../../../shared/platform/config.js';

const KEY = 'a'.repeat(64);

describe('configuration', () => {
  it('applies defaults and freezes the result', () => {
    const c = loadConfig({ ENCRYPTION_KEY: KEY });
    expect(c.port).to.equal(8080);
    expect(c.databaseUrl).to.equal('postgres://postgres@127.0.0.1:5432/rls');
    expect(c.databasePreparedStatements).to.equal(200);
    expect(c.stateRecoveryDir).to.equal(resolve('.data', 'state-recovery'));
    expect(c.redisUrl).to.equal('redis://127.0.0.1:6379');
    expect(c.edition).to.equal('self-hosted');
    expect(c.baseUrl).to.equal('http://127.0.0.1:8080');
    expect(Object.isFrozen(c)).to.equal(true);
  });

  it('fails naming every bad variable at once', () => {
    const bad = { PORT: 'eighty', EDITION: 'gold', REDIS_URL: 'http://x', ENCRYPTION_KEY: 'short' };
    expect(() => loadConfig(bad))
      .to.throw(ConfigError)
      .with.property('message')
      .that.satisfies((m: string) =>
        ['PORT', 'EDITION', 'REDIS_URL', 'ENCRYPTION_KEY'].every((name) => m.includes(name)),
      );
  });

  it('reads the upload caps per user and per address, the minimum upload pace and who may create organizations', () => {
    const d = loadConfig({ ENCRYPTION_KEY: KEY });
    expect(d).to.include({
      maxConcurrentUploadsPerUser: 4,
      maxConcurrentUploadsPerAddress: 8,
      uploadMinBytesPerSecond: 1024,
      uploadRateGraceSeconds: 10,
      organizationCreation: 'anyone',
    });
    const set = loadConfig({
      ENCRYPTION_KEY: KEY,
      MAX_CONCURRENT_UPLOADS_PER_USER: '0',
      MAX_CONCURRENT_UPLOADS_PER_ADDRESS: '20',
      UPLOAD_MIN_BYTES_PER_SECOND: '0',
      UPLOAD_RATE_GRACE_SECONDS: '30',
      ORGANIZATION_CREATION: 'site-admins',
    });
    expect(set).to.include({
      maxConcurrentUploadsPerUser: 0,
      maxConcurrentUploadsPerAddress: 20,
      uploadMinBytesPerSecond: 0,
      uploadRateGraceSeconds: 30,
      organizationCreation: 'site-admins',
    });
    for (const [name, value] of [
      ['MAX_CONCURRENT_UPLOADS_PER_USER', '-1'],
      ['UPLOAD_RATE_GRACE_SECONDS', '0'],
      ['ORGANIZATION_CREATION', 'owners'],
    ]) {
      expect(() => loadConfig({ ENCRYPTION_KEY: KEY, [name]: value }), name).to.throw(ConfigError, new RegExp(name));
    }
  });

  it('reads how many statements a database connection keeps prepared, 0 for none', () => {
    expect(loadConfig({ ENCRYPTION_KEY: KEY, DATABASE_PREPARED_STATEMENTS: '0' }).databasePreparedStatements).to.equal(
      0,
    );
    expect(loadConfig({ ENCRYPTION_KEY: KEY, DATABASE_PREPARED_STATEMENTS: '50' }).databasePreparedStatements).to.equal(
      50,
    );
    expect(() => loadConfig({ ENCRYPTION_KEY: KEY, DATABASE_PREPARED_STATEMENTS: '-1' })).to.throw(
      ConfigError,
      /DATABASE_PREPARED_STATEMENTS/,
    );
  });

  it('refuses a SITE_ADMIN_TOKEN shorter than 16 characters, naming the variable and the minimum', () => {
    expect(() => loadConfig({ ENCRYPTION_KEY: KEY, SITE_ADMIN_TOKEN: 'x' })).to.throw(
      ConfigError,
      /SITE_ADMIN_TOKEN must NOT have fewer than 16 characters/,
    );
    expect(loadConfig({ ENCRYPTION_KEY: KEY, SITE_ADMIN_TOKEN: 'a-token-of-16-ch' }).siteAdminToken).to.equal(
      'a-token-of-16-ch',
    );
  });

  it('reads the TLS certificate and key files as a pair, and defaults BASE_URL to https with them', () => {
    expect(loadConfig({ ENCRYPTION_KEY: KEY }).tls).to.equal(null);
    const c = loadConfig({
      ENCRYPTION_KEY: KEY,
      TLS_CERT_FILE: 'tls/cert.pem',
      TLS_KEY_FILE: '/etc/rls/key.pem',
      PORT: '8443',
    });
    expect(c.tls).to.deep.equal({ certFile: resolve('tls/cert.pem'), keyFile: '/etc/rls/key.pem' });
    expect(c.baseUrl).to.equal('https://127.0.0.1:8443');
    for (const half of [{ TLS_CERT_FILE: 'cert.pem' }, { TLS_KEY_FILE: 'key.pem' }]) {
      expect(() => loadConfig({ ENCRYPTION_KEY: KEY, ...half })).to.throw(
        ConfigError,
        /TLS_CERT_FILE and TLS_KEY_FILE go together/,
      );
    }
  });

  it('requires an encryption key in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).to.throw(ConfigError, /ENCRYPTION_KEY/);
  });

  it('reads the allowed outbound CIDRs and trims the base URL', () => {
    const c = loadConfig({
      ENCRYPTION_KEY: KEY,
      OUTBOUND_ALLOWED_CIDRS: '127.0.0.0/8, ::1/128',
      BASE_URL: 'https://tfe.example.test/',
    });
    expect(c.outboundAllowedCidrs).to.deep.equal(['127.0.0.0/8', '::1/128']);
    expect(c.baseUrl).to.equal('https://tfe.example.test');
    expect(c.uploadUrl).to.equal('https://tfe.example.test');
  });

  it('reads the policy runtimes and their time limit', () => {
    const defaults = loadConfig({ ENCRYPTION_KEY: KEY });
    expect([defaults.opaPath, defaults.sentinelPath, defaults.policyEvalTimeoutSeconds]).to.deep.equal([
      'opa',
      'sentinel',
      60,
    ]);
    const set = loadConfig({
      ENCRYPTION_KEY: KEY,
      OPA_PATH: '/opt/opa/opa',
      SENTINEL_PATH: '/opt/sentinel',
      POLICY_EVAL_TIMEOUT_SECONDS: '120',
    });
    expect([set.opaPath, set.sentinelPath, set.policyEvalTimeoutSeconds]).to.deep.equal([
      '/opt/opa/opa',
      '/opt/sentinel',
      120,
    ]);
    expect(() => loadConfig({ ENCRYPTION_KEY: KEY, POLICY_EVAL_TIMEOUT_SECONDS: '0' })).to.throw(
      ConfigError,
      /POLICY_EVAL_TIMEOUT_SECONDS/,
    );
  });

  it('gives one organization half of each outbound queue by default, and verifications short timeouts the API waits for', () => {
    const c = loadConfig({ ENCRYPTION_KEY: KEY });
    const half = OUTBOUND_QUEUE_CONCURRENCY / 2;
    expect([
      c.verificationSlotsPerOrganization,
      c.taskDispatchSlotsPerOrganization,
      c.deliverySlotsPerOrganization,
    ]).to.deep.equal([half, half, half]);
    expect([c.verificationTimeoutSeconds, c.verificationConnectTimeoutSeconds]).to.deep.equal([10, 3]);
    expect(verificationWaitMs(c)).to.equal(15_000);
    const set = loadConfig({
      ENCRYPTION_KEY: KEY,
      VERIFICATION_TIMEOUT_SECONDS: '2',
      VERIFICATION_CONNECT_TIMEOUT_SECONDS: '5',
      DELIVERY_SLOTS_PER_ORGANIZATION: '8',
    });
    // The connect timeout never exceeds the total.
    expect([
      set.verificationTimeoutSeconds,
      set.verificationConnectTimeoutSeconds,
      set.deliverySlotsPerOrganization,
    ]).to.deep.equal([2, 2, 8]);
    expect(() =>
      loadConfig({ ENCRYPTION_KEY: KEY, VERIFICATION_SLOTS_PER_ORGANIZATION: '0', VERIFICATION_TIMEOUT_SECONDS: '0' }),
    ).to.throw(
      ConfigError,
      /VERIFICATION_SLOTS_PER_ORGANIZATION.*VERIFICATION_TIMEOUT_SECONDS|VERIFICATION_TIMEOUT_SECONDS.*VERIFICATION_SLOTS_PER_ORGANIZATION/,
    );
  });

  it('reads TRUST_PROXY as off, a hop count or proxy addresses/CIDRs, and refuses "true" and junk', () => {
    expect(loadConfig({ ENCRYPTION_KEY: KEY }).trustProxy).to.equal(false);
    expect(loadConfig({ ENCRYPTION_KEY: KEY, TRUST_PROXY: 'false' }).trustProxy).to.equal(false);
    expect(loadConfig({ ENCRYPTION_KEY: KEY, TRUST_PROXY: '0' }).trustProxy).to.equal(false);
    expect(loadConfig({ ENCRYPTION_KEY: KEY, TRUST_PROXY: '2' }).trustProxy).to.equal(2);
    expect(
      loadConfig({ ENCRYPTION_KEY: KEY, TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,loopback, fd00::/8' }).trustProxy,
    ).to.deep.equal(['10.0.0.0/8', '192.168.1.5', 'loopback', 'fd00::/8']);
    for (const bad of ['true', '10.0.0.0/33', 'proxy.example', '1.2.3', '100']) {
      expect(() => loadConfig({ ENCRYPTION_KEY: KEY, TRUST_PROXY: bad }), bad).to.throw(ConfigError, /TRUST_PROXY/);
    }
  });
});
