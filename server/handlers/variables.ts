import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { BadRequest, NotFound } from '../../shared/platform/errors.js';
import type { VariableCategory } from '../../shared/variables/rules.js';
import {
  changeVariable,
  createVariable,
  removeVariable,
  variablesInEffect,
  type VariableInput,
} from '../../shared/variables/index.js';
import {
  ownedVariable,
  workspaceIdByName,
  workspaceOfVariable,
  workspaceVariables,
} from '../../shared/variables/queries.js';
import { workspaceScopeById } from '../guards.js';
import { readParam, send, sendResource } from '../jsonapi.js';
import { variableResource } from '../serializers/variables.js';
import { attributesOf, relationshipId, type Req } from './body.js';

/**
 * Workspace variables, under the workspace (`/workspaces/:id/vars`) and through the older
 * `/vars` endpoints. Reading variables lists them (sensitive values null); writing them changes them.
 */
export function variableHandlers(deps: AppDeps) {
  const { db } = deps;
  const list = async (res: Response, workspaceId: string) =>
    send(res, 200, { data: (await workspaceVariables(db, workspaceId)).map(variableResource) });
  const create = async (req: Req, res: Response, workspaceId: string) => {
    const row = await createVariable(
      deps,
      { workspace_id: workspaceId },
      attributesOf(req) as unknown as VariableInput & { key: string; category: VariableCategory },
    );
    sendResource(res, 201, variableResource(row));
  };
  const update = async (req: Req, res: Response, workspaceId: string, id: string) =>
    sendResource(
      res,
      200,
      variableResource(
        await changeVariable(deps, { workspace_id: workspaceId }, id, attributesOf(req) as VariableInput),
      ),
    );

  return {
    async listForWorkspace(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'read-variables');
      await list(res, workspace.id);
    },

    /**
     * GET /workspaces/:id/all-vars: the variables in effect in the workspace, its own and its
     * variable sets', one per category and key as precedence decides (sensitive values null).
     */
    async listAllForWorkspace(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'read-variables');
      send(res, 200, { data: (await variablesInEffect(db, workspace.id)).map(variableResource) });
    },

    /** One variable, with the same access as the list (a sensitive value is null). */
    async showForWorkspace(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'read-variables');
      const row = await ownedVariable(db, { workspace_id: workspace.id }, req.params.var_id);
      if (!row) throw new NotFound('variable not found');
      sendResource(res, 200, variableResource(row));
    },

    async createForWorkspace(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'write-variables');
      await create(req, res, workspace.id);
    },

    async updateForWorkspace(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'write-variables');
      await update(req, res, workspace.id, req.params.var_id);
    },

    async destroyForWorkspace(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'write-variables');
      await removeVariable(db, { workspace_id: workspace.id }, req.params.var_id);
      res.status(204).end();
    },

    /** GET /vars?filter[organization][name]=&filter[workspace][name]= */
    async list(req: Req, res: Response) {
      const org = readParam(req, 'filter[organization][name]');
      const name = readParam(req, 'filter[workspace][name]');
      if (!org || !name)
        throw new BadRequest(
          'filter[organization][name] and filter[workspace][name] are required',
          org ? 'filter[workspace][name]' : 'filter[organization][name]',
        );
      const { workspace } = await workspaceScopeById(
        db,
        res.locals.principal,
        workspaceIdByName(db, org, name),
        'read-variables',
      );
      await list(res, workspace.id);
    },

    /** POST /vars, naming the workspace in a relationship. */
    async create(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(
        db,
        res.locals.principal,
        relationshipId(req, 'workspace')!,
        'write-variables',
      );
      await create(req, res, workspace.id);
    },

    async update(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(
        db,
        res.locals.principal,
        workspaceOfVariable(db, req.params.id),
        'write-variables',
      );
      await update(req, res, workspace.id, req.params.id);
    },

    async destroy(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(
        db,
        res.locals.principal,
        workspaceOfVariable(db, req.params.id),
        'write-variables',
      );
      await removeVariable(db, { workspace_id: workspace.id }, req.params.id);
      res.status(204).end();
    },
  };
}
