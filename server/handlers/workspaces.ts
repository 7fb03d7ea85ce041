import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { BadRequest, NotFound } from '../../shared/platform/errors.js';
import type { Resource } from '../jsonapi.js';
import { presentRuns } from './runs.js';
import { stateVersionAs } from './state-versions.js';
import { runsByIds } from '../../shared/runs/queries.js';
import { outputsByVersion, stateVersionsByIds } from '../../shared/state/queries.js';
import {
  addWorkspaceTags,
  changeWorkspace,
  createWorkspace,
  deleteOrganizationTags,
  deleteWorkspace,
  findTag,
  findWorkspaceByName,
  removeWorkspaceTags,
  safeDeleteWorkspace,
  type TagRef,
  tagWorkspaces,
  type WorkspaceRow,
  type WorkspaceSettings,
} from '../../shared/workspaces/index.js';
import { findOrganization } from '../../shared/organizations/index.js';
import {
  currentOutputsOf,
  visibleWorkspaces,
  workspaceFacts,
  WORKSPACE_SORTS,
  type WorkspaceFacts,
  type WorkspaceSort,
} from '../../shared/workspaces/queries.js';
import { organizationTagsPage, workspaceTagsPage } from '../../shared/workspaces/tags.queries.js';
import {
  orgScope,
  projectScope,
  workspaceScope,
  workspaceScopeById,
  workspaceScopeByNameWithFacts,
  workspaceScopeWithFacts,
  type WorkspaceScope,
} from '../guards.js';
import {
  FULL_WORKSPACE_ACCESS,
  accessOfLevel,
  allows,
  workspaceAccess,
  projectAccess,
  type OrganizationGrant,
  type Principal,
  type WorkspaceAccess,
} from '../../shared/identity/access.queries.js';
import { findProject } from '../../shared/projects/index.js';
import { NO_COUNTS, projectCounts } from '../../shared/projects/queries.js';
import { projectResource } from '../serializers/projects.js';
import { paginate, readInclude, readPageOrDefault, readParam, send, sendResource, sliceOf } from '../jsonapi.js';
import { attributesOf, linkageIds, relationshipId, type Req } from './body.js';
import {
  NO_FACTS,
  organizationResource,
  tagResource,
  workspaceOutputResource,
  workspaceResource,
} from '../serializers/foundation.js';
import { assignSshKey } from '../../shared/ssh-keys/index.js';
import { syncHooksAfter, vcsRepoSettings, type VcsRepoInput } from '../../shared/vcs/index.js';
import { lockWorkspace, stateReadableByRun, unlockWorkspace } from '../../shared/runs/index.js';

