import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { BadRequest, NotFound } from '../../shared/platform/errors.js';
import {
  changeTeamWorkspace,
  deleteTeamWorkspace,
  findTeamWorkspace,
  grantTeamWorkspace,
  type TeamWorkspaceAccess,
  type TeamWorkspaceRequest,
  teamWorkspacesOf,
  WORKSPACE_PERMISSION_FLAGS,
  WORKSPACE_PERMISSION_VALUES,
  type WorkspacePermissions,
} from '../../shared/identity/index.js';
import { teamScope, workspaceScopeById } from '../guards.js';
import { paginate, readPageOrDefault, readParam, send, sendResource, sliceOf } from '../jsonapi.js';
import { attributesOf, relationshipId, type Req } from './body.js';
import { teamWorkspaceResource } from '../serializers/foundation.js';

const PERMISSION_NAMES = [
  ...Object.keys(WORKSPACE_PERMISSION_VALUES),
  ...WORKSPACE_PERMISSION_FLAGS,
] as (keyof WorkspacePermissions)[];

/** The level and the permissions a (validated) request body names. */
function requestOf(req: Req): Partial<TeamWorkspaceRequest> {
  const attrs = attributesOf(req) as Partial<WorkspacePermissions> & { access?: TeamWorkspaceAccess };
  const permissions = Object.fromEntries(
    PERMISSION_NAMES.filter((k) => attrs[k] !== undefined).map((k) => [k, attrs[k]]),
  ) as Partial<WorkspacePermissions>;
  return { ...(attrs.access ? { access: attrs.access } : {}), permissions };
}

/** Team access to workspaces; managing it needs admin access to the workspace. */
export function teamWorkspaceHandlers(deps: AppDeps) {
  const { db } = deps;
  async function load(req: Req, res: Response) {
    const row = await findTeamWorkspace(db, req.params.id);
    if (!row) throw new NotFound();
    await workspaceScopeById(db, res.locals.principal, row.workspace_id, 'admin');
    return row;
  }

  return {
    async create(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(
        db,
        res.locals.principal,
        relationshipId(req, 'workspace')!,
        'admin',
      );
      const { team } = await teamScope(db, res.locals.principal, relationshipId(req, 'team')!);
      if (team.organization_name !== workspace.organization_name) throw new NotFound();
      const row = await grantTeamWorkspace(deps, team.id, workspace.id, requestOf(req) as TeamWorkspaceRequest);
      sendResource(res, 201, teamWorkspaceResource(row));
    },

    async list(req: Req, res: Response) {
      const workspaceId = readParam(req, 'filter[workspace][id]');
      if (!workspaceId) throw new BadRequest('filter[workspace][id] is required', 'filter[workspace][id]');
      await workspaceScopeById(db, res.locals.principal, workspaceId, 'admin');
      const page = readPageOrDefault(req);
      const rows = await teamWorkspacesOf(db, workspaceId);
      send(res, 200, { data: sliceOf(rows, page).map(teamWorkspaceResource), ...paginate(req, page, rows.length) });
    },

    async show(req: Req, res: Response) {
      sendResource(res, 200, teamWorkspaceResource(await load(req, res)));
    },

    async update(req: Req, res: Response) {
      const row = await load(req, res);
      sendResource(res, 200, teamWorkspaceResource(await changeTeamWorkspace(deps, row, requestOf(req))));
    },

    async destroy(req: Req, res: Response) {
      const row = await load(req, res);
      await deleteTeamWorkspace(db, row.id);
      res.status(204).end();
    },
  };
}
