import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound } from '../../shared/platform/errors.js';
import {
  changeOrganization,
  createOrganization,
  deleteOrganization,
  findOrganization,
  type OrganizationRow,
  type OrganizationSettings,
} from '../../shared/organizations/index.js';
import { organizationsPage } from '../../shared/organizations/queries.js';
import { organizationGrant, fullAccess, projectAccess } from '../../shared/identity/access.queries.js';
import { defaultProjectOf } from '../../shared/projects/index.js';
import { NO_COUNTS, projectCounts } from '../../shared/projects/queries.js';
import { projectResource } from '../serializers/projects.js';
import { orgScope } from '../guards.js';
import { one, paginate, readInclude, readPageOrDefault, send, sendResource } from '../jsonapi.js';
import { attributesOf, nullableRelationshipId, type Req } from './body.js';
import { entitlementSetResource, organizationResource } from '../serializers/foundation.js';

type OrganizationAttrs = {
  name?: string;
  email?: string;
  'default-execution-mode'?: OrganizationRow['default_execution_mode'];
  'session-timeout'?: number | null;
  'session-remember'?: number | null;
  'allow-force-delete-workspaces'?: boolean;
  'speculative-runs-withhold-secrets'?: boolean;
};

/** The settings a request names (omitted ones stay as they are). */
const settingsOf = (a: OrganizationAttrs): OrganizationSettings => ({
  default_execution_mode: a['default-execution-mode'],
  session_timeout: a['session-timeout'],
  session_remember: a['session-remember'],
  allow_force_delete_workspaces: a['allow-force-delete-workspaces'],
  speculative_runs_withhold_secrets: a['speculative-runs-withhold-secrets'],
});

export function organizationHandlers(deps: AppDeps) {
  const { db, config } = deps;
  return {
    async create(req: Req, res: Response) {
      const principal = res.locals.principal;
      if (principal.kind !== 'user') throw new NotFound();
      const attrs = attributesOf(req) as OrganizationAttrs & { name: string; email: string };
      const org = await createOrganization(
        deps,
        { name: attrs.name, email: attrs.email, ...settingsOf(attrs) },
        principal.user,
      );
      sendResource(
        res,
        201,
        organizationResource(org, {
          organizationName: org.name,
          isOwner: true,
          permissions: fullAccess(),
          teamIds: [],
        }),
      );
    },

    async list(req: Req, res: Response) {
      const principal = res.locals.principal;
      const page = readPageOrDefault(req);
      const { rows, total: count } = await organizationsPage(db, principal, page);
      const data = await Promise.all(
        rows.map(async (org) => organizationResource(org, await organizationGrant(db, principal, org.name))),
      );
      send(res, 200, { data, ...paginate(req, page, Number(count)) });
    },

    /** GET /organizations/:org; `include=default-project` adds its default project (as the caller may use it). */
    async show(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org);
      const doc = organizationResource(org, grant);
      if (!readInclude(req, ['default_project']).size) return sendResource(res, 200, doc);
      const project = await defaultProjectOf(db, org.name);
      const [access, counts] = project
        ? await Promise.all([projectAccess(db, grant, project.id), projectCounts(db, [project.id])])
        : [null, null];
      if (!project || !access) return sendResource(res, 200, doc);
      doc.relationships = { ...doc.relationships, 'default-project': one('projects', project.id) };
      sendResource(res, 200, doc, [projectResource(project, access, counts!.get(project.id) ?? NO_COUNTS)]);
    },

    async update(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org, 'owner');
      const attrs = attributesOf(req) as OrganizationAttrs;
      const pool = nullableRelationshipId(req, 'default-agent-pool');
      const updated = await changeOrganization(deps, org, {
        name: attrs.name,
        email: attrs.email,
        ...settingsOf(attrs),
        ...(pool !== undefined ? { default_agent_pool_id: pool } : {}),
      });
      sendResource(res, 200, organizationResource(updated, { ...grant, organizationName: updated.name }));
    },

    async destroy(req: Req, res: Response) {
      const { org } = await orgScope(db, res.locals.principal, req.params.org, 'owner');
      const n = await deleteOrganization(db, org.name);
      if (!n) throw new NotFound();
      res.status(204).end();
    },

    async entitlementSet(req: Req, res: Response) {
      const principal = res.locals.principal;
      // A run token reads its own organization's (the `remote` backend does before reading a state).
      const org =
        principal.kind === 'run'
          ? await (req.params.org === principal.runOrganization ? findOrganization(db, req.params.org) : undefined)
          : (await orgScope(db, principal, req.params.org, undefined, res.locals.earlyGuardRead)).org;
      if (!org) throw new NotFound();
      sendResource(res, 200, entitlementSetResource(org, config));
    },
  };
}
