import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { validate } from '../validate.js';
import { organizationHandlers } from '../handlers/organizations.js';
import { userHandlers } from '../handlers/users.js';
import { tokenHandlers } from '../handlers/tokens.js';
import { membershipHandlers } from '../handlers/memberships.js';
import { teamHandlers } from '../handlers/teams.js';
import { teamMemberHandlers } from '../handlers/team-members.js';
import { teamWorkspaceHandlers } from '../handlers/team-workspaces.js';
import { workspaceHandlers } from '../handlers/workspaces.js';
import { actionRateLimit } from '../rate-limit.js';

/** Identity, organizations, teams and workspaces (authenticated by the API router). */
export function foundationRoutes(deps: AppDeps): Router {
  const r = Router();
  const org = organizationHandlers(deps);
  const users = userHandlers(deps);
  const tokens = tokenHandlers(deps);
  const om = membershipHandlers(deps);
  const teams = teamHandlers(deps);
  const members = teamMemberHandlers(deps);
  const tw = teamWorkspaceHandlers(deps);
  const ws = workspaceHandlers(deps);

  r.post('/organizations', validate('organization.create'), org.create);
  r.get('/organizations', org.list);
  r.get('/organizations/:org', org.show);
  r.patch('/organizations/:org', validate('organization.update'), org.update);
  r.delete('/organizations/:org', org.destroy);
  r.get('/organizations/:org/entitlement-set', org.entitlementSet);
  r.post('/organizations/:org/authentication-token', tokens.createForOrganization);
  r.get('/organizations/:org/authentication-token', tokens.showForOrganization);
  r.delete('/organizations/:org/authentication-token', tokens.destroyForOrganization);
  r.get('/organizations/:org/team-tokens', tokens.listForOrganization);

  r.get('/account/details', users.accountDetails);
  r.patch('/account/update', validate('account.update'), users.updateAccount);
  r.get('/users/:id', users.show);
  r.get('/admin/users', users.adminList);
  r.post('/admin/users', validate('user.create'), users.adminCreate);
  r.post('/admin/users/:id/actions/reset-password', users.adminResetPassword);
  r.post('/admin/users/:id/actions/suspend', users.suspension(true));
  r.post('/admin/users/:id/actions/unsuspend', users.suspension(false));
  r.get('/admin/organizations', users.adminOrganizations);
  r.post('/users/:id/authentication-tokens', tokens.createForUser);
  r.get('/users/:id/authentication-tokens', tokens.listForUser);
  r.get('/authentication-tokens/:id', tokens.show);
  r.delete('/authentication-tokens/:id', tokens.destroy);

  r.post(
    '/organizations/:org/organization-memberships',
    actionRateLimit(deps.rateLimits, 'invitations'),
    validate('membership.create'),
    om.invite,
  );
  r.get('/organizations/:org/organization-memberships', om.list);
  r.get('/organization-memberships', om.listOwn);
  r.get('/organization-memberships/:id', om.show);
  r.delete('/organization-memberships/:id', om.destroy);
  r.post('/organization-memberships/:id/actions/accept', om.accept);

  r.post('/organizations/:org/teams', validate('team.create'), teams.create);
  r.get('/organizations/:org/teams', teams.list);
  r.get('/teams/:id', teams.show);
  r.patch('/teams/:id', validate('team.update'), teams.update);
  r.delete('/teams/:id', teams.destroy);
  r.post('/teams/:id/authentication-token', tokens.createForTeam);
  r.get('/teams/:id/authentication-token', tokens.showForTeam);
  r.delete('/teams/:id/authentication-token', tokens.destroyForTeam);
  r.post('/teams/:id/authentication-tokens', tokens.createDescribedForTeam);
  r.get('/teams/:id/authentication-tokens', tokens.listForTeam);
  r.post('/teams/:id/relationships/users', validate('team.users'), members.addUsers);
  r.delete('/teams/:id/relationships/users', validate('team.users'), members.removeUsers);
  r.post('/teams/:id/relationships/organization-memberships', validate('team.memberships'), members.addMemberships);
  r.delete(
    '/teams/:id/relationships/organization-memberships',
    validate('team.memberships'),
    members.removeMemberships,
  );

  r.post('/team-workspaces', validate('team-workspace.create'), tw.create);
  r.get('/team-workspaces', tw.list);
  r.get('/team-workspaces/:id', tw.show);
  r.patch('/team-workspaces/:id', validate('team-workspace.update'), tw.update);
  r.delete('/team-workspaces/:id', tw.destroy);

  r.post('/organizations/:org/workspaces', validate('workspace.create'), ws.create);
  r.get('/organizations/:org/workspaces', ws.list);
  r.get('/organizations/:org/workspaces/:name', ws.showByName);
  r.patch('/organizations/:org/workspaces/:name', validate('workspace.update'), ws.updateByName);
  r.delete('/organizations/:org/workspaces/:name', ws.destroyByName);
  r.post('/organizations/:org/workspaces/:name/actions/safe-delete', ws.safeDeleteByName);
  r.get('/workspaces/:id', ws.show);
  r.post('/workspaces/:id/actions/lock', ws.lock);
  r.post('/workspaces/:id/actions/unlock', ws.unlock);
  r.post('/workspaces/:id/actions/force-unlock', ws.forceUnlock);
  r.patch('/workspaces/:id', validate('workspace.update'), ws.update);
  r.delete('/workspaces/:id', ws.destroy);
  r.post('/workspaces/:id/actions/safe-delete', ws.safeDelete);
  r.patch('/workspaces/:id/relationships/ssh-key', validate('workspace.ssh-key'), ws.assignSshKey);
  r.get('/workspaces/:id/relationships/tags', ws.listTags);
  r.post('/workspaces/:id/relationships/tags', validate('workspace.tags'), ws.addTags);
  r.delete('/workspaces/:id/relationships/tags', validate('workspace.tags'), ws.removeTags);
  r.get('/organizations/:org/tags', ws.organizationTags);
  r.delete('/organizations/:org/tags', validate('tag.ids'), ws.deleteOrganizationTags);
  r.post('/tags/:id/relationships/workspaces', validate('tag.workspaces'), ws.tagWorkspaces);
  return r;
}
