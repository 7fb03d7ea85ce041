import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import type { Db } from '../../shared/platform/db.js';
import type { Config } from '../../shared/platform/config.js';
import { BadRequest, NotFound } from '../../shared/platform/errors.js';
import {
  allows,
  type OrganizationGrant,
  type WorkspaceAccess,
  type WorkspaceNeed,
} from '../../shared/identity/access.queries.js';
import {
  cancelRun,
  commentOnRun,
  confirmRun,
  createRequestedRun,
  discardRun,
  findComment,
  findRun,
  forceCancelRun,
  forceExecuteRun,
  type RunRequest,
  type RunRow,
} from '../../shared/runs/index.js';
import {
  organizationRunCounts,
  runEventsOf,
  findRunEvent,
  runEventIncludes,
  type RunEventView,
  runIncludes,
  runReferences,
  runsOfWorkspacePage,
  runsOfOrganizationPage,
  RUN_STATUS_GROUPS,
  type OrganizationRunFilter,
  visibleUnfinishedRuns,
  type RunReferences,
} from '../../shared/runs/queries.js';
import { visibleWorkspaces, workspaceFacts } from '../../shared/workspaces/queries.js';
import { commentsOfRun } from '../../shared/runs/comments.queries.js';
import { createOnce, IDEMPOTENCY_HEADER, idempotentRequest, REPLAYED_HEADER } from '../../shared/idempotency/index.js';
import { signedObjectUrl } from '../signed-urls.js';
import {
  orgScope,
  runScopeWithReferences,
  workspaceScopeById,
  workspaceScopeForRun,
  workspaceScopeOfRun,
} from '../guards.js';
import { check } from '../validate.js';
import {
  paginate,
  readInclude,
  readPageOrDefault,
  readParam,
  send,
  sendResource,
  uniqueResources,
  wholeListMeta,
  type Resource,
  sliceOf,
} from '../jsonapi.js';
import { attributesOf, hasDocument, relationshipId, type Req } from './body.js';
import { applyResource, commentResource, planResource, runEventResource, runResource } from '../serializers/runs.js';
import { cvResource } from '../serializers/configuration-versions.js';
import { userResource, workspaceResource } from '../serializers/foundation.js';
import { presentTaskStages } from './task-stages.js';

const EVENT_INCLUDES = ['actor', 'comment'] as const;
const INCLUDES = [
  'plan',
  'apply',
  'created_by',
  'configuration_version',
  'configuration_version.ingress_attributes',
  'workspace',
  'task_stages',
  'cost_estimate',
] as const;

/** A pre-signed, unauthenticated log URL (the CLI reads logs without a token). */
export const logReadUrl = (config: Config, logId: string | null) =>
  logId
    ? signedObjectUrl(config.baseUrl, config.encryptionKey, 'log', logId, config.logUrlTtlSeconds).replace(
        '/v1/object/',
        '/v1/logs/',
      )
    : '';

/** Runs with what they refer to (read unless `known`); `include` adds related resources (only these read whole rows). */
export async function presentRuns(
  db: Db,
  config: Config,
  runs: RunRow[],
  access: (run: RunRow) => WorkspaceAccess,
  grant: OrganizationGrant | null,
  include: Set<string> = new Set(),
  known?: Map<string, RunReferences>,
): Promise<{ data: Resource[]; included: Resource[] }> {
  const ids = runs.map((r) => r.id);
  const refs = known ?? (await runReferences(db, ids));
  const data = runs.map((run) => {
    const ref = refs.get(run.id)!;
    return runResource(run, {
      planId: ref.plan_id,
      applyId: ref.apply_id,
      access: access(run),
      grant,
      taskStageIds: ref.stage_ids,
      policyCheckIds: ref.check_ids,
      commentIds: ref.comment_ids,
      eventIds: ref.event_ids,
      confirmedById: ref.confirmed_by_id,
    });
  });
  const rows = await runIncludes(db, runs, include);
  const included: Resource[] = [];
  if (rows.stages.length)
    included.push(
      ...(
        await presentTaskStages(db, rows.stages, {
          mayOverride: grant?.permissions['manage-policy-overrides'] ?? false,
        })
      ).data,
    );
  for (const run of runs) {
    const plan = rows.plans?.get(run.id);
    const apply = rows.applies?.get(run.id);
    if (plan) included.push(planResource(plan, run, logReadUrl(config, plan.log_id)));
    if (apply) included.push(applyResource(apply, run, logReadUrl(config, apply.log_id)));
  }
  const facts = await workspaceFacts(
    db,
    rows.workspaces.map((ws) => ws.id),
  );
  for (const ws of rows.workspaces)
    included.push(workspaceResource(ws, access(runs.find((r) => r.workspace_id === ws.id)!), facts.get(ws.id)));
  included.push(...rows.users.map((u) => userResource(u, config.organizationCreation)));
  included.push(...rows.cvs.map((cv) => cvResource(cv)));
  return { data, included: uniqueResources(included) };
}

