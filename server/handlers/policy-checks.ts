import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound } from '../../shared/errors.js';
import { findRun, type RunRow } from '../../shared/repos/runs.js';
import { checksOfRun, findPolicyCheck, type PolicyCheckRow } from '../../shared/repos/policy-checks.js';
import { overridePolicyCheck } from '../../shared/policy/checks.js';
import { policyCheckScope, workspaceScopeById, type WorkspaceScope } from '../guards.js';
import { paginate, readInclude, readPage, send, sendResource, uniqueResources, wholeListMeta, type Resource } from '../jsonapi.js';
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

  async function load(req: Req, res: Response): Promise<{ check: PolicyCheckRow; run: RunRow; scope: WorkspaceScope }> {
    const check = await findPolicyCheck(db, req.params.id);
    if (!check) throw new NotFound();
    return { check, ...(await runScope(res, check.run_id)) };
  }

  const present = (check: PolicyCheckRow, run: RunRow, scope: WorkspaceScope) => policyCheckResource(check, run.status, scope.grant.permissions['manage-policy-overrides']);

  /** `include=run` and `run.workspace`. */
  async function included(req: Req, run: RunRow, scope: Pick<WorkspaceScope, 'grant' | 'access'>): Promise<Resource[]> {
    const include = readInclude(req, INCLUDES);
    if (!include.size) return [];
    const runs = await presentRuns(db, config, [run], () => scope.access, scope.grant, new Set(include.has('run.workspace') ? ['workspace'] : []));
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
      send(res, 200, { data: rows.map((c) => present(c, run, scope)), ...(extra.length ? { included: extra } : {}), ...meta });
    },

    async show(req: Req, res: Response) {
      // Clients poll it while the check runs: the check, its run's status and the caller's access
      // come from one statement; the whole run is read only when it is included.
      const { row: check, runStatus, grant, access } = await policyCheckScope(db, res.locals.principal, req.params.id, 'read', res.locals.readAhead);
      const run = readInclude(req, INCLUDES).size ? await findRun(db, check.run_id) : undefined;
      const extra = run ? await included(req, run, { grant, access }) : [];
      sendResource(res, 200, policyCheckResource(check, runStatus, grant.permissions['manage-policy-overrides']), extra);
    },

    /** The human-readable result; empty while the check has not been evaluated. */
    async output(req: Req, res: Response) {
      const { check } = await load(req, res);
      res.status(200).type('text/plain; charset=utf-8').send(check.output ?? '');
    },

    async override(req: Req, res: Response) {
      const { check, run, scope } = await load(req, res);
      if (!scope.grant.permissions['manage-policy-overrides']) throw new NotFound();
      const principal = res.locals.principal;
      const moved = await overridePolicyCheck(deps, check.id, principal.kind === 'user' ? principal.user.id : null);
      sendResource(res, 200, present(moved, run, scope));
    },
  };
}
