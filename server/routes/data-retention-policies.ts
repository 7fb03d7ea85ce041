import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { validate } from '../validate.js';
import { dataRetentionPolicyHandlers } from '../handlers/data-retention-policies.js';

/** Data retention policies of organizations and workspaces (authenticated by the API router). */
export function dataRetentionPolicyRoutes(deps: AppDeps): Router {
  const r = Router();
  const { organization: org, workspace: ws } = dataRetentionPolicyHandlers(deps);
  r.get('/organizations/:org/relationships/data-retention-policy', org.show);
  r.post('/organizations/:org/relationships/data-retention-policy', validate('data-retention-policy.set'), org.set);
  r.patch('/organizations/:org/relationships/data-retention-policy', validate('data-retention-policy.set'), org.set);
  r.delete('/organizations/:org/relationships/data-retention-policy', org.destroy);
  r.get('/workspaces/:id/relationships/data-retention-policy', ws.show);
  r.post('/workspaces/:id/relationships/data-retention-policy', validate('data-retention-policy.set'), ws.set);
  r.patch('/workspaces/:id/relationships/data-retention-policy', validate('data-retention-policy.set'), ws.set);
  r.delete('/workspaces/:id/relationships/data-retention-policy', ws.destroy);
  return r;
}
