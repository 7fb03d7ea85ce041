import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound } from '../../shared/platform/errors.js';
import { changeTeamMembers, type MemberNames } from '../../shared/identity/index.js';
import { teamScope } from '../guards.js';
import { linkageIds, type Req } from './body.js';

/* Team membership (four endpoints); the change and its checks are the changeTeamMembers use case's. */

export function teamMemberHandlers(deps: AppDeps) {
  const change = (names: MemberNames, op: 'add' | 'remove') => async (req: Req, res: Response) => {
    const { team, grant } = await teamScope(deps.db, res.locals.principal, req.params.id, 'manage-membership');
    // Joining the owners team grants everything, so only owners may change who is in it.
    if (team.is_owners && !grant.isOwner) throw new NotFound();
    await changeTeamMembers(deps, team, names, linkageIds(req), op);
    res.status(204).end();
  };
  return {
    addUsers: change('usernames', 'add'),
    removeUsers: change('usernames', 'remove'),
    addMemberships: change('memberships', 'add'),
    removeMemberships: change('memberships', 'remove'),
  };
}
