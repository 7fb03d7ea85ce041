import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import type { VariableCategory } from '../../shared/variables/rules.js';
import { NotFound } from '../../shared/platform/errors.js';
import type { VariableSetRow } from '../../shared/variables/sets.repo.js';
import {
  applyVariableSet,
  changeVariable,
  changeVariableSet,
  createVariable,
  createVariableSet,
  removeVariable,
  removeVariableSet,
  unapplyVariableSet,
  type VariableInput,
  type VarsetInput,
} from '../../shared/variables/index.js';
import {
  projectVarsetsPage,
  varsetMembers,
  visibleVarsetsPage,
  workspaceVarsetsPage,
} from '../../shared/variables/sets.queries.js';
import { applyToProjects, removeFromProjects } from '../../shared/projects/index.js';
import { ownedVariable, setVariables } from '../../shared/variables/queries.js';
import { orgScope, projectScope, varsetScope, workspaceScopeById } from '../guards.js';
import { paginate, readPageOrDefault, readParam, send, sendResource } from '../jsonapi.js';
import { variableResource, varsetResource } from '../serializers/variables.js';
import { attributesOf, linkageIds, relationshipIds, type Req } from './body.js';

/**
 * Variable sets and their variables. Changes need manage-var-sets; members see global sets and
 * the sets that reach workspaces whose variables they read (see varsetScope).
 */
export function variableSetHandlers(deps: AppDeps) {
  const { db } = deps;

  const documents = async (sets: VariableSetRow[]) => {
    const members = await varsetMembers(
      db,
      sets.map((s) => s.id),
    );
    return sets.map((s) => varsetResource(s, members.get(s.id)!));
  };
  const one = async (res: Response, status: number, set: VariableSetRow) =>
    sendResource(res, status, (await documents([set]))[0]);
  const page = async (
    req: Req,
    res: Response,
    found: { rows: VariableSetRow[]; total: number },
    p: { number: number; size: number },
  ) => {
    const { meta, links } = paginate(req, p, found.total);
    send(res, 200, { data: await documents(found.rows), meta, links });
  };

  /** `q` narrows a list to the sets whose name contains it (any case), as TFE's lists do. */
  const listingOf = (req: Req) => ({ query: readParam(req, 'q')?.trim() || null, page: readPageOrDefault(req) });

  return {
    async list(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org);
      const listing = listingOf(req);
      await page(req, res, await visibleVarsetsPage(db, grant, org.name, listing), listing.page);
    },

    /** GET /workspaces/:id/varsets: the sets that reach a workspace whose variables the caller reads. */
    async listForWorkspace(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'read-variables');
      const listing = listingOf(req);
      await page(
        req,
        res,
        await workspaceVarsetsPage(db, workspace.id, workspace.organization_name, listing),
        listing.page,
      );
    },

    /** GET /projects/:id/varsets: the sets applied to a project the caller sees. */
    async listForProject(req: Req, res: Response) {
      const { project } = await projectScope(db, res.locals.principal, req.params.id);
      const listing = listingOf(req);
      await page(req, res, await projectVarsetsPage(db, project.id, listing), listing.page);
    },

    async create(req: Req, res: Response) {
      const { org } = await orgScope(db, res.locals.principal, req.params.org, 'manage-var-sets');
      const set = await createVariableSet(
        db,
        org.name,
        attributesOf(req) as unknown as VarsetInput & { name: string },
        relationshipIds(req, 'workspaces') ?? [],
      );
      await one(res, 201, set);
    },

    async show(req: Req, res: Response) {
      const { set } = await varsetScope(db, res.locals.principal, req.params.id);
      await one(res, 200, set);
    },

    async update(req: Req, res: Response) {
      const { set } = await varsetScope(db, res.locals.principal, req.params.id, true);
      await one(
        res,
        200,
        await changeVariableSet(db, set, attributesOf(req) as VarsetInput, relationshipIds(req, 'workspaces')),
      );
    },

    async destroy(req: Req, res: Response) {
      const { set } = await varsetScope(db, res.locals.principal, req.params.id, true);
      await removeVariableSet(db, set);
      res.status(204).end();
    },

    async listVariables(req: Req, res: Response) {
      const { set } = await varsetScope(db, res.locals.principal, req.params.id);
      send(res, 200, { data: (await setVariables(db, set.id)).map(variableResource) });
    },

    /** One variable of the set, with the same access as the list (a sensitive value is null). */
    async showVariable(req: Req, res: Response) {
      const { set } = await varsetScope(db, res.locals.principal, req.params.id);
      const row = await ownedVariable(db, { variable_set_id: set.id }, req.params.var_id);
      if (!row) throw new NotFound('variable not found');
      sendResource(res, 200, variableResource(row));
    },

    async createVariable(req: Req, res: Response) {
      const { set } = await varsetScope(db, res.locals.principal, req.params.id, true);
      const row = await createVariable(
        deps,
        { variable_set_id: set.id },
        attributesOf(req) as unknown as VariableInput & { key: string; category: VariableCategory },
      );
      sendResource(res, 201, variableResource(row));
    },

    async updateVariable(req: Req, res: Response) {
      const { set } = await varsetScope(db, res.locals.principal, req.params.id, true);
      sendResource(
        res,
        200,
        variableResource(
          await changeVariable(
            deps,
            { variable_set_id: set.id },
            req.params.var_id,
            attributesOf(req) as VariableInput,
          ),
        ),
      );
    },

    async destroyVariable(req: Req, res: Response) {
      const { set } = await varsetScope(db, res.locals.principal, req.params.id, true);
      await removeVariable(db, { variable_set_id: set.id }, req.params.var_id);
      res.status(204).end();
    },

    async applyToWorkspaces(req: Req, res: Response) {
      const { set } = await varsetScope(db, res.locals.principal, req.params.id, true);
      await applyVariableSet(db, set, linkageIds(req));
      res.status(204).end();
    },

    async applyToProjects(req: Req, res: Response) {
      const { set } = await varsetScope(db, res.locals.principal, req.params.id, true);
      await applyToProjects(db, 'variable', set, linkageIds(req));
      res.status(204).end();
    },

    async removeFromProjects(req: Req, res: Response) {
      const { set } = await varsetScope(db, res.locals.principal, req.params.id, true);
      await removeFromProjects(db, 'variable', set, linkageIds(req));
      res.status(204).end();
    },

    async removeFromWorkspaces(req: Req, res: Response) {
      const { set } = await varsetScope(db, res.locals.principal, req.params.id, true);
      await unapplyVariableSet(db, set, linkageIds(req));
      res.status(204).end();
    },
  };
}
