import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { BadRequest, NotFound } from '../../shared/platform/errors.js';
import {
  changeProject,
  changeTeamProject,
  createProject,
  deleteTeamProject,
  findTeamProject,
  grantTeamProject,
  type ProjectRow,
  type ProjectSettings,
  removeProject,
  type TagBinding,
  type TeamProjectRequest,
  type TeamProjectRow,
  teamProjectsOf,
} from '../../shared/projects/index.js';
import { NO_COUNTS, projectCounts, visibleProjects } from '../../shared/projects/queries.js';
import type { ProjectAccess } from '../../shared/identity/access.queries.js';
import { orgScope, projectScope, teamScope, type ProjectScope } from '../guards.js';
import { paginate, readInclude, readPageOrDefault, readParam, send, sendResource, sliceOf } from '../jsonapi.js';
import { attributesOf, relationshipId, type Req } from './body.js';
import { effectiveTagBindingResources, projectResource, teamProjectResource } from '../serializers/projects.js';

/** The settings a validated project document gives: name, description, tag bindings. */
function settingsFrom(req: Req): ProjectSettings {
  const attrs = attributesOf(req) as { name?: string; description?: string | null };
  const bindings = (
    req.body as {
      data: { relationships?: { 'tag-bindings'?: { data?: { attributes: { key: string; value?: string } }[] } } };
    }
  ).data.relationships?.['tag-bindings']?.data;
  const out: ProjectSettings = {};
  if (attrs.name !== undefined) out.name = attrs.name;
  if ('description' in attrs) out.description = attrs.description ?? '';
  // A later binding of the same key replaces an earlier one.
  if (bindings)
    out.tag_bindings = [
      ...new Map(
        bindings.map((b) => [
          b.attributes.key,
          { key: b.attributes.key, value: b.attributes.value ?? '' } as TagBinding,
        ]),
      ).values(),
    ];
  return out;
}

/** What a validated team-project document gives. */
function teamProjectRequestOf(req: Req): Partial<TeamProjectRequest> {
  const attrs = attributesOf(req) as {
    access?: TeamProjectRequest['access'];
    'project-access'?: TeamProjectRequest['project'];
    'workspace-access'?: TeamProjectRequest['workspace'];
  };
  return { access: attrs.access, project: attrs['project-access'], workspace: attrs['workspace-access'] };
}

export function projectHandlers(deps: AppDeps) {
  const { db } = deps;
  const bindingsIncluded = (req: Req) => readInclude(req, ['effective_tag_bindings']).has('effective_tag_bindings');

  async function respond(req: Req, res: Response, status: number, project: ProjectRow, access: ProjectAccess) {
    const withBindings = bindingsIncluded(req);
    const counts = (await projectCounts(db, [project.id])).get(project.id) ?? NO_COUNTS;
    sendResource(
      res,
      status,
      projectResource(project, access, counts, withBindings),
      withBindings ? effectiveTagBindingResources(project) : undefined,
    );
  }

  /** A team's project access the caller may see: all of a project's for its team managers, else those of the caller's own teams. */
  async function teamProjectScope(
    req: Req,
    res: Response,
    need?: 'manageTeams',
  ): Promise<{ row: TeamProjectRow; scope: ProjectScope }> {
    const row = await findTeamProject(db, req.params.id);
    if (!row) throw new NotFound();
    const scope = await projectScope(db, res.locals.principal, row.project_id, need);
    if (!scope.access.manageTeams && !scope.grant.teamIds.includes(row.team_id)) throw new NotFound();
    return { row, scope };
  }

  return {
    async create(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org);
      if (!grant.isOwner && !grant.permissions['manage-projects']) throw new NotFound();
      const settings = settingsFrom(req);
      const project = await createProject(deps, org.name, { ...settings, name: settings.name! });
      await respond(req, res, 201, project, { change: true, manageTeams: true, createWorkspaces: true });
    },

    async list(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org);
      const withBindings = bindingsIncluded(req);
      const page = readPageOrDefault(req);
      const names = (readParam(req, 'filter[names]') ?? '')
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      const { rows, access } = await visibleProjects(db, org.name, grant, {
        query: readParam(req, 'q') || undefined,
        names,
      });
      const slice = sliceOf(rows, page);
      const counts = await projectCounts(
        db,
        slice.map((p) => p.id),
      );
      const data = slice.map((p) => projectResource(p, access.get(p.id)!, counts.get(p.id) ?? NO_COUNTS, withBindings));
      const included = withBindings ? slice.flatMap(effectiveTagBindingResources) : [];
      send(res, 200, { data, ...(included.length ? { included } : {}), ...paginate(req, page, rows.length) });
    },

    async show(req: Req, res: Response) {
      const { project, access } = await projectScope(db, res.locals.principal, req.params.id);
      await respond(req, res, 200, project, access);
    },

    async update(req: Req, res: Response) {
      const { project, access } = await projectScope(db, res.locals.principal, req.params.id, 'change');
      await respond(req, res, 200, await changeProject(deps, project, settingsFrom(req)), access);
    },

    async destroy(req: Req, res: Response) {
      const { project } = await projectScope(db, res.locals.principal, req.params.id, 'change');
      await removeProject(deps, project);
      res.status(204).end();
    },

    async listTeamProjects(req: Req, res: Response) {
      const projectId = readParam(req, 'filter[project][id]');
      if (!projectId) throw new BadRequest('filter[project][id] is required', 'filter[project][id]');
      const { access, grant } = await projectScope(db, res.locals.principal, projectId);
      const page = readPageOrDefault(req);
      const rows = (await teamProjectsOf(db, projectId)).filter(
        (r) => access.manageTeams || grant.teamIds.includes(r.team_id),
      );
      send(res, 200, { data: sliceOf(rows, page).map(teamProjectResource), ...paginate(req, page, rows.length) });
    },

    async createTeamProject(req: Req, res: Response) {
      const { project } = await projectScope(db, res.locals.principal, relationshipId(req, 'project')!, 'manageTeams');
      const { team } = await teamScope(db, res.locals.principal, relationshipId(req, 'team')!);
      if (team.organization_name !== project.organization_name) throw new NotFound();
      const given = teamProjectRequestOf(req) as TeamProjectRequest;
      sendResource(res, 201, teamProjectResource(await grantTeamProject(deps, team.id, project, given)));
    },

    async showTeamProject(req: Req, res: Response) {
      sendResource(res, 200, teamProjectResource((await teamProjectScope(req, res)).row));
    },

    async updateTeamProject(req: Req, res: Response) {
      const { row } = await teamProjectScope(req, res, 'manageTeams');
      sendResource(res, 200, teamProjectResource(await changeTeamProject(deps, row, teamProjectRequestOf(req))));
    },

    async destroyTeamProject(req: Req, res: Response) {
      const { row } = await teamProjectScope(req, res, 'manageTeams');
      await deleteTeamProject(db, row.id);
      res.status(204).end();
    },
  };
}
