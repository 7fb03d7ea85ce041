import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound } from '../../shared/platform/errors.js';
import {
  changeClientProjects,
  changeOAuthClient,
  changeOAuthToken,
  createOAuthClient,
  removeOAuthClient,
  removeOAuthToken,
  receiveDelivery,
  type OAuthClientInput,
  type OAuthClientRow,
  type ServiceProvider,
} from '../../shared/vcs/index.js';
import {
  commitStatusesOfRun,
  oauthClientsOf,
  oauthClientSummary,
  oauthTokensOfOrganization,
  oauthTokenSummary,
  projectIdsByClient,
  tokensByClient,
  type OAuthClientSummary,
} from '../../shared/vcs/queries.js';
import { oauthClientScope, oauthTokenScope, runScopeWithReferences, vcsScope } from '../guards.js';
import { readInclude, send, sendResource, wholeListMeta, type Resource } from '../jsonapi.js';
import { commitStatusResource, oauthClientResource, oauthTokenResource } from '../serializers/vcs.js';
import { attributesOf, linkageIds, nullableRelationshipId, type Req } from './body.js';

/** A request's attributes as a connection's input (validated by the route's schema). */
function clientInput(req: Req): OAuthClientInput {
  const a = attributesOf(req) as Record<string, string | boolean | null | undefined>;
  return {
    serviceProvider: a['service-provider'] as ServiceProvider | undefined,
    name: a.name as string | null | undefined,
    httpUrl: a['http-url'] as string | undefined,
    apiUrl: a['api-url'] as string | undefined,
    key: a.key as string | null | undefined,
    secret: a.secret as string | null | undefined,
    rsaPublicKey: a['rsa-public-key'] as string | null | undefined,
    privateKey: a['private-key'] as string | null | undefined,
    oauthTokenString: a['oauth-token-string'] as string | null | undefined,
    organizationScoped: a['organization-scoped'] as boolean | undefined,
    agentPoolId: nullableRelationshipId(req, 'agent-pool'),
  };
}

/** VCS connections (TFE's OAuth clients) and their tokens. */
export function vcsHandlers(deps: AppDeps) {
  const { db, config } = deps;

  /** Connections as resources, with their tokens (and those as included resources when asked for). */
  async function present(
    clients: OAuthClientSummary[],
    withTokens = false,
  ): Promise<{ data: Resource[]; included: Resource[] }> {
    const ids = clients.map((c) => c.id);
    const [tokens, projects] = await Promise.all([tokensByClient(db, ids), projectIdsByClient(db, ids)]);
    return {
      data: clients.map((c) => oauthClientResource(c, tokens.get(c.id)!, projects.get(c.id)!, config.baseUrl)),
      included: withTokens ? clients.flatMap((c) => tokens.get(c.id)!.map(oauthTokenResource)) : [],
    };
  }

  const sendClient = async (res: Response, status: number, client: OAuthClientRow) => {
    const { data } = await present([oauthClientSummary(client)]);
    sendResource(res, status, data[0]);
  };

  return {
    async list(req: Req, res: Response) {
      const { org } = await vcsScope(db, res.locals.principal, req.params.org);
      const include = readInclude(req, ['oauth_tokens']);
      const clients = await oauthClientsOf(db, org.name);
      const { data, included } = await present(clients, include.has('oauth_tokens'));
      send(res, 200, { data, ...(included.length ? { included } : {}), meta: wholeListMeta(data.length) });
    },

    async create(req: Req, res: Response) {
      const { org } = await vcsScope(db, res.locals.principal, req.params.org, true);
      const input = clientInput(req);
      const client = await createOAuthClient(deps, org.name, {
        ...input,
        serviceProvider: input.serviceProvider!,
        httpUrl: input.httpUrl!,
        apiUrl: input.apiUrl!,
      });
      await sendClient(res, 201, client);
    },

    async show(req: Req, res: Response) {
      await sendClient(res, 200, await oauthClientScope(db, res.locals.principal, req.params.id));
    },

    async update(req: Req, res: Response) {
      const client = await oauthClientScope(db, res.locals.principal, req.params.id, true);
      await sendClient(res, 200, await changeOAuthClient(deps, client.id, clientInput(req)));
    },

    async destroy(req: Req, res: Response) {
      const client = await oauthClientScope(db, res.locals.principal, req.params.id, true);
      await removeOAuthClient(deps, client.id);
      res.status(204).end();
    },

    async addProjects(req: Req, res: Response) {
      const client = await oauthClientScope(db, res.locals.principal, req.params.id, true);
      await changeClientProjects(deps, client, linkageIds(req), 'add');
      res.status(204).end();
    },

    async removeProjects(req: Req, res: Response) {
      const client = await oauthClientScope(db, res.locals.principal, req.params.id, true);
      await changeClientProjects(deps, client, linkageIds(req), 'remove');
      res.status(204).end();
    },

    async listTokensOfClient(req: Req, res: Response) {
      const client = await oauthClientScope(db, res.locals.principal, req.params.id);
      const tokens = (await tokensByClient(db, [client.id])).get(client.id)!;
      send(res, 200, { data: tokens.map(oauthTokenResource), meta: wholeListMeta(tokens.length) });
    },

    async listTokensOfOrganization(req: Req, res: Response) {
      const { org } = await vcsScope(db, res.locals.principal, req.params.org);
      const tokens = await oauthTokensOfOrganization(db, org.name);
      send(res, 200, { data: tokens.map(oauthTokenResource), meta: wholeListMeta(tokens.length) });
    },

    async showToken(req: Req, res: Response) {
      const token = await oauthTokenScope(db, res.locals.principal, req.params.id);
      sendResource(res, 200, oauthTokenResource(oauthTokenSummary(token)));
    },

    async updateToken(req: Req, res: Response) {
      const token = await oauthTokenScope(db, res.locals.principal, req.params.id, true);
      const sshKey = attributesOf(req)['ssh-key'] as string | undefined;
      sendResource(res, 200, oauthTokenResource(oauthTokenSummary(await changeOAuthToken(deps, token.id, sshKey))));
    },

    async destroyToken(req: Req, res: Response) {
      const token = await oauthTokenScope(db, res.locals.principal, req.params.id, true);
      await removeOAuthToken(deps, token.id);
      res.status(204).end();
    },
  };
}

/** POST /webhooks/vcs/:hookId: a provider's delivery (see receiveDelivery); answers what it created. */
export function vcsWebhookHandler(deps: AppDeps) {
  return async (req: Req, res: Response) => {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(req.params.hookId)) throw new NotFound();
    const body = typeof req.body === 'string' ? req.body : '';
    const result = await receiveDelivery(deps, req.params.hookId, req.headers, body);
    res.status(200).json({ outcome: result.outcome, 'configuration-version-ids': result.configurationVersionIds });
  };
}

/** GET /runs/:id/commit-statuses: the statuses a run reported on its commit and how each delivery went, to whoever reads the run. */
export function commitStatusesHandler(deps: AppDeps) {
  return async (req: Req, res: Response) => {
    const { run } = await runScopeWithReferences(deps.db, res.locals.principal, req.params.id, 'read');
    const rows = await commitStatusesOfRun(deps.db, run.id);
    send(res, 200, { data: rows.map(commitStatusResource), meta: wholeListMeta(rows.length) });
  };
}
