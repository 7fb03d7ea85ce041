import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound } from '../../shared/platform/errors.js';
import { FULL_WORKSPACE_ACCESS, accessOfLevel, workspaceAccess } from '../../shared/identity/access.queries.js';
import {
  changeNoCodeModule,
  type NoCodeInput,
  type NoCodeModuleRow,
  offerNoCodeModule,
  type ProvisionedVariable,
  provisionWorkspace,
  removeNoCodeModule,
  variableOptionsOf,
} from '../../shared/registry/index.js';
import { workspaceFacts } from '../../shared/workspaces/queries.js';
import { noCodeModuleScope, orgScope } from '../guards.js';
import { readInclude, sendResource } from '../jsonapi.js';
import { noCodeModuleResource, variableOptionResource } from '../serializers/no-code-modules.js';
import { workspaceResource } from '../serializers/foundation.js';
import { attributesOf, relationshipId, type Req } from './body.js';
import { namedProject, settingsFrom } from './workspaces.js';

type OptionDoc = { attributes: { 'variable-name': string; 'variable-type'?: string; options?: string[] } };

/** What a (validated) request sets on a no-code module. */
function inputOf(req: Req): NoCodeInput & { registryModuleId?: string } {
  const attrs = attributesOf(req) as { enabled?: boolean; 'version-pin'?: string | null };
  const options = (req.body as { data: { relationships?: { 'variable-options'?: { data: OptionDoc[] } } } }).data
    .relationships?.['variable-options']?.data;
  return {
    enabled: attrs.enabled,
    versionPin: attrs['version-pin'],
    variableOptions: options?.map((o) => ({
      variable_name: o.attributes['variable-name'],
      variable_type: o.attributes['variable-type'] ?? 'string',
      options: o.attributes.options ?? [],
    })),
    registryModuleId: relationshipId(req, 'registry-module'),
  };
}

/** The variables of a (validated) provisioning request's `vars` relationship. */
const variablesOf = (req: Req): ProvisionedVariable[] =>
  (
    (req.body as { data: { relationships?: { vars?: { data: { attributes: ProvisionedVariable }[] } } } }).data
      .relationships?.vars?.data ?? []
  ).map((v) => v.attributes);

/** No-code modules: members see them, manage-modules offers and changes them; provisioning a workspace takes what creating one does. */
export function noCodeModuleHandlers(deps: AppDeps) {
  const { db } = deps;
  // The variable options always come along (go-tfe asks with include=variable-options; the rest read their ids).
  const answer = async (req: Req, res: Response, status: number, ncm: NoCodeModuleRow) => {
    readInclude(req, ['variable-options', 'variable_options']);
    const options = await variableOptionsOf(db, [ncm.id]);
    sendResource(res, status, noCodeModuleResource(ncm, options), options.map(variableOptionResource));
  };

  return {
    async create(req: Req, res: Response) {
      const { org } = await orgScope(db, res.locals.principal, req.params.org, 'manage-modules');
      const { registryModuleId, ...input } = inputOf(req);
      await answer(req, res, 201, await offerNoCodeModule(db, org.name, registryModuleId!, input));
    },

    async show(req: Req, res: Response) {
      await answer(req, res, 200, (await noCodeModuleScope(db, res.locals.principal, req.params.id)).ncm);
    },

    async update(req: Req, res: Response) {
      const { ncm } = await noCodeModuleScope(db, res.locals.principal, req.params.id, true);
      await answer(req, res, 200, await changeNoCodeModule(deps, ncm, inputOf(req)));
    },

    async destroy(req: Req, res: Response) {
      const { ncm } = await noCodeModuleScope(db, res.locals.principal, req.params.id, true);
      await removeNoCodeModule(deps, ncm);
      res.status(204).end();
    },

    /** POST /no-code-modules/:id/workspaces: manage-workspaces, or creating workspaces in the project named, as creating a workspace. */
    async provision(req: Req, res: Response) {
      const principal = res.locals.principal;
      const { ncm, grant } = await noCodeModuleScope(db, principal, req.params.id);
      const projectId = await namedProject(deps, principal, req, ncm.organization_name);
      if (!projectId && !grant.permissions['manage-workspaces']) throw new NotFound();
      const settings = { ...settingsFrom(attributesOf(req)), ...(projectId ? { project_id: projectId } : {}) };
      const ws = await provisionWorkspace(deps, ncm, {
        settings: { ...settings, name: settings.name! },
        variables: variablesOf(req),
        createdById: principal.kind === 'user' ? principal.user.id : null,
      });
      const access = grant.permissions['manage-workspaces']
        ? FULL_WORKSPACE_ACCESS
        : ((await workspaceAccess(db, grant, ws.id)) ?? accessOfLevel('read'));
      sendResource(res, 201, workspaceResource(ws, access, (await workspaceFacts(db, [ws.id])).get(ws.id)));
    },
  };
}
