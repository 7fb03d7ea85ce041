import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import type { Db } from '../../shared/db.js';
import { NotFound, Unprocessable } from '../../shared/errors.js';
import type { PolicyKind, Problem } from '../../shared/domain/policy.js';
import {
  attachWorkspaces,
  detachWorkspaces,
  findPolicySet,
  insertPolicySet,
  unlinkPolicies,
  updatePolicySet,
  type PolicySetRow,
} from '../../shared/repos/policies.js';
import { addPoliciesToSets, assertNameFree, assertRoomForPolicySet, namedPolicies, namedWorkspaces } from '../../shared/usecases/policy-sets.js';
import { orgScope } from '../guards.js';
import { readInclude, sendResource } from '../jsonapi.js';
import { attributesOf, linkageIds, relationshipIds, type Req } from './body.js';
import { namedPage, policySetDocuments, sendPage } from './policy-documents.js';

type Attrs = { name?: string; description?: string | null; kind?: PolicyKind; global?: boolean; overridable?: boolean };

const INCLUDES = ['policies', 'workspaces'];

/** `overridable` is for opa sets; a Sentinel policy is overridable through its soft-mandatory level instead. */
const overridableProblem = (kind: PolicyKind, overridable: boolean | undefined): Problem[] =>
  overridable && kind === 'sentinel'
    ? [{ detail: 'overridable applies to opa policy sets only; sentinel policies are overridable when soft-mandatory', pointer: '/data/attributes/overridable' }]
    : [];

const globalHasNoWorkspaces = (pointer: string) =>
  new Unprocessable('a global policy set applies to every workspace; workspaces cannot be attached to it', pointer);

const elementOf = (relationship: string) => (i: number) => `/data/relationships/${relationship}/data/${i}/id`;
const listElement = (i: number) => `/data/${i}/id`;

/** Policy sets of an organization and what they hold. Members read them; changes need manage-policies. */
export function policySetHandlers({ db, config }: AppDeps) {
  const free = config.edition === 'free';

  async function load(req: Req, res: Response, manage = false) {
    const set = await findPolicySet(db, req.params.id);
    if (!set) throw new NotFound();
    const { grant } = await orgScope(db, res.locals.principal, set.organization_name, manage ? 'manage-policies' : undefined);
    return { set, grant };
  }

  /** A relationship endpoint (`data: [{type, id}]`): every element is checked, then all change in one transaction; 204. */
  const relationship = (apply: (tx: Db, set: PolicySetRow, ids: string[]) => Promise<unknown>) => async (req: Req, res: Response) => {
    const { set } = await load(req, res, true);
    const ids = linkageIds(req);
    await db.transaction((tx) => apply(tx, set, ids));
    res.status(204).end();
  };

  return {
    async create(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org, 'manage-policies');
      const a = attributesOf(req) as Attrs & { name: string };
      const kind = a.kind ?? 'sentinel';
      const problems = overridableProblem(kind, a.overridable);
      if (problems.length) throw Unprocessable.many(problems);
      const policyIds = relationshipIds(req, 'policies') ?? [];
      const workspaceIds = relationshipIds(req, 'workspaces') ?? [];
      if (a.global && workspaceIds.length) throw globalHasNoWorkspaces('/data/relationships/workspaces');
      const set = await db.transaction(async (tx) => {
        await assertRoomForPolicySet(tx, free, org.name);
        await assertNameFree(tx, 'policy_sets', org.name, a.name);
        await namedPolicies(tx, org.name, kind, policyIds, elementOf('policies'));
        await namedWorkspaces(tx, org.name, workspaceIds, elementOf('workspaces'));
        const row = await insertPolicySet(tx, {
          organization_name: org.name,
          name: a.name,
          description: a.description ?? null,
          kind,
          global: a.global ?? false,
          overridable: a.overridable ?? false,
        });
        await addPoliciesToSets(tx, free, policyIds.map((id) => ({ policy_set_id: row.id, policy_id: id })), '/data/relationships/policies');
        await attachWorkspaces(tx, row.id, workspaceIds);
        return row;
      });
      sendResource(res, 201, (await policySetDocuments(db, grant, [set], new Set())).data[0]);
    },

    async list(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org);
      const include = readInclude(req, INCLUDES);
      const { rows, page, total } = await namedPage<PolicySetRow>(req, db('policy_sets').where({ organization_name: org.name }));
      sendPage(req, res, await policySetDocuments(db, grant, rows, include), page, total);
    },

    async show(req: Req, res: Response) {
      const { set, grant } = await load(req, res);
      const docs = await policySetDocuments(db, grant, [set], readInclude(req, INCLUDES));
      sendResource(res, 200, docs.data[0], docs.included);
    },

    /** Omitted attributes keep their value; the kind cannot change; turning global on detaches the workspaces. */
    async update(req: Req, res: Response) {
      const { set, grant } = await load(req, res, true);
      const a = attributesOf(req) as Attrs;
      const problems = overridableProblem(set.kind, a.overridable);
      if (a.kind !== undefined && a.kind !== set.kind) problems.unshift({ detail: 'kind cannot be changed', pointer: '/data/attributes/kind' });
      if (problems.length) throw Unprocessable.many(problems);
      const updated = await db.transaction(async (tx) => {
        if (a.name !== undefined) await assertNameFree(tx, 'policy_sets', set.organization_name, a.name, set.id);
        if (a.global) await detachWorkspaces(tx, set.id);
        const { name, description, global, overridable } = a;
        const changes = Object.fromEntries(Object.entries({ name, description, global, overridable }).filter(([, v]) => v !== undefined));
        return updatePolicySet(tx, set.id, changes);
      });
      sendResource(res, 200, (await policySetDocuments(db, grant, [updated], new Set())).data[0]);
    },

    async destroy(req: Req, res: Response) {
      const { set } = await load(req, res, true);
      await db('policy_sets').where({ id: set.id }).del();
      res.status(204).end();
    },

    addPolicies: relationship(async (tx, set, ids) => {
      await namedPolicies(tx, set.organization_name, set.kind, ids, listElement);
      await addPoliciesToSets(tx, free, ids.map((id) => ({ policy_set_id: set.id, policy_id: id })), '/data');
    }),

    removePolicies: relationship(async (tx, set, ids) => {
      await namedPolicies(tx, set.organization_name, set.kind, ids, listElement);
      await unlinkPolicies(tx, set.id, ids);
    }),

    addWorkspaces: relationship(async (tx, set, ids) => {
      if (set.global) throw globalHasNoWorkspaces('/data');
      await namedWorkspaces(tx, set.organization_name, ids, listElement);
      await attachWorkspaces(tx, set.id, ids);
    }),

    removeWorkspaces: relationship(async (tx, set, ids) => {
      await namedWorkspaces(tx, set.organization_name, ids, listElement);
      await detachWorkspaces(tx, set.id, ids);
    }),
  };
}
