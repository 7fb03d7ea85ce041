import type { NextFunction, Request, Response } from 'express';
import type { AppDeps } from '../context.js';
import type { Db } from '../../shared/platform/db.js';
import { NotFound, Unauthorized, Unprocessable } from '../../shared/platform/errors.js';
import { findRun } from '../../shared/runs/index.js';
import {
  authenticateCallback,
  findTaskResult,
  reportTaskResult,
  type TaskResultRow,
  type TaskStageRow,
} from '../../shared/run-tasks/index.js';
import { outcomesOfResult, resultsOfStages, stagesOfRun, taskResultDetails } from '../../shared/run-tasks/queries.js';
import { overrideTaskStage } from '../../shared/policies/index.js';
import {
  evaluationPage,
  evaluationsOfStages,
  findPolicyEvaluation,
  findSetOutcome,
  runStatuses,
  setOutcomeIdsOf,
  setOutcomesOf,
} from '../../shared/policies/evaluations.queries.js';
import type { PolicyEvaluationRow } from '../../shared/policies/evaluations.repo.js';
import { policyEvaluationResource, policySetOutcomeResource } from '../serializers/policy-checks.js';
import { taskStageScope, workspaceScopeById } from '../guards.js';
import { bearerToken } from '../auth.js';
import { check } from '../validate.js';
import {
  paginate,
  readInclude,
  readPageOrDefault,
  send,
  sendResource,
  wholeListMeta,
  type Resource,
  sliceOf,
} from '../jsonapi.js';
import { hasDocument, type Req } from './body.js';
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

/** What to present with task stages: their results and evaluations included, and whether the caller may override policies. */
export interface StageView {
  results?: boolean;
  evaluations?: boolean;
  mayOverride: boolean;
}

/** Task stages with their result and evaluation ids; `view` says what to include. */
export async function presentTaskStages(
  db: Db,
  stages: TaskStageRow[],
  view: StageView,
): Promise<{ data: Resource[]; included: Resource[] }> {
  const ids = stages.map((s) => s.id);
  const results = await resultsOfStages(db, ids);
  const evaluations = await evaluationsOfStages(db, ids);
  const statuses = await runStatuses(
    db,
    stages.map((s) => s.run_id),
  );
  const data = stages.map((s) =>
    taskStageResource(
      s,
      statuses.get(s.run_id) ?? '',
      results.filter((r) => r.task_stage_id === s.id).map((r) => r.id),
      evaluations.filter((e) => e.task_stage_id === s.id).map((e) => e.id),
      view.mayOverride,
    ),
  );
  const included = [
    ...(view.results ? await presentTaskResults(db, results) : []),
    ...(view.evaluations ? await presentEvaluations(db, evaluations) : []),
  ];
  return { data, included };
}

/** Policy evaluations with the ids of their set outcomes. */
async function presentEvaluations(db: Db, evaluations: PolicyEvaluationRow[]): Promise<Resource[]> {
  const outcomeIds = await setOutcomeIdsOf(
    db,
    evaluations.map((e) => e.id),
  );
  return evaluations.map((e) => policyEvaluationResource(e, outcomeIds.get(e.id)!));
}

const STAGE_INCLUDES = ['task_results', 'policy_evaluations'];

/** The include of a task stage request as a StageView. */
const stageView = (req: Req, mayOverride: boolean): StageView => {
  const include = readInclude(req, STAGE_INCLUDES);
  return { results: include.has('task_results'), evaluations: include.has('policy_evaluations'), mayOverride };
};

export { STAGE_ORDER } from '../../shared/run-tasks/queries.js';

const CALLBACK_EVENTS = { running: 'report_running', passed: 'pass', failed: 'fail' } as const;

