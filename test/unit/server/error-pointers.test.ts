import { expect } from 'chai';
import { pointerOf } from '../../../server/errors.js';

describe('pointers of the fields errors name', () => {
  it('point into the request document as JSON:API clients expect', () => {
    expect(pointerOf({ attribute: 'name' })).to.equal('/data/attributes/name');
    expect(pointerOf({ attribute: 'enforce', at: [0, 'mode'] })).to.equal('/data/attributes/enforce/0/mode');
    expect(pointerOf({ relationship: 'ssh-key' })).to.equal('/data/relationships/ssh-key');
    expect(pointerOf({ relationship: 'configuration-version', id: true })).to.equal(
      '/data/relationships/configuration-version/data/id',
    );
    expect(pointerOf({ relationship: 'vars', element: 2 })).to.equal('/data/relationships/vars/data/2');
    expect(pointerOf({ relationship: 'workspaces', element: 0, id: true })).to.equal(
      '/data/relationships/workspaces/data/0/id',
    );
    expect(pointerOf({ primary: true })).to.equal('/data');
    expect(pointerOf({ primary: true, id: true })).to.equal('/data/id');
    expect(pointerOf({ primary: true, element: 3, id: true })).to.equal('/data/3/id');
    expect(pointerOf({ member: 'client_id' })).to.equal('/client_id');
    expect(pointerOf({ document: true })).to.equal('/');
  });
});
