import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound, Unprocessable } from '../../shared/platform/errors.js';
import type { PolicyKind } from '../../shared/policies/rules.js';
import {
  changeParameter,
  changePolicySet,
  changeSetMembers,
  createParameter,
  createPolicySet,
  createPolicySetVersion,
  findParameter,
  findPolicySet,
  findPolicySetVersion,
  globalHasNoWorkspaces,
  type ParameterInput,
  parametersOf,
  type PolicySetRow,
  type PolicySetVersionSummary,
  removeParameter,
  removePolicySet,
  type SetMembership,
} from '../../shared/policies/index.js';
import { applyToProjects, removeFromProjects } from '../../shared/projects/index.js';
import { orgScope } from '../guards.js';
import type { OrganizationGrant } from '../../shared/identity/access.queries.js';
import { policySetParameterResource, policySetVersionDocument } from '../serializers/policies.js';
import { readInclude, send, sendResource } from '../jsonapi.js';
import { attributesOf, linkageIds, relationshipIds, type Req } from './body.js';
import { namedPage, policySetDocuments, sendPage } from './policy-documents.js';

type Attrs = {
  name?: string;
  description?: string | null;
  kind?: PolicyKind;
  global?: boolean;
  overridable?: boolean;
  'agent-enabled'?: boolean;
  'policy-tool-version'?: string;
};

const INCLUDES = ['policies', 'workspaces', 'workspace_exclusions', 'newest_version', 'current_version'];