/** API attribute -> column, for the settings a client may write. */
const SETTINGS: Record<string, keyof WorkspaceSettings> = {
  name: 'name',
  description: 'description',
  'working-directory': 'working_directory',
  'auto-apply': 'auto_apply',
  'auto-apply-run-trigger': 'auto_apply_run_trigger',
  'execution-mode': 'execution_mode',
  'agent-pool-id': 'agent_pool_id',
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
export function settingsFrom(attrs: Record<string, unknown>): WorkspaceSettings {
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
  if (typeof attrs.operations === 'boolean' && !('execution-mode' in attrs))
    out.execution_mode = attrs.operations ? 'remote' : 'local';
  // A mode of its own overwrites the organization's default; `setting-overwrites` false returns
  // the workspace to the default (and wins over a mode named in the same request).
  const overwrites = (attrs['setting-overwrites'] ?? {}) as { 'execution-mode'?: boolean; 'agent-pool'?: boolean };
  if ('execution_mode' in out) out.overwrites_execution_mode = true;
  if (typeof overwrites['execution-mode'] === 'boolean') out.overwrites_execution_mode = overwrites['execution-mode'];
  if (typeof overwrites['agent-pool'] === 'boolean') out.overwrites_agent_pool = overwrites['agent-pool'];
  if (out.overwrites_execution_mode === false) delete out.execution_mode;
  return out as WorkspaceSettings;
}

/** `sort`: one of WORKSPACE_SORTS (400 otherwise); by name when absent. */
function readSort(req: Req): WorkspaceSort | undefined {
  const sort = readParam(req, 'sort');
  if (!sort) return undefined;
  if (!(WORKSPACE_SORTS as readonly string[]).includes(sort))
    throw new BadRequest(`Invalid sort parameter: ${sort} (one of ${WORKSPACE_SORTS.join(', ')})`, 'sort');
  return sort as WorkspaceSort;
}

/** Tags named in a validated `{ data: [{type: "tags", id?, attributes?: {name}}] }` list. */
const tagRefs = (data: { id?: string; attributes?: { name?: string } }[] | undefined): TagRef[] =>
  (data ?? []).map((t) => (t.id ? { id: t.id } : { name: t.attributes?.name }));

/**
 * The project a workspace document names for the workspace of `organizationName` (undefined when
 * it names none): one the caller may create workspaces in, of the same organization, else 404.
 */
export async function namedProject(
  deps: AppDeps,
  principal: Principal,
  req: Req,
  organizationName: string,
): Promise<string | undefined> {
  const id = relationshipId(req, 'project');
  if (id === undefined) return undefined;
  const { project } = await projectScope(deps.db, principal, id, 'createWorkspaces');
  if (project.organization_name !== organizationName) throw new NotFound();
  return project.id;
}

export function workspaceHandlers(deps: AppDeps) {
  const { db } = deps;
  const include = (req: Req) =>
    readInclude(req, ['organization', 'outputs', 'current_run', 'current_state_version', 'project']);

  /**
   * `include=current_run` and `include=current_state_version`: the workspaces' current runs and
   * current state versions, as the caller's access to each workspace shows them (state versions
   * only where it reads state outputs).
   */
  async function currentOf(
    workspaces: { ws: WorkspaceRow; facts?: WorkspaceFacts; access: WorkspaceAccess }[],
    grant: OrganizationGrant,
    inc: Set<string>,
  ): Promise<Resource[]> {
    const out: Resource[] = [];
    const accessOf = new Map(workspaces.map((w) => [w.ws.id, w.access]));
    if (inc.has('current_run')) {
      const ids = workspaces.map((w) => w.facts?.currentRun?.id).filter((id): id is string => Boolean(id));
      const runs = ids.length ? await runsByIds(db, ids) : [];
      out.push(...(await presentRuns(db, deps.config, runs, (r) => accessOf.get(r.workspace_id)!, grant)).data);
    }
    if (inc.has('current_state_version')) {
      const ids = workspaces
        .filter((w) => allows(w.access, 'read-state-outputs'))
        .map((w) => w.ws.current_state_version_id)
        .filter((id): id is string => Boolean(id));
      const versions = ids.length ? await stateVersionsByIds(db, ids) : [];
      const outputs = await outputsByVersion(
        db,
        versions.map((v) => v.id),
      );
      out.push(
        ...versions.map((sv) =>
          stateVersionAs(
            deps.config,
            sv,
            (outputs.get(sv.id) ?? []).map((o) => o.id),
            accessOf.get(sv.workspace_id)!,
          ),
        ),
      );
    }
    return out;
  }

  /** `include=project`: the workspace's project, as the caller may use it. */
  async function projectOf(ws: WorkspaceRow, grant: OrganizationGrant, inc: Set<string>) {
    if (!inc.has('project')) return [];
    const [project, access, counts] = await Promise.all([
      findProject(db, ws.project_id),
      projectAccess(db, grant, ws.project_id),
      projectCounts(db, [ws.project_id]),
    ]);
    return project && access ? [projectResource(project, access, counts.get(project.id) ?? NO_COUNTS)] : [];
  }

  /** `include=outputs`: the current state's outputs of each workspace whose outputs the caller reads (values of sensitive ones withheld). */
  async function outputsOf(ids: string[], inc: Set<string>) {
    const outputs = inc.has('outputs') ? await currentOutputsOf(db, ids) : null;
    return {
      idsOf: (id: string) => outputs?.get(id)?.map((o) => o.id),
      included: outputs
        ? [...outputs.values()].flat().map((o) => workspaceOutputResource(o, o.sensitive ? null : JSON.parse(o.value)))
        : [],
    };
  }

  /** The repository settings a request's `vcs-repo` gives a workspace (see vcsRepoSettings), or undefined when it names none. */
  async function repositoryOf(
    req: Req,
    organizationName: string,
    current: WorkspaceRow | null,
    projectId: string | null,
  ) {
    const attrs = attributesOf(req);
    if (!('vcs-repo' in attrs)) return undefined;
    const input = attrs['vcs-repo'] as VcsRepoInput | null;
    return vcsRepoSettings(deps, organizationName, input, current?.vcs_repo ?? null, projectId);
  }

  /** Changes a workspace's settings and repository; the provider's webhooks follow (see syncHooksAfter). */
  async function changeRepositoryAndSettings(req: Req, ws: WorkspaceRow, settings: WorkspaceSettings) {
    const repo = await repositoryOf(req, ws.organization_name, ws, settings.project_id ?? ws.project_id);
    const updated = await changeWorkspace(deps, ws, { ...settings, ...repo });
    if (repo) await syncHooksAfter(deps, [ws.vcs_hook_id, updated.vcs_hook_id]);
    return updated;
  }

  /** Answers with the workspace document; `known`: the workspace's facts when the caller has them (else they are read). */
  async function respond(
    res: Response,
    status: number,
    ws: WorkspaceRow,
    scope: WorkspaceScope,
    inc: Set<string>,
    known?: WorkspaceFacts,
  ) {
    const facts = async () => known ?? (await workspaceFacts(db, [ws.id])).get(ws.id);
    const [org, tags, outputs, project] = await Promise.all([
      inc.has('organization') ? findOrganization(db, ws.organization_name) : null,
      facts(),
      outputsOf(allows(scope.access, 'read-state-outputs') ? [ws.id] : [], inc),
      projectOf(ws, scope.grant, inc),
    ]);
    const current = await currentOf([{ ws, facts: tags, access: scope.access }], scope.grant, inc);
    const included = [
      ...(org ? [organizationResource(org, scope.grant)] : []),
      ...outputs.included,
      ...current,
      ...project,
    ];
    sendResource(
      res,
      status,
      workspaceResource(ws, scope.access, tags, outputs.idsOf(ws.id)),
      included.length ? included : undefined,
    );
  }

  return {
    async create(req: Req, res: Response) {
      const { org, grant } = await orgScope(
        db,
        res.locals.principal,
        req.params.org,
        undefined,
        res.locals.earlyGuardRead,
      );
      // Creating needs manage-workspaces, or, in a project named, the project's workspace-create permission.
      const projectId = await namedProject(deps, res.locals.principal, req, org.name);
      if (!projectId && !grant.permissions['manage-workspaces']) throw new NotFound();
      const inc = include(req);
      const settings = { ...settingsFrom(attributesOf(req)), ...(projectId ? { project_id: projectId } : {}) };
      const relationships = (
        req.body as {
          data: { relationships?: { tags?: { data?: { id?: string; attributes?: { name?: string } }[] } } };
        }
      ).data.relationships;
      const tags = tagRefs(relationships?.tags?.data);
      const repo = await repositoryOf(req, org.name, null, projectId ?? null);
      const ws = await createWorkspace(deps, org.name, { ...settings, ...repo, name: settings.name! }, tags);
      if (repo) await syncHooksAfter(deps, [ws.vcs_hook_id]);
      // A new workspace has no runs and no state; without tags given, nothing of its facts need be read.
      const facts = tags.length ? undefined : NO_FACTS;
      const access = grant.permissions['manage-workspaces']
        ? FULL_WORKSPACE_ACCESS
        : ((await workspaceAccess(db, grant, ws.id)) ?? accessOfLevel('read'));
      await respond(res, 201, ws, { workspace: ws, grant, access }, inc, facts);
    },

    async list(req: Req, res: Response) {
      const { org, grant } = await orgScope(
        db,
        res.locals.principal,
        req.params.org,
        undefined,
        res.locals.earlyGuardRead,
      );
      const inc = include(req);
      const page = readPageOrDefault(req);
      const names = (key: string) =>
        (readParam(req, key) ?? '')
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean);
      const { rows: visible, access } = await visibleWorkspaces(
        db,
        org.name,
        grant,
        readParam(req, 'search[name]') || null,
        {
          projectId: readParam(req, 'filter[project][id]') || undefined,
          tags: names('search[tags]'),
          excludeTags: names('search[exclude-tags]'),
          wildcard: readParam(req, 'search[wildcard-name]') || undefined,
          currentRunStatuses: names('filter[current-run][status]'),
          sort: readSort(req),
        },
      );
      const slice = sliceOf(visible, page);
      const [tags, outputs] = await Promise.all([
        workspaceFacts(
          db,
          slice.map((ws) => ws.id),
        ),
        outputsOf(
          slice.filter((ws) => allows(access.get(ws.id)!, 'read-state-outputs')).map((ws) => ws.id),
          inc,
        ),
      ]);
      const current = await currentOf(
        slice.map((ws) => ({ ws, facts: tags.get(ws.id), access: access.get(ws.id)! })),
        grant,
        inc,
      );
      const extra = [
        ...(inc.has('organization') && slice.length ? [organizationResource(org, grant)] : []),
        ...outputs.included,
        ...current,
      ];
      const data = slice.map((ws) => workspaceResource(ws, access.get(ws.id)!, tags.get(ws.id), outputs.idsOf(ws.id)));
      send(res, 200, { data, ...(extra.length ? { included: extra } : {}), ...paginate(req, page, visible.length) });
    },

    async showByName(req: Req, res: Response) {
      const principal = res.locals.principal;
      if (principal.kind === 'run') {
        // A run token sees a workspace whose state it may read (the `remote` backend looks it up
        // by name), with read permissions; `include` is ignored.
        const ws = await stateReadableByRun(
          deps,
          principal,
          await findWorkspaceByName(db, req.params.org, req.params.name),
        );
        return void sendResource(
          res,
          200,
          workspaceResource(ws, accessOfLevel('read'), (await workspaceFacts(db, [ws.id])).get(ws.id)),
        );
      }
      const { facts, ...scope } = await workspaceScopeByNameWithFacts(
        db,
        principal,
        req.params.org,
        req.params.name,
        'read',
        res.locals.earlyGuardRead,
      );
      await respond(res, 200, scope.workspace, scope, include(req), facts);
    },

    async show(req: Req, res: Response) {
      // The facts come with the access check, and are shown only once it has passed.
      const { facts, ...scope } = await workspaceScopeWithFacts(
        db,
        res.locals.principal,
        req.params.id,
        'read',
        res.locals.earlyGuardRead,
      );
      await respond(res, 200, scope.workspace, scope, include(req), facts);
    },

    async update(req: Req, res: Response) {
      const scope = await workspaceScopeById(db, res.locals.principal, req.params.id, 'admin');
      const ws = scope.workspace;
      const inc = include(req);
      const projectId = await namedProject(deps, res.locals.principal, req, ws.organization_name);
      const settings = { ...settingsFrom(attributesOf(req)), ...(projectId ? { project_id: projectId } : {}) };
      const updated = await changeRepositoryAndSettings(req, ws, settings);
      await respond(res, 200, updated, scope, inc);
    },

    /** PATCH /organizations/:org/workspaces/:name: the same change as by id, the workspace named. */
    async updateByName(req: Req, res: Response) {
      const ws = await findWorkspaceByName(db, req.params.org, req.params.name);
      if (!ws) throw new NotFound();
      const scope = await workspaceScope(db, res.locals.principal, ws, 'admin');
      const projectId = await namedProject(deps, res.locals.principal, req, ws.organization_name);
      const updated = await changeRepositoryAndSettings(req, scope.workspace, {
        ...settingsFrom(attributesOf(req)),
        ...(projectId ? { project_id: projectId } : {}),
      });
      await respond(res, 200, updated, scope, include(req));
    },

    async destroy(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'admin');
      await deleteWorkspace(db, workspace.id);
      await syncHooksAfter(deps, [workspace.vcs_hook_id]);
      res.status(204).end();
    },

    /** PATCH /workspaces/:id/relationships/ssh-key (admin access): the key named by the `id` attribute, or none for null. */
    async assignSshKey(req: Req, res: Response) {
      const scope = await workspaceScopeById(db, res.locals.principal, req.params.id, 'admin');
      const updated = await assignSshKey(deps, scope.workspace, (attributesOf(req) as { id: string | null }).id);
      await respond(res, 200, updated, scope, include(req));
    },

    /** POST /workspaces/:id/actions/lock (the workspace-locking permission), with an optional `reason`. */
    async lock(req: Req, res: Response) {
      const scope = await workspaceScopeById(db, res.locals.principal, req.params.id, 'lock');
      const reason = (req.body as { reason?: unknown } | undefined)?.reason;
      const ws = await lockWorkspace(
        deps,
        scope.workspace.id,
        res.locals.principal,
        typeof reason === 'string' ? reason : null,
      );
      await respond(res, 200, ws, scope, include(req));
    },

    /** POST /workspaces/:id/actions/unlock (the workspace-locking permission; the lock's holder only). */
    async unlock(req: Req, res: Response) {
      const scope = await workspaceScopeById(db, res.locals.principal, req.params.id, 'lock');
      await respond(
        res,
        200,
        await unlockWorkspace(deps, scope.workspace.id, res.locals.principal, false),
        scope,
        include(req),
      );
    },

    /** POST /workspaces/:id/actions/force-unlock (admin access; whoever holds the lock). */
    async forceUnlock(req: Req, res: Response) {
      const scope = await workspaceScopeById(db, res.locals.principal, req.params.id, 'admin');
      await respond(
        res,
        200,
        await unlockWorkspace(deps, scope.workspace.id, res.locals.principal, true),
        scope,
        include(req),
      );
    },

    async destroyByName(req: Req, res: Response) {
      const ws = await findWorkspaceByName(db, req.params.org, req.params.name);
      if (!ws) throw new NotFound();
      await workspaceScope(db, res.locals.principal, ws, 'admin');
      await deleteWorkspace(db, ws.id);
      await syncHooksAfter(deps, [ws.vcs_hook_id]);
      res.status(204).end();
    },

    /** GET /workspaces/:id/relationships/tags: the workspace's tags, in the order they were added. */
    async listTags(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id);
      const page = readPageOrDefault(req);
      const { rows, total } = await workspaceTagsPage(db, workspace.id, page);
      send(res, 200, { data: rows.map((t) => tagResource(t)), ...paginate(req, page, total) });
    },

    /** POST /workspaces/:id/relationships/tags (admin access): adds tags by name or id. */
    async addTags(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'admin');
      await addWorkspaceTags(
        deps,
        workspace,
        tagRefs((req.body as { data: { id?: string; attributes?: { name?: string } }[] }).data),
      );
      res.status(204).end();
    },

    /** DELETE /workspaces/:id/relationships/tags (admin access): removes tags by name or id. */
    async removeTags(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'admin');
      await removeWorkspaceTags(
        deps,
        workspace,
        tagRefs((req.body as { data: { id?: string; attributes?: { name?: string } }[] }).data),
      );
      res.status(204).end();
    },

    /** GET /organizations/:org/tags: the organization's tags with how many workspaces carry each. */
    async organizationTags(req: Req, res: Response) {
      const { org } = await orgScope(db, res.locals.principal, req.params.org);
      const page = readPageOrDefault(req);
      const { rows, total } = await organizationTagsPage(db, org.name, readParam(req, 'q') || null, page);
      send(res, 200, { data: rows.map((t) => tagResource(t, t.instance_count)), ...paginate(req, page, total) });
    },

    /** DELETE /organizations/:org/tags (manage-workspaces): deletes tags by id. */
    async deleteOrganizationTags(req: Req, res: Response) {
      const { org } = await orgScope(db, res.locals.principal, req.params.org, 'manage-workspaces');
      await deleteOrganizationTags(deps, org.name, linkageIds(req));
      res.status(204).end();
    },

    /** POST /tags/:id/relationships/workspaces (manage-workspaces in the tag's organization): tags workspaces. */
    async tagWorkspaces(req: Req, res: Response) {
      const tag = await findTag(db, req.params.id);
      if (!tag) throw new NotFound();
      await orgScope(db, res.locals.principal, tag.organization_name, 'manage-workspaces');
      await tagWorkspaces(deps, tag, linkageIds(req));
      res.status(204).end();
    },

    /** POST /workspaces/:id/actions/safe-delete (admin access): deletes the workspace unless it is locked or manages resources. */
    async safeDelete(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'admin');
      await safeDeleteWorkspace(deps, workspace);
      await syncHooksAfter(deps, [workspace.vcs_hook_id]);
      res.status(204).end();
    },

    /** POST /organizations/:org/workspaces/:name/actions/safe-delete: the same, the workspace named. */
    async safeDeleteByName(req: Req, res: Response) {
      const ws = await findWorkspaceByName(db, req.params.org, req.params.name);
      if (!ws) throw new NotFound();
      const { workspace } = await workspaceScope(db, res.locals.principal, ws, 'admin');
      await safeDeleteWorkspace(deps, workspace);
      await syncHooksAfter(deps, [workspace.vcs_hook_id]);
      res.status(204).end();
    },
  };
}
