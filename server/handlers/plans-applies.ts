import type { Request, Response } from 'express';
import type { AppDeps } from '../context.js';
import { ApiError, NotFound } from '../../shared/errors.js';
import { findApply, findPlan, findRun, type PlanRow } from '../../shared/repos/runs.js';
import { structuredPlan } from '../../shared/terraform/plan-json.js';
import type { WorkspaceAccess } from '../../shared/access.js';
import { readLog } from '../../shared/logs.js';
import { readAll } from '../../shared/store/postgres-store.js';
import { SignedUrlError, verifyGrant } from '../../shared/signed-urls.js';
import { workspaceScopeById } from '../guards.js';
import { sendResource } from '../jsonapi.js';
import type { Req } from './body.js';
import { applyResource, planResource } from '../serializers/runs.js';
import { logReadUrl } from './runs.js';

const MAX_LOG_READ = 1024 * 1024;

export function planApplyHandlers(deps: AppDeps) {
  const { db, config } = deps;

  async function runOf(res: Response, runId: string, need: WorkspaceAccess = 'read') {
    const run = await findRun(db, runId);
    if (!run) throw new NotFound();
    await workspaceScopeById(db, res.locals.principal, run.workspace_id, need);
    return run;
  }

  /** A plan whose workspace the caller may access at `need` (or a run task's token, for its own run). */
  async function loadPlan(req: Req, res: Response, need: WorkspaceAccess = 'read') {
    const plan = await findPlan(db, req.params.id);
    if (!plan) throw new NotFound();
    // A run task's access token reads only its own run's plan.
    if (res.locals.taskAccess) {
      if (res.locals.taskAccess.runId !== plan.run_id) throw new NotFound();
      return { plan, run: (await findRun(db, plan.run_id))! };
    }
    return { plan, run: await runOf(res, plan.run_id, need) };
  }

  /** The stored JSON plan (`terraform show -json`). */
  async function jsonPlan(plan: PlanRow): Promise<Buffer> {
    const body = plan.json_object_id ? await readAll(deps.store, plan.json_object_id) : null;
    if (!body) throw new NotFound('the plan has no JSON output yet');
    return body;
  }

  return {
    async showPlan(req: Req, res: Response) {
      const { plan, run } = await loadPlan(req, res);
      sendResource(res, 200, planResource(plan, run, logReadUrl(config, plan.log_id)));
    },

    async showApply(req: Req, res: Response) {
      const apply = await findApply(db, req.params.id);
      if (!apply) throw new NotFound();
      const run = await runOf(res, apply.run_id);
      sendResource(res, 200, applyResource(apply, run, logReadUrl(config, apply.log_id)));
    },

    /** The JSON plan as Terraform wrote it, sensitive values included: workspace admins and the run's task token only. */
    async jsonOutput(req: Req, res: Response) {
      const { plan } = await loadPlan(req, res, 'admin');
      res.status(200).type('application/json').send(await jsonPlan(plan));
    },

    /**
     * The JSON plan with every value Terraform marks sensitive removed, for anyone who can read the
     * workspace, in the shape the CLI renders a structured run output from (see structuredPlan).
     */
    async jsonOutputRedacted(req: Req, res: Response) {
      const { plan } = await loadPlan(req, res);
      const [body, schemas] = await Promise.all([jsonPlan(plan), plan.schemas_object_id ? readAll(deps.store, plan.schemas_object_id) : null]);
      const doc = structuredPlan(JSON.parse(body.toString('utf8')), schemas ? JSON.parse(schemas.toString('utf8')) : null);
      res.status(200).type('application/json').send(JSON.stringify(doc));
    },

    /** `GET /v1/logs/<token>?limit&offset`: raw bytes of the log from offset; empty while nothing new. */
    async readLog(req: Request<{ token: string }>, res: Response) {
      let logId: string;
      try {
        const grant = verifyGrant(config.encryptionKey, req.params.token);
        if (grant.kind !== 'log') throw new NotFound();
        logId = grant.id;
      } catch (err) {
        if (!(err instanceof SignedUrlError)) throw err;
        if (err.reason === 'malformed') throw new NotFound();
        throw new ApiError(403, 'forbidden', err.reason === 'expired' ? 'this log URL has expired' : 'this log URL is not valid');
      }
      const num = (v: unknown, dflt: number) => (typeof v === 'string' && /^[0-9]{1,15}$/.test(v) ? Number(v) : dflt);
      const offset = num(req.query.offset, 0);
      const limit = Math.min(num(req.query.limit, 65536), MAX_LOG_READ);
      const data = await readLog(db, logId, offset, limit);
      if (!data) throw new NotFound();
      res.status(200).type('text/plain').send(data);
    },
  };
}
