import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound } from '../../shared/errors.js';
import { deleteWorkspace, findWorkspaceByName, type WorkspaceRow, type WorkspaceSettings } from '../../shared/repos/workspaces.js';
import { findOrganization } from '../../shared/repos/organizations.js';
import { visibleWorkspaces } from '../../shared/read-models/workspaces.js';
import { sliceOf } from '../../shared/read-models/page.js';
import { changeWorkspace, createWorkspace } from '../../shared/usecases/workspaces.js';
import { orgScope, workspaceScope, workspaceScopeById, type WorkspaceScope } from '../guards.js';
import { paginate, readInclude, readPageOrDefault, readParam, send, sendResource } from '../jsonapi.js';
import { attributesOf, type Req } from './body.js';
import { organizationResource, workspaceResource } from '../serializers/foundation.js';
import { lockWorkspace, unlockWorkspace } from '../../shared/usecases/workspace-locks.js';
import { stateReadableByRun } from '../../shared/usecases/run-tokens.js';

/** API attribute -> column, for the settings a client may write. */
const SETTINGS: Record<string, keyof WorkspaceSettings> = {
  name: 'name',
  description: 'description',
  'working-directory': 'working_directory',
  'auto-apply': 'auto_apply',
  'execution-mode': 'execution_mode',
  'terraform-version': 'terraform_version',
  'vcs-repo': 'vcs_repo',
  'assessments-enabled': 'assessments_enabled',
  'auto-destroy-at': 'auto_destroy_at',
  'allow-destroy-plan': 'allow_destroy_plan',
  'queue-all-runs': 'queue_all_runs',
  'speculative-enabled': 'speculative_enabled',
  'global-remote-state': 'global_remote_state',
  'structured-run-output-enabled': 'structured_run_output_enabled',
  'file-triggers-enabled': 'file_triggers_enabled',
  'trigger-prefixes': 'trigger_prefixes',
  'trigger-patterns': 'trigger_patterns',
  'source-name': 'source_name',
  'source-url': 'source_url',
};

/** Known attributes become columns; unknown ones are ignored, as TFE does. Null text becomes ''. */
function settingsFrom(attrs: Record<string, unknown>): WorkspaceSettings {
  const out: Record<string, unknown> = {};
  for (const [attr, column] of Object.entries(SETTINGS)) {
    if (!(attr in attrs)) continue;
    const v = attrs[attr];
    if (column === 'auto_destroy_at') out[column] = v ? new Date(v as string) : null;
    else if (column === 'description' || column === 'working_directory') out[column] = v ?? '';
    else out[column] = v;
  }
  // The deprecated `operations` flag older clients send (go-tfe's Operations): remote or local
  // execution, unless the request names an execution mode itself.
  if (typeof attrs.operations === 'boolean' && !('execution-mode' in attrs)) out.execution_mode = attrs.operations ? 'remote' : 'local';
  return out as WorkspaceSettings;
}

export function workspaceHandlers(deps: AppDeps) {
  const { db } = deps;
  const include = (req: Req) => readInclude(req, ['organization']);

  async function respond(res: Response, status: number, ws: WorkspaceRow, scope: WorkspaceScope, inc: Set<string>) {
    const org = inc.has('organization') ? await findOrganization(db, ws.organization_name) : null;
    sendResource(res, status, workspaceResource(ws, scope.access), org ? [organizationResource(org, scope.grant)] : undefined);
  }

  return {
    async create(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org, 'manage-workspaces');
      const inc = include(req);
      const settings = settingsFrom(attributesOf(req));
      const ws = await createWorkspace(deps, org.name, { ...settings, name: settings.name! });
      await respond(res, 201, ws, { workspace: ws, grant, access: 'admin' }, inc);
    },

    async list(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org);
      const inc = include(req);
      const page = readPageOrDefault(req);
      const { rows: visible, access } = await visibleWorkspaces(db, org.name, grant, readParam(req, 'search[name]') || null);
      const slice = sliceOf(visible, page);
      const included = inc.has('organization') && slice.length ? { included: [organizationResource(org, grant)] } : {};
      send(res, 200, { data: slice.map((ws) => workspaceResource(ws, access.get(ws.id)!)), ...included, ...paginate(req, page, visible.length) });
    },

    async showByName(req: Req, res: Response) {
      const principal = res.locals.principal;
      if (principal.kind === 'run') {
        // A run token sees a workspace whose state it may read (the `remote` backend looks it up
        // by name), with read permissions; `include` is ignored.
        const ws = await stateReadableByRun(deps, principal, await findWorkspaceByName(db, req.params.org, req.params.name));
        return void sendResource(res, 200, workspaceResource(ws, 'read'));
      }
      await orgScope(db, principal, req.params.org);
      const scope = await workspaceScope(db, res.locals.principal, await findWorkspaceByName(db, req.params.org, req.params.name));
      await respond(res, 200, scope.workspace, scope, include(req));
    },

    async show(req: Req, res: Response) {
      const scope = await workspaceScopeById(db, res.locals.principal, req.params.id);
      await respond(res, 200, scope.workspace, scope, include(req));
    },

    async update(req: Req, res: Response) {
      const scope = await workspaceScopeById(db, res.locals.principal, req.params.id, 'admin');
      const ws = scope.workspace;
      const inc = include(req);
      const settings = settingsFrom(attributesOf(req));
      const updated = await changeWorkspace(deps, ws, settings);
      await respond(res, 200, updated, scope, inc);
    },

    /** PATCH /organizations/:org/workspaces/:name: the same change as by id, the workspace named. */
    async updateByName(req: Req, res: Response) {
      const ws = await findWorkspaceByName(db, req.params.org, req.params.name);
      if (!ws) throw new NotFound();
      const scope = await workspaceScope(db, res.locals.principal, ws, 'admin');
      const updated = await changeWorkspace(deps, scope.workspace, settingsFrom(attributesOf(req)));
      await respond(res, 200, updated, scope, include(req));
    },

    async destroy(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'admin');
      await deleteWorkspace(db, workspace.id);
      res.status(204).end();
    },

    /** POST /workspaces/:id/actions/lock (write access), with an optional `reason`. */
    async lock(req: Req, res: Response) {
      const scope = await workspaceScopeById(db, res.locals.principal, req.params.id, 'write');
      const reason = (req.body as { reason?: unknown } | undefined)?.reason;
      const ws = await lockWorkspace(deps, scope.workspace.id, res.locals.principal, typeof reason === 'string' ? reason : null);
      await respond(res, 200, ws, scope, include(req));
    },

    /** POST /workspaces/:id/actions/unlock (write access; the lock's holder only). */
    async unlock(req: Req, res: Response) {
      const scope = await workspaceScopeById(db, res.locals.principal, req.params.id, 'write');
      await respond(res, 200, await unlockWorkspace(deps, scope.workspace.id, res.locals.principal, false), scope, include(req));
    },

    /** POST /workspaces/:id/actions/force-unlock (admin access; whoever holds the lock). */
    async forceUnlock(req: Req, res: Response) {
      const scope = await workspaceScopeById(db, res.locals.principal, req.params.id, 'admin');
      await respond(res, 200, await unlockWorkspace(deps, scope.workspace.id, res.locals.principal, true), scope, include(req));
    },

    async destroyByName(req: Req, res: Response) {
      const ws = await findWorkspaceByName(db, req.params.org, req.params.name);
      if (!ws) throw new NotFound();
      await workspaceScope(db, res.locals.principal, ws, 'admin');
      await deleteWorkspace(db, ws.id);
      res.status(204).end();
    },
  };
}
