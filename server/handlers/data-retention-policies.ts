import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound, Unprocessable } from '../../shared/platform/errors.js';
import {
  type DataRetentionInput,
  type DataRetentionPolicy,
  kindOfType,
  LEGACY_POLICY_TYPE,
  policyOf,
  removeDataRetentionPolicy,
  setDataRetentionPolicy,
} from '../../shared/retention/index.js';
import type { PolicyHolder } from '../../shared/retention/policies.repo.js';
import { orgScope, workspaceScopeById } from '../guards.js';
import { sendResource } from '../jsonapi.js';
import { dataRetentionPolicyResource, type PolicyTarget } from '../serializers/data-retention-policies.js';
import { attributesOf, type Req } from './body.js';

const DAYS = 'delete-older-than-n-days';

/** What a (validated) document asks the policy to be: a delete-older policy needs its days, a dont-delete one has none. */
function inputOf(req: Req): DataRetentionInput {
  const kind = kindOfType((req.body as { data: { type: string } }).data.type);
  const days = attributesOf(req)[DAYS] as number | undefined;
  if (kind === 'delete-older' && days === undefined)
    throw new Unprocessable(`${DAYS} is required for a policy that deletes older data`, { attribute: DAYS });
  if (kind === 'dont-delete' && days !== undefined)
    throw new Unprocessable(`a policy that does not delete data has no ${DAYS}`, { attribute: DAYS });
  return { kind, days: days ?? null };
}

/** Whose policy a request is about, after its guard: who may change it is stricter than who may read it. */
interface Scope {
  holder: PolicyHolder;
  target: PolicyTarget;
  current: DataRetentionPolicy | null;
}

/**
 * Data retention policies (self-hosted edition; 404 in others): an organization's, read by its
 * members and changed by its owners, and a workspace's, read with read access and changed with admin
 * access. `POST` (and the legacy `PATCH`) sets the policy, `DELETE` removes it.
 */
export function dataRetentionPolicyHandlers(deps: AppDeps) {
  const { db, config } = deps;
  const organization = async (req: Req, res: Response, change: boolean): Promise<Scope> => {
    const { org } = await orgScope(db, res.locals.principal, req.params.org, change ? 'owner' : undefined);
    return {
      holder: { table: 'organizations', name: org.name },
      target: { type: 'organizations', id: org.name },
      current: policyOf(org),
    };
  };
  const workspace = async (req: Req, res: Response, change: boolean): Promise<Scope> => {
    const { workspace: ws } = await workspaceScopeById(
      db,
      res.locals.principal,
      req.params.id,
      change ? 'admin' : 'read',
    );
    return {
      holder: { table: 'workspaces', id: ws.id },
      target: { type: 'workspaces', id: ws.id },
      current: policyOf(ws),
    };
  };
  const scoped = (scope: (req: Req, res: Response, change: boolean) => Promise<Scope>) => {
    const selfHosted = () => {
      if (config.edition !== 'self-hosted') throw new NotFound();
    };
    return {
      /** GET: 404 when no policy of its own is set. */
      async show(req: Req, res: Response) {
        selfHosted();
        const { current, target } = await scope(req, res, false);
        if (!current) throw new NotFound('no data retention policy is set here');
        sendResource(res, 200, dataRetentionPolicyResource(current, target));
      },
      /** POST or PATCH: 201 with a new policy, 200 with the existing one changed; answered in the type the request named. */
      async set(req: Req, res: Response) {
        selfHosted();
        const { holder, target } = await scope(req, res, true);
        const { policy, created } = await setDataRetentionPolicy(deps, holder, inputOf(req));
        const legacy = (req.body as { data: { type: string } }).data.type === LEGACY_POLICY_TYPE;
        sendResource(res, created ? 201 : 200, dataRetentionPolicyResource(policy, target, legacy));
      },
      /** DELETE: 204. */
      async destroy(req: Req, res: Response) {
        selfHosted();
        await removeDataRetentionPolicy(deps, (await scope(req, res, true)).holder);
        res.status(204).end();
      },
    };
  };
  return { organization: scoped(organization), workspace: scoped(workspace) };
}
