import { expect } from 'chai';
import { IllegalTransition } from '../../../../shared/platform/errors.js';
import { mailMachine } from '../../../../shared/mail/machine.js';
import { membershipMachine } from '../../../../shared/identity/memberships.machine.js';

describe('state machines', () => {
  it('moves mail through claim, deliver, retry and give up', () => {
    expect(mailMachine.transition('pending', 'claim')).to.equal('sending');
    expect(mailMachine.transition('sending', 'deliver')).to.equal('sent');
    expect(mailMachine.transition('sending', 'retry')).to.equal('pending');
    expect(mailMachine.transition('sending', 'give_up')).to.equal('failed');
  });

  it('refuses illegal mail moves with a typed error', () => {
    for (const [from, event] of [
      ['sent', 'claim'],
      ['failed', 'claim'],
      ['pending', 'deliver'],
      ['sent', 'retry'],
    ] as const) {
      expect(() => mailMachine.transition(from, event)).to.throw(IllegalTransition);
      expect(mailMachine.can(from, event)).to.equal(false);
    }
  });

  it('lists the source states of an event for compare-and-set updates', () => {
    expect(mailMachine.sources('deliver')).to.deep.equal(['sending']);
    expect(mailMachine.sources('claim')).to.deep.equal(['pending', 'sending']);
  });

  it('accepts an invitation once', () => {
    expect(membershipMachine.transition('invited', 'accept')).to.equal('active');
    const err = (() => {
      try {
        membershipMachine.transition('active', 'accept');
      } catch (e) {
        return e;
      }
    })();
    expect(err).to.be.instanceOf(IllegalTransition);
    expect((err as IllegalTransition).from).to.equal('active');
  });
});