/** Policy sets of an organization and what they hold. Members read them; changes need manage-policies. */
export function policySetHandlers(deps: AppDeps) {
  const { db, config } = deps;
  const free = config.edition === 'free';

  async function load(req: Req, res: Response, manage = false) {
    const set = await findPolicySet(db, req.params.id);
    if (!set) throw new NotFound();
    const { grant } = await orgScope(
      db,
      res.locals.principal,
      set.organization_name,
      manage ? 'manage-policies' : undefined,
    );
    return { set, grant };
  }

  /** A relationship endpoint (`data: [{type, id}]`): every element is checked, then all change in one transaction; 204. */
  const relationship = (change: SetMembership) => async (req: Req, res: Response) => {
    const { set } = await load(req, res, true);
    await changeSetMembers(db, free, set, change, linkageIds(req));
    res.status(204).end();
  };

  /** A version, with its upload URL while it still takes an upload and only for a caller with manage-policies. */
  const presenterFor = (grant: OrganizationGrant) => (v: PolicySetVersionSummary) =>
    policySetVersionDocument(config, v, grant.permissions['manage-policies']);

  return {
    /** `POST /policy-sets/:id/versions` (no body): a pending version whose `links.upload` takes the bundle; 201. */
    async createVersion(req: Req, res: Response) {
      const { set, grant } = await load(req, res, true);
      sendResource(res, 201, presenterFor(grant)(await createPolicySetVersion(deps, set)));
    },

    /** Any member of the set's organization reads its versions; the upload link needs manage-policies. */
    async showVersion(req: Req, res: Response) {
      const version = await findPolicySetVersion(db, req.params.id);
      if (!version) throw new NotFound();
      const set = await findPolicySet(db, version.policy_set_id);
      if (!set) throw new NotFound();
      const { grant } = await orgScope(db, res.locals.principal, set.organization_name);
      sendResource(res, 200, presenterFor(grant)(version));
    },

    async create(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org, 'manage-policies');
      const a = attributesOf(req) as Attrs & { name: string };
      const kind = a.kind ?? 'sentinel';
      const policyIds = relationshipIds(req, 'policies') ?? [];
      const workspaceIds = relationshipIds(req, 'workspaces') ?? [];
      if (a.global && workspaceIds.length) throw globalHasNoWorkspaces({ relationship: 'workspaces' });
      const attrs = {
        name: a.name,
        description: a.description ?? null,
        kind,
        global: a.global ?? false,
        overridable: a.overridable ?? false,
        agent_enabled: a['agent-enabled'] ?? false,
        policy_tool_version: a['policy-tool-version'] ?? 'latest',
      };
      const excludedWorkspaceIds = relationshipIds(req, 'workspace-exclusions') ?? [];
      const projectIds = relationshipIds(req, 'projects') ?? [];
      const set = await createPolicySet(db, free, org.name, attrs, {
        policyIds,
        workspaceIds,
        excludedWorkspaceIds,
        projectIds,
      });
      sendResource(res, 201, (await policySetDocuments(db, grant, [set], new Set())).data[0]);
    },

    async list(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org);
      const include = readInclude(req, INCLUDES);
      const { rows, page, total } = await namedPage<PolicySetRow>(db, req, 'policy_sets', org.name);
      sendPage(req, res, await policySetDocuments(db, grant, rows, include, presenterFor(grant)), page, total);
    },

    async show(req: Req, res: Response) {
      const { set, grant } = await load(req, res);
      const docs = await policySetDocuments(db, grant, [set], readInclude(req, INCLUDES), presenterFor(grant));
      sendResource(res, 200, docs.data[0], docs.included);
    },

    /** Omitted attributes keep their value; the kind cannot change; turning global on detaches the workspaces. */
    async update(req: Req, res: Response) {
      const { set, grant } = await load(req, res, true);
      const a = attributesOf(req) as Attrs;
      if (a.kind !== undefined && a.kind !== set.kind)
        throw new Unprocessable('kind cannot be changed', { attribute: 'kind' });
      const { name, description, global, overridable } = a;
      const updated = await changePolicySet(db, set, {
        name,
        description,
        global,
        overridable,
        agent_enabled: a['agent-enabled'],
        policy_tool_version: a['policy-tool-version'],
      });
      sendResource(res, 200, (await policySetDocuments(db, grant, [updated], new Set())).data[0]);
    },

    async destroy(req: Req, res: Response) {
      const { set } = await load(req, res, true);
      await removePolicySet(db, set);
      res.status(204).end();
    },

    /** Parameters: members of the set's organization read them (sensitive values null); changes need manage-policies. */
    async listParameters(req: Req, res: Response) {
      const { set } = await load(req, res);
      send(res, 200, { data: (await parametersOf(db, set.id)).map(policySetParameterResource) });
    },

    async showParameter(req: Req, res: Response) {
      const { set } = await load(req, res);
      const row = await findParameter(db, set.id, req.params.param_id);
      if (!row) throw new NotFound('parameter not found');
      sendResource(res, 200, policySetParameterResource(row));
    },

    async createParameter(req: Req, res: Response) {
      const { set } = await load(req, res, true);
      sendResource(
        res,
        201,
        policySetParameterResource(
          await createParameter(deps, set.id, attributesOf(req) as unknown as ParameterInput & { key: string }),
        ),
      );
    },

    async updateParameter(req: Req, res: Response) {
      const { set } = await load(req, res, true);
      sendResource(
        res,
        200,
        policySetParameterResource(
          await changeParameter(deps, set.id, req.params.param_id, attributesOf(req) as ParameterInput),
        ),
      );
    },

    async destroyParameter(req: Req, res: Response) {
      const { set } = await load(req, res, true);
      await removeParameter(db, set.id, req.params.param_id);
      res.status(204).end();
    },

    addPolicies: relationship('add-policies'),
    removePolicies: relationship('remove-policies'),
    addWorkspaces: relationship('add-workspaces'),
    removeWorkspaces: relationship('remove-workspaces'),
    addWorkspaceExclusions: relationship('add-workspace-exclusions'),
    async addProjects(req: Req, res: Response) {
      const { set } = await load(req, res, true);
      await applyToProjects(db, 'policy', set, linkageIds(req));
      res.status(204).end();
    },
    async removeProjects(req: Req, res: Response) {
      const { set } = await load(req, res, true);
      await removeFromProjects(db, 'policy', set, linkageIds(req));
      res.status(204).end();
    },
    removeWorkspaceExclusions: relationship('remove-workspace-exclusions'),
  };
}
