import express, { Router } from 'express';
import type { AppDeps } from '../context.js';
import { vcsWebhookHandler } from '../handlers/vcs.js';

/** Largest webhook body taken: GitHub caps its payloads at 25 MB, most are a few kilobytes. */
const WEBHOOK_MAX_BYTES = '25mb';

/**
 * Providers' webhook deliveries, outside the API: authenticated by the provider's signature over
 * the exact body, which is therefore read as text and parsed only once the signature holds.
 */
export function vcsWebhookRoutes(deps: AppDeps): Router {
  const r = Router();
  r.post(
    '/webhooks/vcs/:hookId',
    express.text({ type: () => true, limit: WEBHOOK_MAX_BYTES }),
    vcsWebhookHandler(deps),
  );
  return r;
}
