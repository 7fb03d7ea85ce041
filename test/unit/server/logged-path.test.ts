import { expect } from 'chai';
import { loggedPath } from '../../../server/errors.js';

describe('logged request paths', () => {
  it('leave out the secret of pre-signed object and log URLs, and nothing else', () => {
    expect(loggedPath('/v1/object/eyJhbGciOi.c2lnbmF0dXJl')).to.equal('/v1/object/[token]');
    expect(loggedPath('/v1/logs/abc.def')).to.equal('/v1/logs/[token]');
    expect(loggedPath('/api/v2/runs/run-abc')).to.equal('/api/v2/runs/run-abc');
    expect(loggedPath('/api/v2/v1/object/x')).to.equal('/api/v2/v1/object/x');
  });
});