export function taskStageHandlers(deps: AppDeps) {
  const { db } = deps;

  async function runVisible(res: Response, runId: string) {
    const run = await findRun(db, runId);
    if (!run) throw new NotFound();
    const scope = await workspaceScopeById(db, res.locals.principal, run.workspace_id);
    return { run, mayOverride: scope.grant.permissions['manage-policy-overrides'] };
  }

  /**
   * A stage and the caller's right to override its policies, read by one statement (or read ahead
   * with the token: clients poll a stage while it runs); 404 when its run is invisible.
   */
  async function stageVisible(res: Response, id: string) {
    const { row: ts, grant } = await taskStageScope(db, res.locals.principal, id, 'read', res.locals.earlyGuardRead);
    return { ts, mayOverride: grant.permissions['manage-policy-overrides'] };
  }

  /** A policy evaluation whose run the caller can see. */
  async function evaluationVisible(res: Response, id: string) {
    const evaluation = await findPolicyEvaluation(db, id);
    if (!evaluation) throw new NotFound();
    await runVisible(res, evaluation.run_id);
    return evaluation;
  }

  return {
    async listForRun(req: Req, res: Response) {
      const { run, mayOverride } = await runVisible(res, req.params.id);
      const stages = await stagesOfRun(db, run.id);
      const body = await presentTaskStages(db, stages, stageView(req, mayOverride));
      send(res, 200, {
        data: body.data,
        ...(body.included.length ? { included: body.included } : {}),
        meta: wholeListMeta(stages.length),
      });
    },

    async show(req: Req, res: Response) {
      const { ts, mayOverride } = await stageVisible(res, req.params.id);
      const body = await presentTaskStages(db, [ts], stageView(req, mayOverride));
      sendResource(res, 200, body.data[0], body.included);
    },

    /**
     * Overrides a stage waiting for an override (its failed policy evaluations); needs
     * manage-policy-overrides (404 without it, as for anything a token may not do). Task failures
     * are not overridable: anything else is a 409.
     */
    async override(req: Req, res: Response) {
      const { ts, mayOverride } = await stageVisible(res, req.params.id);
      if (!mayOverride) throw new NotFound();
      const comment = hasDocument(req)
        ? (check('run.action', req.body), (req.body as { comment?: string | null }).comment ?? undefined)
        : undefined;
      const principal = res.locals.principal;
      const moved = await overrideTaskStage(deps, ts.id, principal.kind === 'user' ? principal.user.id : null, comment);
      const body = await presentTaskStages(db, [moved], { mayOverride });
      sendResource(res, 200, body.data[0]);
    },

    /** A stage's policy evaluations, paginated. */
    async listEvaluations(req: Req, res: Response) {
      const { ts } = await stageVisible(res, req.params.id);
      const page = readPageOrDefault(req);
      const { rows, total } = await evaluationPage(db, ts.id, page);
      send(res, 200, { data: await presentEvaluations(db, rows), ...paginate(req, page, total) });
    },

    /**
     * An evaluation's set outcomes. `filter[n][status]` and `filter[n][enforcement_level]` (or
     * `enforcementLevel`) keep the policy outcomes matching every key of some filter `n`; a set
     * outcome left without any is not listed.
     */
    async listSetOutcomes(req: Req, res: Response) {
      const evaluation = await evaluationVisible(res, req.params.id);
      const filters = outcomeFilters(req);
      const all = (await setOutcomesOf(db, evaluation.id))
        .map((o) =>
          filters.length ? { ...o, outcomes: o.outcomes.filter((p) => filters.some((f) => matches(f, p))) } : o,
        )
        .filter((o) => !filters.length || o.outcomes.length);
      const page = readPageOrDefault(req);
      send(res, 200, { data: sliceOf(all, page).map(policySetOutcomeResource), ...paginate(req, page, all.length) });
    },

    async showSetOutcome(req: Req, res: Response) {
      const outcome = await findSetOutcome(db, req.params.id);
      if (!outcome) throw new NotFound();
      await evaluationVisible(res, outcome.policy_evaluation_id);
      sendResource(res, 200, policySetOutcomeResource(outcome));
    },

    async showResult(req: Req, res: Response) {
      const result = await findTaskResult(db, req.params.id);
      if (!result) throw new NotFound();
      await runVisible(res, result.run_id);
      const [data] = await presentTaskResults(db, [result]);
      const included = readInclude(req, ['outcomes', 'task_stage']).has('outcomes')
        ? (await outcomesOfResult(db, result.id)).map((o) =>
            outcomeResource(o as Parameters<typeof outcomeResource>[0]),
          )
        : [];
      sendResource(res, 200, data, included);
    },

    /**
     * Authenticates `PATCH /task-results/:id/callback` by the access token sent in the request
     * (compared in constant time), before its body is read: a body may be up to 20 MB, and nobody
     * without the token makes the service parse one.
     */
    async authenticateCallback(req: Request<{ id: string }>, res: Response, next: NextFunction) {
      const known = await authenticateCallback(deps, req.params.id, bearerToken(req.get('authorization')));
      if (!known) throw new Unauthorized();
      res.locals.taskResult = known;
      next();
    },

    /**
     * The callback, once authenticateCallback has found its task result. `running` may come any
     * number of times; `passed`/`failed` are final; anything after a final status is 422 and
     * changes nothing. Outcomes sent with a callback replace the ones stored before; a callback
     * without outcomes keeps them.
     */
    async callback(req: Request<{ id: string }>, res: Response) {
      const known = res.locals.taskResult!;
      check('task-result.callback', req.body);
      const doc = req.body as {
        data: {
          attributes: { status: 'running' | 'passed' | 'failed'; message?: string; url?: string };
          relationships?: { outcomes?: { data: { attributes: Record<string, unknown> }[] } };
        };
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
      const settled = await reportTaskResult(deps, known, CALLBACK_EVENTS[status], changes, reported);
      if (!settled)
        throw new Unprocessable('the task result is already final; no further callbacks are accepted', {
          attribute: 'status',
        });
      res.status(200).end();
    },
  };
}

/** Tag levels default to `none`. */
function normaliseTags(tags: unknown): Record<string, { label: string; level: string }[]> {
  if (!tags || typeof tags !== 'object') return {};
  return Object.fromEntries(
    Object.entries(tags as Record<string, { label: string; level?: string }[]>).map(([k, list]) => [
      k,
      list.map((t) => ({ label: t.label, level: t.level ?? 'none' })),
    ]),
  );
}

type OutcomeFilter = { status?: string; enforcement_level?: string };

/** `filter[n][status]`, `filter[n][enforcement_level]` (or `enforcementLevel`) of a set outcome list, by n. */
function outcomeFilters(req: Req): OutcomeFilter[] {
  const byIndex = new Map<string, OutcomeFilter>();
  for (const [key, value] of Object.entries(req.query as Record<string, unknown>)) {
    const m = /^filter\[([^\]]+)\]\[(status|enforcement_level|enforcementLevel)\]$/.exec(key);
    if (!m || typeof value !== 'string') continue;
    const f = byIndex.get(m[1]) ?? {};
    f[m[2] === 'status' ? 'status' : 'enforcement_level'] = value;
    byIndex.set(m[1], f);
  }
  return [...byIndex.values()];
}

const matches = (f: OutcomeFilter, p: { status: string; enforcement_level: string }) =>
  (!f.status || f.status === p.status) && (!f.enforcement_level || f.enforcement_level === p.enforcement_level);
