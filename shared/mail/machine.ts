import { defineMachine } from '../platform/machine.js';

export type MailStatus = 'pending' | 'sending' | 'sent' | 'failed';
export type MailEvent = 'claim' | 'deliver' | 'retry' | 'give_up';

/** Outgoing mail: claimed under a lease, then sent, retried or given up. */
export const mailMachine = defineMachine<MailStatus, MailEvent>('mail', {
  // `sending` may be claimed again only once its lease has expired (checked by the repository).
  claim: { from: ['pending', 'sending'], to: 'sending' },
  deliver: { from: ['sending'], to: 'sent' },
  retry: { from: ['sending'], to: 'pending' },
  give_up: { from: ['sending'], to: 'failed' },
});
