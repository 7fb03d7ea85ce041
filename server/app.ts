import express from 'express';
import type { AppDeps } from './context.js';
import { authenticate } from './auth.js';
import { earlyGuardReadOf, readsAheadFromBody } from './guards.js';
import { readBodyEarly } from './early-body.js';
import { apiRateLimit, authAttempt, startApiBudget } from './rate-limit.js';
import { errorHandler, notFoundHandler } from './errors.js';
import { metricsEndpoint, requestContext } from './observability.js';
import { metaHandlers } from './handlers/meta.js';
import { foundationRoutes } from './routes/foundation.js';
import { configurationVersionRoutes } from './routes/configuration-versions.js';
import { objectRoutes } from './routes/objects.js';
import { logRoutes, runRoutes } from './routes/runs.js';
import { runTaskCallbackRoutes, runTaskRoutes } from './routes/run-tasks.js';
import { notificationRoutes } from './routes/notifications.js';
import { moduleTestRoutes } from './routes/module-tests.js';
import { registryModuleRoutes } from './routes/registry-modules.js';
import { registryProtocolRoutes } from './routes/registry-protocol.js';
import { policyCheckRoutes } from './routes/policy-checks.js';
import { policyRoutes, policyUploadRoutes } from './routes/policies.js';
import { variableRoutes } from './routes/variables.js';
import { runTriggerRoutes } from './routes/run-triggers.js';
import { projectRoutes } from './routes/projects.js';
import { agentPoolRoutes } from './routes/agent-pools.js';
import { dataRetentionPolicyRoutes } from './routes/data-retention-policies.js';
import { sshKeyRoutes } from './routes/ssh-keys.js';
import { vcsRoutes } from './routes/vcs.js';
import { noCodeModuleRoutes } from './routes/no-code-modules.js';
import { consoleRoutes, oauthRoutes } from './routes/sign-in.js';
import { boardRouter, BOARD_PATH } from './board.js';
import { consoleApp, CONSOLE_PATH, favicon } from './console.js';
import { Uploads } from './uploads.js';
import { openApiDocument } from './openapi.js';
import { vcsWebhookRoutes } from './routes/vcs-webhooks.js';

/** Builds the Express application (no listen), so tests and entry files share it. */
export function createApp(deps: AppDeps): express.Express {
  const app = express();
  // Keep bracket keys such as page[number] flat and read them deliberately (see jsonapi.ts).
  app.set('query parser', 'simple');
  app.disable('x-powered-by');
  // The client address (req.ip, the key of the sign-in budgets) comes from X-Forwarded-For only
  // through the proxies TRUST_PROXY names; by default the header is ignored.
  app.set('trust proxy', deps.config.trustProxy);
  // No ETag: Express would hash every response body (a JSON plan or state can be many megabytes) for
  // conditional requests that API clients do not make.
  app.set('etag', false);
  app.use(requestContext(deps));

  const meta = metaHandlers(deps);
  app.get('/healthz', meta.healthz);
  app.get('/readyz', meta.readyz);
  app.get('/metrics', metricsEndpoint(deps));
  app.get('/.well-known/terraform.json', meta.discovery);
  app.use(BOARD_PATH, ...boardRouter(deps.db, deps.queues, deps.rateLimits));
  // The web console (static files; it reads and writes through the API) and the site's root, which opens it.
  app.get('/', (_req, res) => res.redirect(302, CONSOLE_PATH));
  app.get('/favicon.ico', favicon());
  app.use(CONSOLE_PATH, consoleApp());
  // The console's sign-in API (session cookie) and terraform login's token endpoint.
  app.use('/api/console', consoleRoutes(deps));
  app.use(oauthRoutes(deps));
  app.use(vcsWebhookRoutes(deps));

  // One intake per application: its own slots count this web process's uploads, the callers' are shared in Redis.
  const uploads = new Uploads(deps);
  const api = express.Router();
  api.get('/ping', meta.ping);
  // The API reference, generated once from this application's own route table.
  let reference: string | undefined;
  api.get('/openapi.json', (_req, res) => {
    reference ??= JSON.stringify(openApiDocument(app));
    res.status(200).type('application/json').send(reference);
  });
  api.use(runTaskCallbackRoutes(deps));
  // Every authenticated request takes a point of its credential's budget (shared by all web
  // processes): asked for alongside the credential's lookup, enforced once it is authenticated.
  api.use(startApiBudget(deps.rateLimits, deps.config));
  // Authenticate before reading the body, so an anonymous request never gets past 401; a small
  // body naming the guard's first read is read first (docs/design-for-speed.md, "The request body
  // read ahead").
  const jsonTypes = ['application/json', 'application/vnd.api+json'];
  const earlyBody = readBodyEarly(readsAheadFromBody, jsonTypes);
  api.use(earlyBody.read);
  api.use(
    authenticate(deps.db, deps.config, { earlyGuardReadOf, failures: (req) => authAttempt(deps.rateLimits, req) }),
  );
  api.use(apiRateLimit());
  // Policy code arrives as a raw body; its route reads it before the JSON parser could.
  api.use(policyUploadRoutes(deps, uploads));
  api.use(earlyBody.report);
  api.use(express.json({ type: jsonTypes, limit: '2mb', strict: true }));
  api.use(foundationRoutes(deps));
  api.use(configurationVersionRoutes(deps));
  api.use(runRoutes(deps));
  api.use(runTaskRoutes(deps));
  api.use(notificationRoutes(deps));
  api.use(registryModuleRoutes(deps));
  api.use(moduleTestRoutes(deps));
  api.use(policyCheckRoutes(deps));
  api.use(policyRoutes(deps, uploads));
  api.use(variableRoutes(deps));
  api.use(runTriggerRoutes(deps));
  api.use(projectRoutes(deps));
  api.use(agentPoolRoutes(deps));
  api.use(dataRetentionPolicyRoutes(deps));
  api.use(sshKeyRoutes(deps));
  api.use(vcsRoutes(deps));
  api.use(noCodeModuleRoutes(deps));
  app.use('/api/v2', api);
  app.use('/api/registry/v1', registryProtocolRoutes(deps));
  app.use(objectRoutes(deps, uploads));
  app.use(logRoutes(deps));

  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger));
  return app;
}
