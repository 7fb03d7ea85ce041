import { pipeline } from 'node:stream';
import type { Request, Response } from 'express';
import type { AppDeps } from '../context.js';
import { ApiError, NotFound } from '../../shared/platform/errors.js';
import { findPlan, findRun, readLog } from '../../shared/runs/index.js';
import type { WorkspaceNeed } from '../../shared/identity/access.queries.js';
import { planJsonObject, redactedPlanObject } from '../../shared/plans/index.js';
import { SignedUrlError, verifyGrant } from '../signed-urls.js';
import { applyScope, planScope, workspaceScopeById } from '../guards.js';
import { sendResource } from '../jsonapi.js';
import type { Req } from './body.js';
import { applyResource, planResource } from '../serializers/runs.js';
import { logReadUrl } from './runs.js';

const MAX_LOG_READ = 1024 * 1024;

export function planApplyHandlers(deps: AppDeps) {
  const { db, config } = deps;

  async function runOf(res: Response, runId: string, need: WorkspaceNeed = 'read') {
    const run = await findRun(db, runId);
    if (!run) throw new NotFound();
    await workspaceScopeById(db, res.locals.principal, run.workspace_id, need);
    return run;
  }

  /** A plan whose workspace the caller may access at `need` (or a run task's token, for its own run). */
  async function loadPlan(req: Req, res: Response, need: WorkspaceNeed = 'read') {
    const plan = await findPlan(db, req.params.id);
    if (!plan) throw new NotFound();
    // A run task's access token reads only its own run's plan.
    if (res.locals.taskAccess) {
      if (res.locals.taskAccess.runId !== plan.run_id) throw new NotFound();
      return { plan, run: (await findRun(db, plan.run_id))! };
    }
    return { plan, run: await runOf(res, plan.run_id, need) };
  }

  /**
   * Streams a stored JSON document as it is (never parsed here: a plan's may be tens of megabytes).
   * A failure once the bytes have started ends the response early (the client sees it cut).
   */
  async function sendStored(res: Response, id: string) {
    const [stat, stream] = await Promise.all([deps.store.stat(id), deps.store.get(id)]);
    if (!stat || !stream) throw new NotFound('the plan has no JSON output');
    res.status(200).set({ 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(stat.size) });
    pipeline(stream, res, (err) => {
      // A client that went away is no failure of ours.
      if (err && (err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE')
        deps.logger.warn('a stored JSON plan could not be sent whole', { objectId: id, error: err.message });
    });
  }

  return {
    async showPlan(req: Req, res: Response) {
      // Clients poll it while the plan's log streams: the plan, its run's status and the caller's
      // access come from one statement (a run task's token reads only the plan's JSON, see auth.ts).
      const { row: plan, runStatus } = await planScope(
        db,
        res.locals.principal,
        req.params.id,
        'read',
        res.locals.earlyGuardRead,
      );
      sendResource(res, 200, planResource(plan, { status: runStatus }, logReadUrl(config, plan.log_id)));
    },

    async showApply(req: Req, res: Response) {
      const { row: apply, runStatus } = await applyScope(
        db,
        res.locals.principal,
        req.params.id,
        'read',
        res.locals.earlyGuardRead,
      );
      sendResource(res, 200, applyResource(apply, { status: runStatus }, logReadUrl(config, apply.log_id)));
    },

    /** The JSON plan as Terraform wrote it, sensitive values included: workspace admins and the run's task token only. */
    async jsonOutput(req: Req, res: Response) {
      const { plan } = await loadPlan(req, res, 'admin');
      await sendStored(res, planJsonObject(plan));
    },

    /**
     * The JSON plan with every value Terraform marks sensitive removed, for anyone who can read the
     * workspace, in the shape the CLI renders a structured run output from (see structuredPlan):
     * made by the worker when the plan finished, streamed as stored (see redactedPlanObject).
     */
    async jsonOutputRedacted(req: Req, res: Response) {
      const { plan } = await loadPlan(req, res);
      await sendStored(res, await redactedPlanObject(deps, plan));
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
        throw new ApiError(
          'forbidden',
          'forbidden',
          err.reason === 'expired' ? 'this log URL has expired' : 'this log URL is not valid',
        );
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
