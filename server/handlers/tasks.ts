import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound } from '../../shared/platform/errors.js';
import {
  changeTask,
  createTask,
  findTask,
  removeTask,
  type TaskInput,
  type TaskRow,
} from '../../shared/run-tasks/index.js';
import { attachmentsOfTasks, taskPage } from '../../shared/run-tasks/queries.js';
import { workspacesByIds } from '../../shared/workspaces/queries.js';
import { orgScope } from '../guards.js';
import type { TaskStageName } from '../../shared/run-tasks/machine.js';
import { workspaceAccessMap, type OrganizationGrant } from '../../shared/identity/access.queries.js';
import { paginate, readInclude, readPageOrDefault, send, sendResource, type Resource } from '../jsonapi.js';
import { attributesOf, type Req } from './body.js';
import { taskResource, workspaceTaskResource } from '../serializers/run-tasks.js';
import { workspaceResource } from '../serializers/foundation.js';

type GlobalAttrs = { enabled?: boolean; stages?: TaskStageName[]; 'enforcement-level'?: 'advisory' | 'mandatory' };
type TaskAttrs = {
  name?: string;
  url?: string;
  description?: string | null;
  'hmac-key'?: string | null;
  enabled?: boolean;
  'global-configuration'?: GlobalAttrs | null;
};

/** The API's attributes as the use case takes them (`hmac-key` given as null removes the key). */
function taskInput(attrs: TaskAttrs): TaskInput {
  const { 'hmac-key': hmacKey, 'global-configuration': global, ...rest } = attrs;
  return {
    ...rest,
    ...('hmac-key' in attrs ? { hmacKey } : {}),
    ...(global
      ? { global: { enabled: global.enabled, stages: global.stages, enforcementLevel: global['enforcement-level'] } }
      : {}),
  };
}

export function taskHandlers(deps: AppDeps) {
  const { db } = deps;

  /** Tasks with their attachments to the workspaces the caller can see (only those are named or included). */
  async function present(tasks: TaskRow[], include: Set<string>, grant: OrganizationGrant) {
    const all = await attachmentsOfTasks(
      db,
      tasks.map((t) => t.id),
    );
    const access = await workspaceAccessMap(db, grant, [...new Set(all.map((l) => l.workspace_id))]);
    const links = all.filter((l) => access.has(l.workspace_id));
    const data = tasks.map((t) =>
      taskResource(
        t,
        deps.config.edition !== 'free',
        links.filter((l) => l.task_id === t.id).map((l) => l.id),
      ),
    );
    const included: Resource[] = [];
    if (include.has('workspace_tasks')) included.push(...links.map(workspaceTaskResource));
    if (include.has('workspace_tasks.workspace') && links.length) {
      const workspaces = await workspacesByIds(db, [...access.keys()]);
      included.push(...workspaces.map((ws) => workspaceResource(ws, access.get(ws.id)!)));
    }
    return { data, included };
  }

  async function load(req: Req, res: Response, manage = false) {
    const task = await findTask(db, req.params.id);
    if (!task) throw new NotFound();
    const { grant } = await orgScope(
      db,
      res.locals.principal,
      task.organization_name,
      manage ? 'manage-run-tasks' : undefined,
    );
    return { task, grant };
  }

  const INCLUDES = ['workspace_tasks', 'workspace_tasks.workspace'];

  return {
    async create(req: Req, res: Response) {
      const { org } = await orgScope(db, res.locals.principal, req.params.org, 'manage-run-tasks');
      const attrs = attributesOf(req) as TaskAttrs & { name: string; url: string };
      const task = await createTask(deps, org.name, { ...taskInput(attrs), name: attrs.name, url: attrs.url });
      sendResource(res, 201, taskResource(task, deps.config.edition !== 'free', []));
    },

    async list(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org);
      const include = readInclude(req, INCLUDES);
      const page = readPageOrDefault(req);
      const { rows, total: count } = await taskPage(db, org.name, page);
      const body = await present(rows, include, grant);
      send(res, 200, {
        data: body.data,
        ...(body.included.length ? { included: body.included } : {}),
        ...paginate(req, page, Number(count)),
      });
    },

    async show(req: Req, res: Response) {
      const { task, grant } = await load(req, res);
      const body = await present([task], readInclude(req, INCLUDES), grant);
      sendResource(res, 200, body.data[0], body.included);
    },

    /** PATCH keeps omitted attributes; a new URL is verified first; `hmac-key: null` removes the key. */
    async update(req: Req, res: Response) {
      const { task, grant } = await load(req, res, true);
      const updated = await changeTask(deps, task, taskInput(attributesOf(req) as TaskAttrs));
      const body = await present([updated], new Set(), grant);
      sendResource(res, 200, body.data[0]);
    },

    async destroy(req: Req, res: Response) {
      const { task } = await load(req, res, true);
      await removeTask(deps, task);
      res.status(204).end();
    },
  };
}
