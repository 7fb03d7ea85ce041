import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound } from '../../shared/platform/errors.js';
import type { TaskStageName } from '../../shared/run-tasks/machine.js';
import { attachTask, changeAttachment, detachTask, findTask, findWorkspaceTask } from '../../shared/run-tasks/index.js';
import { workspaceTaskPage } from '../../shared/run-tasks/queries.js';
import { workspaceScopeById } from '../guards.js';
import { paginate, readPageOrDefault, send, sendResource } from '../jsonapi.js';
import { attributesOf, relationshipId, type Req } from './body.js';
import { workspaceTaskResource } from '../serializers/run-tasks.js';

type Attrs = { 'enforcement-level'?: 'advisory' | 'mandatory'; stage?: TaskStageName; stages?: TaskStageName[] };

/** `stages` wins; the deprecated single `stage` is accepted too. */
const stagesOf = (attrs: Attrs): TaskStageName[] | undefined =>
  attrs.stages ?? (attrs.stage ? [attrs.stage] : undefined);

/** Run tasks attached to a workspace; managing them needs the workspace's run-tasks permission. */
export function workspaceTaskHandlers(deps: AppDeps) {
  const { db } = deps;

  async function load(req: Req, res: Response, need: 'read' | 'manage-run-tasks') {
    await workspaceScopeById(db, res.locals.principal, req.params.id, need);
    const wt = await findWorkspaceTask(db, req.params.wstask);
    if (!wt || wt.workspace_id !== req.params.id) throw new NotFound();
    return wt;
  }

  return {
    async create(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'manage-run-tasks');
      const task = await findTask(db, relationshipId(req, 'task')!);
      if (!task || task.organization_name !== workspace.organization_name)
        throw new NotFound('run task not found in this organization');
      const attrs = attributesOf(req) as Attrs;
      const wt = await attachTask(deps, workspace.id, task, {
        enforcement_level: attrs['enforcement-level']!,
        stages: stagesOf(attrs) ?? ['post_plan'],
      });
      sendResource(res, 201, workspaceTaskResource(wt));
    },

    async list(req: Req, res: Response) {
      await workspaceScopeById(db, res.locals.principal, req.params.id, 'read');
      const page = readPageOrDefault(req);
      const { rows, total: count } = await workspaceTaskPage(db, req.params.id, page);
      send(res, 200, { data: rows.map(workspaceTaskResource), ...paginate(req, page, Number(count)) });
    },

    async show(req: Req, res: Response) {
      sendResource(res, 200, workspaceTaskResource(await load(req, res, 'read')));
    },

    async update(req: Req, res: Response) {
      const wt = await load(req, res, 'manage-run-tasks');
      const attrs = attributesOf(req) as Attrs;
      const updated = await changeAttachment(deps, wt, {
        enforcement_level: attrs['enforcement-level'] || undefined,
        stages: stagesOf(attrs),
      });
      sendResource(res, 200, workspaceTaskResource(updated));
    },

    async destroy(req: Req, res: Response) {
      const wt = await load(req, res, 'manage-run-tasks');
      await detachTask(deps, wt);
      res.status(204).end();
    },
  };
}