export function runHandlers(deps: AppDeps) {
  const { db, config } = deps;

  /** The caller's access to a run's workspace (at least `need`), read by the run's id; 404 when there is no such run. */
  const scopeOfRun = (res: Response, id: string, need: WorkspaceNeed) =>
    workspaceScopeOfRun(db, res.locals.principal, id, need);

  /** The run and the caller's access to its workspace (at least `need`), read alongside each other. */
  async function load(req: Req, res: Response, need: WorkspaceNeed = 'read') {
    const [run, scope] = await Promise.all([findRun(db, req.params.id), scopeOfRun(res, req.params.id, need)]);
    if (!run) throw new NotFound();
    return { run, ...scope };
  }

  /** A run the caller may cancel or force-cancel: the permission that creates it (queueing plans for a plan-only run, applying otherwise), else 404. */
  async function loadToStop(req: Req, res: Response) {
    const { run, access } = await load(req, res, 'queue-plans');
    if (!allows(access, run.plan_only ? 'queue-plans' : 'apply')) throw new NotFound();
    return run;
  }

  const commentOf = (req: Req): string | undefined => {
    if (!hasDocument(req)) return undefined;
    check('run.action', req.body);
    return (req.body as { comment?: string }).comment ?? undefined;
  };
  /** The actors (users) and comments of run events, as `include` asks. */
  async function eventIncludes(events: RunEventView[], include: Set<string>): Promise<Resource[]> {
    const { users, comments } = await runEventIncludes(db, events, include);
    return [...users.map((u) => userResource(u, config.organizationCreation)), ...comments.map(commentResource)];
  }
  const actorOf = (res: Response) => (res.locals.principal.kind === 'user' ? res.locals.principal.user.id : null);

  return {
    async create(req: Req, res: Response) {
      const attrs = attributesOf(req) as RunRequest;
      const workspaceId = relationshipId(req, 'workspace')!;
      const cvId = relationshipId(req, 'configuration-version');
      // The version comes with the workspace, and is looked at only once the caller's access is known.
      const { cv, ...scope } = await workspaceScopeForRun(
        db,
        res.locals.principal,
        workspaceId,
        cvId ?? null,
        'queue-plans',
        res.locals.earlyGuardRead,
      );
      const idem = idempotentRequest(req.get(IDEMPOTENCY_HEADER), res.locals.principal, {
        method: req.method,
        path: req.path,
        body: req.body,
      });
      const made = await createOnce(db, 'runs', idem, (columns) =>
        createRequestedRun(deps, scope.workspace, scope.access, cv, Boolean(cvId), attrs, actorOf(res), columns),
      );
      if ('replayed' in made) {
        // A retry of a creation that went through: the run it made, as it is now.
        const { run, refs } = await runScopeWithReferences(db, res.locals.principal, made.replayed, 'read');
        const body = await presentRuns(
          db,
          config,
          [run],
          () => scope.access,
          scope.grant,
          undefined,
          new Map([[run.id, refs]]),
        );
        res.set(REPLAYED_HEADER, 'true');
        sendResource(res, 201, body.data[0]);
        return;
      }
      const { run, references } = made.created;
      const body = await presentRuns(
        db,
        config,
        [run],
        () => scope.access,
        scope.grant,
        undefined,
        references ? new Map([[run.id, references]]) : undefined,
      );
      // The answer to the creating request echoes the values it sent (go-tfe compares them); every later read shows keys only.
      if (attrs.variables?.length)
        body.data[0].attributes.variables = attrs.variables.map((v) => ({ key: v.key, value: v.value }));
      sendResource(res, 201, body.data[0]);
    },

    async show(req: Req, res: Response) {
      const { run, refs, access, grant } = await runScopeWithReferences(
        db,
        res.locals.principal,
        req.params.id,
        'read',
        res.locals.earlyGuardRead,
      );
      const body = await presentRuns(
        db,
        config,
        [run],
        () => access,
        grant,
        readInclude(req, INCLUDES),
        new Map([[run.id, refs]]),
      );
      sendResource(res, 200, body.data[0], body.included);
    },

    async listForWorkspace(req: Req, res: Response) {
      const { access, grant } = await workspaceScopeById(db, res.locals.principal, req.params.id);
      const include = readInclude(req, INCLUDES);
      const page = readPageOrDefault(req);
      const list = (key: string) => {
        const values = (readParam(req, key) ?? '').split(',').filter(Boolean);
        return values.length ? values : undefined;
      };
      const { rows, total: count } = await runsOfWorkspacePage(
        db,
        req.params.id,
        {
          statuses: list('filter[status]'),
          operations: list('filter[operation]'),
          sources: list('filter[source]'),
          user: readParam(req, 'search[user]') || undefined,
          commit: readParam(req, 'search[commit]') || undefined,
        },
        page,
      );
      const body = await presentRuns(db, config, rows, () => access, grant, include);
      send(res, 200, {
        data: body.data,
        ...(body.included.length ? { included: body.included } : {}),
        ...paginate(req, page, Number(count)),
      });
    },

    /** GET /organizations/:org/runs: the runs of the workspaces the caller may see, newest first, narrowed as TFE's filters say. */
    async listForOrganization(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org);
      const include = readInclude(req, INCLUDES);
      const page = readPageOrDefault(req);
      const list = (key: string) => {
        const values = (readParam(req, key) ?? '')
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean);
        return values.length ? values : undefined;
      };
      const group = readParam(req, 'filter[status_group]') || undefined;
      if (group && !(RUN_STATUS_GROUPS as readonly string[]).includes(group))
        throw new BadRequest(
          `filter[status_group] must be one of ${RUN_STATUS_GROUPS.join(', ')}`,
          'filter[status_group]',
        );
      const timeframe = readParam(req, 'filter[timeframe]') || undefined;
      if (timeframe && timeframe !== 'year' && timeframe !== 'all')
        throw new BadRequest('filter[timeframe] must be year or all', 'filter[timeframe]');
      const { rows: visible, access } = await visibleWorkspaces(db, org.name, grant, null);
      const { rows, total } = await runsOfOrganizationPage(
        db,
        visible.map((w) => w.id),
        {
          statuses: list('filter[status]'),
          operations: list('filter[operation]'),
          sources: list('filter[source]'),
          workspaceNames: list('filter[workspace_names]'),
          agentPoolNames: list('filter[agent_pool_names]'),
          statusGroup: group as OrganizationRunFilter['statusGroup'],
          lastYearOnly: timeframe === 'year',
          user: readParam(req, 'search[user]') || undefined,
          commit: readParam(req, 'search[commit]') || undefined,
          basic: readParam(req, 'search[basic]') || undefined,
        },
        page,
      );
      const body = await presentRuns(db, config, rows, (r) => access.get(r.workspace_id)!, grant, include);
      send(res, 200, {
        data: body.data,
        ...(body.included.length ? { included: body.included } : {}),
        ...paginate(req, page, total),
      });
    },

    /** Runs of the organization that have not finished, oldest first, limited to visible workspaces. */
    async queue(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org);
      const page = readPageOrDefault(req);
      const { rows: visible, access } = await visibleUnfinishedRuns(db, org.name, grant);
      const body = await presentRuns(db, config, sliceOf(visible, page), (r) => access.get(r.workspace_id)!, grant);
      send(res, 200, { data: body.data, ...paginate(req, page, visible.length) });
    },

    async capacity(req: Req, res: Response) {
      const { org } = await orgScope(db, res.locals.principal, req.params.org);
      const counts = await organizationRunCounts(db, org.name);
      send(res, 200, { data: { type: 'organization-capacity', id: org.name, attributes: counts } });
    },

    async events(req: Req, res: Response) {
      // The terraform CLI reads them at every remote run: the run and the caller's access come with the token's statement.
      const { run } = await runScopeWithReferences(
        db,
        res.locals.principal,
        req.params.id,
        'read',
        res.locals.earlyGuardRead,
      );
      const include = readInclude(req, EVENT_INCLUDES);
      const rows = await runEventsOf(db, run.id);
      const included = await eventIncludes(rows, include);
      send(res, 200, {
        data: rows.map(runEventResource),
        ...(included.length ? { included } : {}),
        meta: wholeListMeta(rows.length),
      });
    },

    /** GET /run-events/:id: one event, to whoever may read its run (`include=actor,comment`). */
    async event(req: Req, res: Response) {
      const include = readInclude(req, EVENT_INCLUDES);
      const found = await findRunEvent(db, req.params.id);
      if (!found) throw new NotFound();
      await scopeOfRun(res, found.run_id, 'read');
      sendResource(res, 200, runEventResource(found), await eventIncludes([found], include));
    },

    async apply(req: Req, res: Response) {
      const { run } = await load(req, res, 'apply');
      await confirmRun(deps, run, actorOf(res), commentOf(req));
      res.status(202).end();
    },

    async discard(req: Req, res: Response) {
      const { run } = await load(req, res, 'apply');
      await discardRun(deps, run, actorOf(res), commentOf(req));
      res.status(202).end();
    },

    /** POST /runs/:id/actions/force-execute (the apply permission): a pending run starts now, the runs ahead of it given up. */
    async forceExecute(req: Req, res: Response) {
      const { run } = await load(req, res, 'apply');
      await forceExecuteRun(deps, run.id, actorOf(res));
      res.status(202).end();
    },

    async cancel(req: Req, res: Response) {
      const run = await loadToStop(req, res);
      await cancelRun(deps, run, actorOf(res), config.forceCancelCoolOffSeconds, commentOf(req));
      res.status(202).end();
    },

    async forceCancel(req: Req, res: Response) {
      const run = await loadToStop(req, res);
      await forceCancelRun(deps, run, actorOf(res), commentOf(req));
      res.status(202).end();
    },

    /** GET /runs/:id/comments: the run's comments, oldest first (read access). */
    async comments(req: Req, res: Response) {
      const { run } = await load(req, res);
      const rows = await commentsOfRun(db, run.id);
      send(res, 200, { data: rows.map(commentResource), meta: wholeListMeta(rows.length) });
    },

    /** POST /runs/:id/comments: a comment on the run (read access, as `can-comment` says). */
    async comment(req: Req, res: Response) {
      const { run } = await load(req, res);
      const { body } = attributesOf(req) as { body: string };
      sendResource(res, 201, commentResource(await commentOnRun(deps, run, body, actorOf(res))));
    },

    /** GET /comments/:id: one comment, to whoever may read its run. */
    async showComment(req: Req, res: Response) {
      const found = await findComment(db, req.params.id);
      if (!found) throw new NotFound();
      await scopeOfRun(res, found.run_id, 'read');
      sendResource(res, 200, commentResource(found));
    },
  };
}
