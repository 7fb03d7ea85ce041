import { iso, many, one, type Resource } from '../jsonapi.js';
import { callbackUrl, connectPath, SERVICE_PROVIDERS } from '../../shared/vcs/index.js';
import type { CommitStatusView, OAuthClientSummary, OAuthTokenSummary } from '../../shared/vcs/queries.js';

/** A VCS connection as TFE shows an OAuth client: its secret and private key are write-only (null). */
export function oauthClientResource(
  c: OAuthClientSummary,
  tokens: OAuthTokenSummary[],
  projectIds: string[],
  baseUrl: string,
): Resource {
  return {
    type: 'oauth-clients',
    id: c.id,
    attributes: {
      'created-at': iso(c.created_at),
      'callback-url': callbackUrl(baseUrl, c.callback_id),
      'connect-path': connectPath(c.callback_id, c.organization_name),
      'service-provider': c.service_provider,
      'service-provider-display-name': SERVICE_PROVIDERS[c.service_provider],
      name: c.name,
      'http-url': c.http_url,
      'api-url': c.api_url,
      key: c.key,
      secret: null,
      'rsa-public-key': c.rsa_public_key,
      'organization-scoped': c.organization_scoped,
    },
    relationships: {
      organization: one('organizations', c.organization_name),
      'oauth-tokens': many(
        'oauth-tokens',
        tokens.map((t) => t.id),
      ),
      'agent-pool': one('agent-pools', c.agent_pool_id),
      projects: many('projects', projectIds),
    },
    links: { self: `/api/v2/oauth-clients/${c.id}` },
  };
}

/** A connection's token: whether it has an SSH key, never the token or the key. */
export function oauthTokenResource(t: OAuthTokenSummary): Resource {
  return {
    type: 'oauth-tokens',
    id: t.id,
    attributes: {
      'created-at': iso(t.created_at),
      'has-ssh-key': t.has_ssh_key,
      'service-provider-user': t.service_provider_user,
    },
    relationships: { 'oauth-client': one('oauth-clients', t.oauth_client_id) },
    links: { self: `/api/v2/oauth-tokens/${t.id}` },
  };
}

/** A commit status the run reports on its commit, with its delivery so far (the delivery log). */
export function commitStatusResource(s: CommitStatusView): Resource {
  return {
    type: 'commit-statuses',
    id: s.id,
    attributes: {
      identifier: s.identifier,
      'commit-sha': s.commit_sha,
      state: s.state,
      description: s.description,
      'target-url': s.target_url,
      context: s.context,
      'delivery-status': s.delivery_status,
      attempts: s.attempts,
      'last-error': s.last_error,
      'response-status': s.response_status,
      'sent-at': s.sent_at ? iso(s.sent_at) : null,
      'created-at': iso(s.created_at),
    },
    relationships: { run: one('runs', s.run_id) },
  };
}
