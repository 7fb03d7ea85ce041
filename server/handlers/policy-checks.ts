import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound } from '../../shared/platform/errors.js';
import { findRun, type RunRow } from '../../shared/runs/index.js';
import type { OrganizationGrant } from '../../shared/identity/access.queries.js';
import { checksOfRun, overridePolicyCheck, type PolicyCheckRow } from '../../shared/policies/index.js';
import { policyCheckScope, workspaceScopeById, type WorkspaceScope } from '../guards.js';
import {
  paginate,
  readInclude,
  readPage,
  send,
  sendResource,
  uniqueResources,
  wholeListMeta,
  type Resource,
} from '../jsonapi.js';
import { policyCheckResource } from '../serializers/policy-checks.js';
import { presentRuns } from './runs.js';
import type { Req } from './body.js';

const INCLUDES = ['run', 'run.workspace'] as const;

export function policyCheckHandlers(deps: AppDeps) {
  const { db, config } = deps;

  /** The run and the caller's access to its workspace (404 when invisible). */
  async function runScope(res: Response, runId: string): Promise<{ run: RunRow; scope: WorkspaceScope }> {
    const run = await findRun(db, runId);
    if (!run) throw new NotFound();
    return { run, scope: await workspaceScopeById(db, res.locals.principal, run.workspace_id, 'read') };
  }

  /**
   * A check with its run's status and the caller's grant and access, read by one statement (or
   * read ahead with the token: clients poll a check while it runs); 404 when its run is invisible.
   */
  const load = (req: Req, res: Response) =>
    policyCheckScope(db, res.locals.principal, req.params.id, 'read', res.locals.earlyGuardRead);

  const present = (check: PolicyCheckRow, runStatus: RunRow['status'], grant: OrganizationGrant) =>
    policyCheckResource(check, runStatus, grant.permissions['manage-policy-overrides']);

  /** `include=run` and `run.workspace` (the run read for them when given by its id). */
  async function included(
    req: Req,
    run: RunRow | string,
    scope: Pick<WorkspaceScope, 'grant' | 'access'>,
  ): Promise<Resource[]> {
    const include = readInclude(req, INCLUDES);
    if (!include.size) return [];
    const row = typeof run === 'string' ? await findRun(db, run) : run;
    if (!row) return [];
    const runs = await presentRuns(
      db,
      config,
      [row],
      () => scope.access,
      scope.grant,
      new Set(include.has('run.workspace') ? ['workspace'] : []),
    );
    return uniqueResources([...runs.data, ...runs.included]);
  }

  return {
    async list(req: Req, res: Response) {
      const { run, scope } = await runScope(res, req.params.id);
      const all = await checksOfRun(db, run.id);
      const extra = await included(req, run, scope);
      const page = readPage(req);
      const rows = page ? all.slice((page.number - 1) * page.size, page.number * page.size) : all;
      const meta = page ? paginate(req, page, all.length) : { meta: wholeListMeta(all.length) };
      send(res, 200, {
        data: rows.map((c) => present(c, run.status, scope.grant)),
        ...(extra.length ? { included: extra } : {}),
        ...meta,
      });
    },

    async show(req: Req, res: Response) {
      const { row: check, runStatus, grant, access } = await load(req, res);
      sendResource(res, 200, present(check, runStatus, grant), await included(req, check.run_id, { grant, access }));
    },

    /** The human-readable result; empty while the check has not been evaluated. */
    async output(req: Req, res: Response) {
      const { row: check } = await load(req, res);
      res
        .status(200)
        .type('text/plain; charset=utf-8')
        .send(check.output ?? '');
    },

    async override(req: Req, res: Response) {
      const { row: check, runStatus, grant } = await load(req, res);
      if (!grant.permissions['manage-policy-overrides']) throw new NotFound();
      const principal = res.locals.principal;
      const moved = await overridePolicyCheck(deps, check.id, principal.kind === 'user' ? principal.user.id : null);
      sendResource(res, 200, present(moved, runStatus, grant));
    },
  };
}
