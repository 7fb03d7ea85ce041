import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import type { Db } from '../../shared/db.js';
import { NotFound, Unprocessable } from '../../shared/errors.js';
import { decryptSecret, encryptSecret } from '../../shared/crypto.js';
import { findTask, insertTask, type TaskRow } from '../../shared/repos/run-tasks.js';
import { verifyDestination } from '../../shared/usecases/verification.js';
import { orgScope } from '../guards.js';
import { workspaceAccessMap, type OrganizationGrant } from '../../shared/access.js';
import { fetchPage, paginate, readInclude, readPageOrDefault, send, sendResource, type Resource } from '../jsonapi.js';
import { attributesOf, type Req } from './body.js';
import { taskResource, workspaceTaskResource } from '../serializers/run-tasks.js';
import { workspaceResource } from '../serializers/foundation.js';

type TaskAttrs = { name?: string; url?: string; description?: string | null; 'hmac-key'?: string | null; enabled?: boolean };

/** The test request sent when a task is created or its URL changes (stage `test`, placeholder values). */
function testPayload(baseUrl: string, org: string): string {
  return JSON.stringify({
    payload_version: 1,
    stage: 'test',
    access_token: 'test-token',
    capabilitites: { outcomes: true },
    capabilities: { outcomes: true },
    organization_name: org,
    task_result_id: 'taskrs-test',
    task_result_callback_url: `${baseUrl}/api/v2/task-results/taskrs-test/callback`,
    task_result_enforcement_level: 'test',
    is_speculative: false,
  });
}

export function taskHandlers(deps: AppDeps) {
  const { db, config } = deps;

  /** The integration must answer 200 to the test request; otherwise 422 and nothing is saved. */
  async function verifyEndpoint(url: string, hmacKey: string | null, org: string): Promise<void> {
    const result = await verifyDestination(deps, { kind: 'run-task', organization: org, url, body: testPayload(config.baseUrl, org), secret: hmacKey });
    if (result.status !== 'succeeded' || result.response_status !== 200) {
      const why = result.response_status ? `it answered ${result.response_status}` : (result.error ?? 'no response');
      throw new Unprocessable(`the run task endpoint did not answer the test request with 200: ${why}`, '/data/attributes/url');
    }
  }

  /** The free edition allows one run task per organization. */
  async function checkFreeLimit(q: Db, org: string): Promise<void> {
    if (config.edition === 'free' && (await q('tasks').where({ organization_name: org }).first('id'))) {
      throw new Unprocessable('the free edition allows one run task per organization', '/data/attributes/name');
    }
  }

  /** Tasks with their attachments to the workspaces the caller can see (only those are named or included). */
  async function present(tasks: TaskRow[], include: Set<string>, grant: OrganizationGrant) {
    const all = tasks.length ? await db('workspace_tasks').whereIn('task_id', tasks.map((t) => t.id)).orderBy('created_at') : [];
    const access = await workspaceAccessMap(db, grant, [...new Set(all.map((l) => l.workspace_id as string))]);
    const links = all.filter((l) => access.has(l.workspace_id));
    const data = tasks.map((t) => taskResource(t, links.filter((l) => l.task_id === t.id).map((l) => l.id)));
    const included: Resource[] = [];
    if (include.has('workspace_tasks')) included.push(...links.map(workspaceTaskResource));
    if (include.has('workspace_tasks.workspace') && links.length) {
      const workspaces = await db('workspaces').whereIn('id', [...access.keys()]);
      included.push(...workspaces.map((ws) => workspaceResource(ws, access.get(ws.id)!)));
    }
    return { data, included };
  }

  async function load(req: Req, res: Response, manage = false) {
    const task = await findTask(db, req.params.id);
    if (!task) throw new NotFound();
    const { grant } = await orgScope(db, res.locals.principal, task.organization_name, manage ? 'manage-run-tasks' : undefined);
    return { task, grant };
  }

  const INCLUDES = ['workspace_tasks', 'workspace_tasks.workspace'];

  return {
    async create(req: Req, res: Response) {
      const { org } = await orgScope(db, res.locals.principal, req.params.org, 'manage-run-tasks');
      const attrs = attributesOf(req) as TaskAttrs & { name: string; url: string };
      await checkFreeLimit(db, org.name);
      if (await db('tasks').where({ organization_name: org.name, name: attrs.name }).first('id')) {
        throw new Unprocessable('name has already been taken', '/data/attributes/name');
      }
      await verifyEndpoint(attrs.url, attrs['hmac-key'] ?? null, org.name);
      const task = await db.transaction(async (tx) => {
        // Creates of one organization serialise here, so concurrent ones cannot pass the limit together.
        await tx('organizations').where({ name: org.name }).forUpdate().first('name');
        await checkFreeLimit(tx, org.name);
        return insertTask(tx, {
          organization_name: org.name,
          name: attrs.name,
          url: attrs.url,
          description: attrs.description ?? null,
          hmac_key_sealed: attrs['hmac-key'] ? encryptSecret(config.encryptionKey, attrs['hmac-key']) : null,
          enabled: attrs.enabled ?? true,
        });
      });
      sendResource(res, 201, taskResource(task, []));
    },

    async list(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org);
      const include = readInclude(req, INCLUDES);
      const page = readPageOrDefault(req);
      const query = db<TaskRow>('tasks').where({ organization_name: org.name });
      const { rows, total: count } = await fetchPage<TaskRow>(query.orderBy('created_at').orderBy('id'), page);
      const body = await present(rows, include, grant);
      send(res, 200, { data: body.data, ...(body.included.length ? { included: body.included } : {}), ...paginate(req, page, Number(count)) });
    },

    async show(req: Req, res: Response) {
      const { task, grant } = await load(req, res);
      const body = await present([task], readInclude(req, INCLUDES), grant);
      sendResource(res, 200, body.data[0], body.included);
    },

    /** PATCH keeps omitted attributes; a new URL is verified first; `hmac-key: null` removes the key. */
    async update(req: Req, res: Response) {
      const { task, grant } = await load(req, res, true);
      const attrs = attributesOf(req) as TaskAttrs;
      if (attrs.name && attrs.name !== task.name && (await db('tasks').where({ organization_name: task.organization_name, name: attrs.name }).first('id'))) {
        throw new Unprocessable('name has already been taken', '/data/attributes/name');
      }
      if (attrs.url && attrs.url !== task.url) {
        const key = 'hmac-key' in attrs ? (attrs['hmac-key'] ?? null) : task.hmac_key_sealed ? decryptSecret(config.encryptionKey, task.hmac_key_sealed) : null;
        await verifyEndpoint(attrs.url, key, task.organization_name);
      }
      const changes: Partial<TaskRow> = {
        ...(attrs.name !== undefined ? { name: attrs.name } : {}),
        ...(attrs.url !== undefined ? { url: attrs.url } : {}),
        ...(attrs.description !== undefined ? { description: attrs.description } : {}),
        ...(attrs.enabled !== undefined ? { enabled: attrs.enabled } : {}),
        ...('hmac-key' in attrs ? { hmac_key_sealed: attrs['hmac-key'] ? encryptSecret(config.encryptionKey, attrs['hmac-key']) : null } : {}),
      };
      const [updated] = await db<TaskRow>('tasks').where({ id: task.id }).update({ ...changes, updated_at: db.fn.now() as never }).returning('*');
      const body = await present([updated], new Set(), grant);
      sendResource(res, 200, body.data[0]);
    },

    async destroy(req: Req, res: Response) {
      const { task } = await load(req, res, true);
      await db('tasks').where({ id: task.id }).del();
      res.status(204).end();
    },
  };
}
