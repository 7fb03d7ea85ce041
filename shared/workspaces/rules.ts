import type { Principal } from '../identity/access.queries.js';
import type { LockHolder } from './repo.js';

/** Who a principal locks a workspace as. */
export function holderOf(principal: Principal): LockHolder {
  switch (principal.kind) {
    case 'user':
      return { type: 'users', id: principal.user.id };
    case 'team':
      return { type: 'teams', id: principal.team.id };
    case 'organization':
      return { type: 'organizations', id: principal.organizationName };
    case 'run':
      // Never reached (a run token reaches no lock route); it would hold the lock as its run.
      return { type: 'runs', id: principal.runId };
  }
}
