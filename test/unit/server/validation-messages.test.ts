import { expect } from 'chai';
import { check } from '../../../server/validate.js';
import { Unprocessable } from '../../../shared/platform/errors.js';

function detailsOf(name: Parameters<typeof check>[0], body: unknown): string[] {
  try {
    check(name, body);
  } catch (err) {
    expect(err).to.be.instanceOf(Unprocessable);
    return (err as Unprocessable).details().map((e) => e.detail ?? '');
  }
  throw new Error('expected the body to be refused');
}

describe('validation messages', () => {
  it('says what a oneOf allows instead of the first branch\'s "must be null"', () => {
    const details = detailsOf('registry-module-version.create', {
      data: { type: 'registry-module-versions', attributes: { version: '1.0.0', 'commit-sha': 'not-a-sha' } },
    });
    expect(details).to.deep.equal([
      'data.attributes.commit-sha must be null, or a string matching ^[0-9a-fA-F]{7,64}$ of at most 64 characters',
    ]);
  });

  it('keeps the specific message of an enum', () => {
    const details = detailsOf('registry-module.create', {
      data: { type: 'registry-modules', attributes: { name: 'vpc', provider: 'aws', 'registry-name': 'elsewhere' } },
    });
    expect(details).to.deep.equal(['data.attributes.registry-name must be one of: private, public']);
  });
});
