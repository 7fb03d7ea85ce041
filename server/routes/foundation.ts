import { Router, type RequestHandler } from 'express';
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

/** Identity, organizations, teams and workspaces. Every route here is authenticated. */
export function foundationRoutes(deps: AppDeps, auth: RequestHandler): Router {
  const r = Router();
  const org = organizationHandlers(deps);
  const users = userHandlers(deps);
  const tokens = tokenHandlers(deps);
  const om = membershipHandlers(deps);
  const teams = teamHandlers(deps);
  const members = teamMemberHandlers(deps);
  const tw = teamWorkspaceHandlers(deps);
  const ws = workspaceHandlers(deps);

  r.post('/organizations', auth, validate('organization.create'), org.create);
  r.get('/organizations', auth, org.list);
  r.get('/organizations/:org', auth, org.show);
  r.patch('/organizations/:org', auth, validate('organization.update'), org.update);
  r.delete('/organizations/:org', auth, org.destroy);
  r.get('/organizations/:org/entitlement-set', auth, org.entitlementSet);
  r.post('/organizations/:org/authentication-token', auth, tokens.createForOrganization);
  r.delete('/organizations/:org/authentication-token', auth, tokens.destroyForOrganization);

  r.get('/account/details', auth, users.accountDetails);
  r.get('/users/:id', auth, users.show);
  r.post('/admin/users', auth, validate('user.create'), users.adminCreate);
  r.post('/users/:id/authentication-tokens', auth, tokens.createForUser);
  r.get('/users/:id/authentication-tokens', auth, tokens.listForUser);
  r.get('/authentication-tokens/:id', auth, tokens.show);
  r.delete('/authentication-tokens/:id', auth, tokens.destroy);

  r.post('/organizations/:org/organization-memberships', auth, validate('membership.create'), om.invite);
  r.get('/organizations/:org/organization-memberships', auth, om.list);
  r.get('/organization-memberships/:id', auth, om.show);
  r.delete('/organization-memberships/:id', auth, om.destroy);
  r.post('/organization-memberships/:id/actions/accept', auth, om.accept);

  r.post('/organizations/:org/teams', auth, validate('team.create'), teams.create);
  r.get('/organizations/:org/teams', auth, teams.list);
  r.get('/teams/:id', auth, teams.show);
  r.patch('/teams/:id', auth, validate('team.update'), teams.update);
  r.delete('/teams/:id', auth, teams.destroy);
  r.post('/teams/:id/authentication-token', auth, tokens.createForTeam);
  r.delete('/teams/:id/authentication-token', auth, tokens.destroyForTeam);
  r.post('/teams/:id/relationships/users', auth, validate('team.users'), members.addUsers);
  r.delete('/teams/:id/relationships/users', auth, validate('team.users'), members.removeUsers);
  r.post('/teams/:id/relationships/organization-memberships', auth, validate('team.memberships'), members.addMemberships);
  r.delete('/teams/:id/relationships/organization-memberships', auth, validate('team.memberships'), members.removeMemberships);

  r.post('/team-workspaces', auth, validate('team-workspace.create'), tw.create);
  r.get('/team-workspaces', auth, tw.list);
  r.get('/team-workspaces/:id', auth, tw.show);
  r.patch('/team-workspaces/:id', auth, validate('team-workspace.update'), tw.update);
  r.delete('/team-workspaces/:id', auth, tw.destroy);

  r.post('/organizations/:org/workspaces', auth, validate('workspace.create'), ws.create);
  r.get('/organizations/:org/workspaces', auth, ws.list);
  r.get('/organizations/:org/workspaces/:name', auth, ws.showByName);
  r.delete('/organizations/:org/workspaces/:name', auth, ws.destroyByName);
  r.get('/workspaces/:id', auth, ws.show);
  r.patch('/workspaces/:id', auth, validate('workspace.update'), ws.update);
  r.delete('/workspaces/:id', auth, ws.destroy);
  return r;
}
