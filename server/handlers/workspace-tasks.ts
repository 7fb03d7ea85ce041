import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound, Unprocessable } from '../../shared/errors.js';
import type { TaskStageName } from '../../shared/domain/run-task.js';
import { findTask, findWorkspaceTask, insertWorkspaceTask, type WorkspaceTaskRow } from '../../shared/repos/run-tasks.js';
import { workspaceScopeById } from '../guards.js';
import { fetchPage, paginate, readPageOrDefault, send, sendResource } from '../jsonapi.js';
import { attributesOf, relationshipId, type Req } from './body.js';
import { workspaceTaskResource } from '../serializers/run-tasks.js';

type Attrs = { 'enforcement-level'?: 'advisory' | 'mandatory'; stage?: TaskStageName; stages?: TaskStageName[] };

/** `stages` wins; the deprecated single `stage` is accepted too. */
const stagesOf = (attrs: Attrs): TaskStageName[] | undefined => attrs.stages ?? (attrs.stage ? [attrs.stage] : undefined);

const FREE_WORKSPACES_PER_TASK = 10;

/** Run tasks attached to a workspace; managing them needs admin access to the workspace. */
export function workspaceTaskHandlers({ db, config }: AppDeps) {
  async function load(req: Req, res: Response, need: 'read' | 'admin') {
    await workspaceScopeById(db, res.locals.principal, req.params.id, need);
    const wt = await findWorkspaceTask(db, req.params.wstask);
    if (!wt || wt.workspace_id !== req.params.id) throw new NotFound();
    return wt;
  }

  return {
    async create(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'admin');
      const task = await findTask(db, relationshipId(req, 'task')!);
      if (!task || task.organization_name !== workspace.organization_name) throw new NotFound('run task not found in this organization');
      const attrs = attributesOf(req) as Attrs;
      const wt = await db.transaction(async (tx) => {
        await tx('tasks').where({ id: task.id }).forUpdate().first('id');
        if (await tx('workspace_tasks').where({ workspace_id: workspace.id, task_id: task.id }).first('id')) {
          throw new Unprocessable('the run task is already attached to this workspace', '/data/relationships/task');
        }
        if (config.edition === 'free') {
          const [{ count }] = await tx('workspace_tasks').where({ task_id: task.id }).count<{ count: number }[]>({ count: '*' });
          if (Number(count) >= FREE_WORKSPACES_PER_TASK) {
            throw new Unprocessable(`the free edition allows a run task on at most ${FREE_WORKSPACES_PER_TASK} workspaces`, '/data/relationships/task');
          }
        }
        return insertWorkspaceTask(tx, { workspace_id: workspace.id, task_id: task.id, enforcement_level: attrs['enforcement-level']!, stages: stagesOf(attrs) ?? ['post_plan'] });
      });
      sendResource(res, 201, workspaceTaskResource(wt));
    },

    async list(req: Req, res: Response) {
      await workspaceScopeById(db, res.locals.principal, req.params.id, 'read');
      const page = readPageOrDefault(req);
      const query = db<WorkspaceTaskRow>('workspace_tasks').where({ workspace_id: req.params.id });
      const { rows, total: count } = await fetchPage<WorkspaceTaskRow>(query.orderBy('created_at').orderBy('id'), page);
      send(res, 200, { data: rows.map(workspaceTaskResource), ...paginate(req, page, Number(count)) });
    },

    async show(req: Req, res: Response) {
      sendResource(res, 200, workspaceTaskResource(await load(req, res, 'read')));
    },

    async update(req: Req, res: Response) {
      const wt = await load(req, res, 'admin');
      const attrs = attributesOf(req) as Attrs;
      const stages = stagesOf(attrs);
      const changes = {
        ...(attrs['enforcement-level'] ? { enforcement_level: attrs['enforcement-level'] } : {}),
        ...(stages ? { stages: JSON.stringify(stages) as never } : {}),
      };
      const [updated] = Object.keys(changes).length ? await db<WorkspaceTaskRow>('workspace_tasks').where({ id: wt.id }).update(changes).returning('*') : [wt];
      sendResource(res, 200, workspaceTaskResource(updated));
    },

    async destroy(req: Req, res: Response) {
      const wt = await load(req, res, 'admin');
      await db('workspace_tasks').where({ id: wt.id }).del();
      res.status(204).end();
    },
  };
}
