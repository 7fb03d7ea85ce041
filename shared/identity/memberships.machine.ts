import { defineMachine } from '../platform/machine.js';

export type MembershipStatus = 'invited' | 'active';

/** Organization membership: an invitation becomes active when the invited user accepts it. */
export const membershipMachine = defineMachine<MembershipStatus, 'accept'>('organization membership', {
  accept: { from: ['invited'], to: 'active' },
});
