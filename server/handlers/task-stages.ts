import type { NextFunction, Request, Response } from 'express';
import type { AppDeps } from '../context.js';
import type { Db } from '../../shared/db.js';
import { Conflict, NotFound, Unauthorized, Unprocessable } from '../../shared/errors.js';
import { safeEqual, sha256Hex } from '../../shared/crypto.js';
import { findRun } from '../../shared/repos/runs.js';
import { findTaskResult, findTaskStage, type TaskResultRow, type TaskStageRow } from '../../shared/repos/run-tasks.js';
import { outcomesOfResult, resultsOfStages, stagesOfRun, taskResultDetails } from '../../shared/read-models/run-tasks.js';
import { reportTaskResult } from '../../shared/usecases/run-tasks.js';
import { workspaceScopeById } from '../guards.js';
import { bearerToken } from '../auth.js';
import { check } from '../validate.js';
import { readInclude, send, sendResource, wholeListMeta, type Resource } from '../jsonapi.js';
import type { Req } from './body.js';
import { outcomeResource, taskResultResource, taskStageResource, type Attempt } from '../serializers/run-tasks.js';

/** Task results with their stage name, outcome ids and delivery attempts. */
export async function presentTaskResults(db: Db, results: TaskResultRow[]): Promise<Resource[]> {
  if (!results.length) return [];
  const { stages, runs, outcomes, attempts } = await taskResultDetails(db, results);
  return results.map((r) =>
    taskResultResource(
      r,
      stages.get(r.task_stage_id) ?? '',
      runs.get(r.run_id) ?? false,
      outcomes.filter((o) => o.task_result_id === r.id).map((o) => o.id),
      attempts.filter((a) => a.task_result_id === r.id) as unknown as Attempt[],
    ),
  );
}

/** Task stages with their result ids; `includeResults` adds the results. */
export async function presentTaskStages(db: Db, stages: TaskStageRow[], includeResults: boolean): Promise<{ data: Resource[]; included: Resource[] }> {
  const results = await resultsOfStages(db, stages.map((s) => s.id));
  const data = stages.map((s) => taskStageResource(s, results.filter((r) => r.task_stage_id === s.id).map((r) => r.id)));
  return { data, included: includeResults ? await presentTaskResults(db, results) : [] };
}

export { STAGE_ORDER } from '../../shared/read-models/run-tasks.js';

const CALLBACK_EVENTS = { running: 'report_running', passed: 'pass', failed: 'fail' } as const;

export function taskStageHandlers(deps: AppDeps) {
  const { db } = deps;

  async function runVisible(res: Response, runId: string) {
    const run = await findRun(db, runId);
    if (!run) throw new NotFound();
    await workspaceScopeById(db, res.locals.principal, run.workspace_id);
    return run;
  }

  return {
    async listForRun(req: Req, res: Response) {
      const run = await runVisible(res, req.params.id);
      const stages = await stagesOfRun(db, run.id);
      const body = await presentTaskStages(db, stages, readInclude(req, ['task_results', 'policy_evaluations']).has('task_results'));
      send(res, 200, {
        data: body.data,
        ...(body.included.length ? { included: body.included } : {}),
        meta: wholeListMeta(stages.length),
      });
    },

    async show(req: Req, res: Response) {
      const ts = await findTaskStage(db, req.params.id);
      if (!ts) throw new NotFound();
      await runVisible(res, ts.run_id);
      const body = await presentTaskStages(db, [ts], readInclude(req, ['task_results', 'policy_evaluations']).has('task_results'));
      sendResource(res, 200, body.data[0], body.included);
    },

    /** Overrides apply to stages awaiting an override (policy evaluations); task failures are not overridable. */
    async override(req: Req, res: Response) {
      const ts = await findTaskStage(db, req.params.id);
      if (!ts) throw new NotFound();
      await runVisible(res, ts.run_id);
      throw new Conflict(`the task stage is ${ts.status}, not awaiting an override`);
    },

    async showResult(req: Req, res: Response) {
      const result = await findTaskResult(db, req.params.id);
      if (!result) throw new NotFound();
      await runVisible(res, result.run_id);
      const [data] = await presentTaskResults(db, [result]);
      const included = readInclude(req, ['outcomes', 'task_stage']).has('outcomes')
        ? (await outcomesOfResult(db, result.id)).map((o) => outcomeResource(o as Parameters<typeof outcomeResource>[0]))
        : [];
      sendResource(res, 200, data, included);
    },

    /**
     * Authenticates `PATCH /task-results/:id/callback` by the access token sent in the request
     * (compared in constant time), before its body is read: a body may be up to 20 MB, and nobody
     * without the token makes the service parse one.
     */
    async authenticateCallback(req: Request<{ id: string }>, res: Response, next: NextFunction) {
      const secret = bearerToken(req.get('authorization'));
      const result = await findTaskResult(db, req.params.id);
      if (!secret || !result?.access_token_digest || !safeEqual(sha256Hex(secret), result.access_token_digest)) throw new Unauthorized();
      res.locals.taskResult = result;
      next();
    },

    /**
     * The callback, once authenticateCallback has found its task result. `running` may come any
     * number of times; `passed`/`failed` are final; anything after a final status is 422 and
     * changes nothing. Outcomes sent with a callback replace the ones stored before; a callback
     * without outcomes keeps them.
     */
    async callback(req: Request<{ id: string }>, res: Response) {
      const result = res.locals.taskResult!;
      check('task-result.callback', req.body);
      const doc = req.body as {
        data: { attributes: { status: 'running' | 'passed' | 'failed'; message?: string; url?: string }; relationships?: { outcomes?: { data: { attributes: Record<string, unknown> }[] } } };
      };
      const { status, message, url } = doc.data.attributes;
      const outcomes = doc.data.relationships?.outcomes?.data;
      const changes = { ...(message !== undefined ? { message } : {}), ...(url !== undefined ? { url } : {}) };
      const reported = outcomes?.map((o) => ({
        outcome_id: o.attributes['outcome-id'],
        description: o.attributes.description,
        body: o.attributes.body ?? null,
        url: o.attributes.url ?? null,
        tags: normaliseTags(o.attributes.tags),
      }));
      const settled = await reportTaskResult(deps, result.id, CALLBACK_EVENTS[status], changes, reported);
      if (!settled) throw new Unprocessable('the task result is already final; no further callbacks are accepted', '/data/attributes/status');
      res.status(200).end();
    },
  };
}

/** Tag levels default to `none`. */
function normaliseTags(tags: unknown): Record<string, { label: string; level: string }[]> {
  if (!tags || typeof tags !== 'object') return {};
  return Object.fromEntries(
    Object.entries(tags as Record<string, { label: string; level?: string }[]>).map(([k, list]) => [k, list.map((t) => ({ label: t.label, level: t.level ?? 'none' }))]),
  );
}
