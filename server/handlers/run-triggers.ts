import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { BadRequest, NotFound } from '../../shared/platform/errors.js';
import {
  createRunTrigger,
  findRunTrigger,
  isRunTriggerType,
  removeRunTrigger,
} from '../../shared/run-triggers/index.js';
import { runTriggersOf, workspacesOfTriggers } from '../../shared/run-triggers/queries.js';
import { workspaceScopeById } from '../guards.js';
import { paginate, readInclude, readPageOrDefault, readParam, send, sendResource, sliceOf } from '../jsonapi.js';
import { relationshipId, type Req } from './body.js';
import { runTriggerResource } from '../serializers/run-triggers.js';
import { workspaceResource } from '../serializers/foundation.js';

const TYPE_FILTER = 'filter[run-trigger][type]';

/**
 * Run triggers. One belongs to the workspace that gets the runs: reading it needs read access to
 * that workspace, creating or deleting it admin access, and creating it read access to the source
 * too (404 otherwise).
 */
export function runTriggerHandlers(deps: AppDeps) {
  const { db } = deps;

  /** A run trigger the caller may access at `need` through the workspace that gets its runs. */
  async function load(req: Req, res: Response, need: 'read' | 'admin') {
    const trigger = await findRunTrigger(db, req.params.id);
    if (!trigger) throw new NotFound();
    await workspaceScopeById(db, res.locals.principal, trigger.workspace_id, need);
    return trigger;
  }

  return {
    async create(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'admin');
      const { workspace: source } = await workspaceScopeById(
        db,
        res.locals.principal,
        relationshipId(req, 'sourceable')!,
        'read',
      );
      sendResource(res, 201, runTriggerResource(await createRunTrigger(db, workspace, source)));
    },

    async list(req: Req, res: Response) {
      const type = readParam(req, TYPE_FILTER);
      if (!isRunTriggerType(type))
        throw new BadRequest(
          "Filter parameter run-trigger type is required and must be either 'inbound' or 'outbound'",
          TYPE_FILTER,
        );
      const include = readInclude(req, ['workspace', 'sourceable']);
      const { grant } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'read');
      const page = readPageOrDefault(req);
      const rows = await runTriggersOf(db, grant, req.params.id, type);
      const slice = sliceOf(rows, page);
      const body: Record<string, unknown> = {
        data: slice.map(runTriggerResource),
        ...paginate(req, page, rows.length),
      };
      if (include.size) {
        const { rows: workspaces, access } = await workspacesOfTriggers(db, grant, slice, {
          workspace: include.has('workspace'),
          sourceable: include.has('sourceable'),
        });
        if (workspaces.length) body.included = workspaces.map((ws) => workspaceResource(ws, access.get(ws.id)!));
      }
      send(res, 200, body);
    },

    async show(req: Req, res: Response) {
      sendResource(res, 200, runTriggerResource(await load(req, res, 'read')));
    },

    async destroy(req: Req, res: Response) {
      const trigger = await load(req, res, 'admin');
      await removeRunTrigger(db, trigger.id);
      res.status(204).end();
    },
  };
}
