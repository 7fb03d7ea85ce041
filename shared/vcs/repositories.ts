import { createHmac } from 'node:crypto';
import type { Runtime } from '../runtime.js';
import { Unprocessable } from '../platform/errors.js';
import { sha256Hex } from '../platform/crypto.js';
import { enqueueAllAfterCommit, jobs } from '../platform/queues.js';
import { clientServesProject, connectionOfToken, type OAuthClientRow } from './repo.js';
import { defaultProjectOf } from '../projects/index.js';

/** The `vcs-repo` object a client sends with a workspace. */
export interface VcsRepoInput {
  identifier?: string;
  'oauth-token-id'?: string;
  'github-app-installation-id'?: string;
  branch?: string;
  'ingress-submodules'?: boolean;
  'tags-regex'?: string | null;
  'display-identifier'?: string;
}

/** What a workspace stores of its repository: what the API shows as `vcs-repo`, and the webhook it follows. */
export interface VcsRepoSettings {
  vcs_repo: Record<string, unknown> | null;
  vcs_hook_id: string | null;
}

/** `owner/repo`, or GitLab's `group/subgroup/repo`. */
const IDENTIFIER = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/;

const invalid = (detail: string, attribute: string) =>
  new Unprocessable(detail, { attribute: `vcs-repo/${attribute}` });

/**
 * One webhook per connection and repository, whichever workspaces follow it: its id is derived from
 * the two, so connecting a second workspace finds the same hook and the URL is known before the
 * provider is asked. It is written as a UUID, as TFE's webhook URLs are.
 */
export const hookIdOf = (oauthClientId: string, identifier: string): string =>
  sha256Hex(`${oauthClientId}\n${identifier}`)
    .slice(0, 32)
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/** The secret a hook's deliveries are signed with, derived from the service key so that none is stored. */
export const hookSecret = (key: Buffer, hookId: string): string =>
  createHmac('sha256', key).update(`vcs-hook:${hookId}`).digest('hex');

export const webhookUrl = (baseUrl: string, hookId: string): string => `${baseUrl}/webhooks/vcs/${hookId}`;

/**
 * The repository settings a request's `vcs-repo` gives a workspace of `organizationName`: null
 * disconnects; an object changes the connected repository's fields (merged over `current`). The
 * token must be one of the organization's connections, available to the workspace's project
 * (`projectId`; the default project when null); 422 otherwise.
 */
export async function vcsRepoSettings(
  rt: Runtime,
  organizationName: string,
  input: VcsRepoInput | null,
  current: Record<string, unknown> | null,
  projectId: string | null = null,
): Promise<VcsRepoSettings> {
  if (input === null) return { vcs_repo: null, vcs_hook_id: null };
  if (input['github-app-installation-id'])
    throw invalid(
      'GitHub App installations are not offered; connect the repository through an OAuth token',
      'github-app-installation-id',
    );
  const merged = { ...(current ?? {}), ...input } as VcsRepoInput;
  const identifier = merged.identifier;
  if (!identifier) throw invalid('identifier is required', 'identifier');
  if (!IDENTIFIER.test(identifier)) throw invalid('identifier must look like owner/repository', 'identifier');
  const tokenId = merged['oauth-token-id'];
  if (!tokenId) throw invalid('oauth-token-id is required', 'oauth-token-id');
  const client = await clientOfToken(rt, tokenId, organizationName);
  if (!client) throw invalid('the OAuth token was not found in this organization', 'oauth-token-id');
  // A connection limited to some projects serves only their workspaces.
  if (!client.organization_scoped) {
    const project = projectId ?? (await defaultProjectOf(rt.db, organizationName))?.id ?? null;
    if (!project || !(await clientServesProject(rt.db, client.id, project)))
      throw invalid("the OAuth token's connection is not available to this workspace's project", 'oauth-token-id');
  }
  const tagsRegex = merged['tags-regex'] || null;
  if (tagsRegex !== null && !compiles(tagsRegex))
    throw invalid('tags-regex is not a valid regular expression', 'tags-regex');
  const hookId = hookIdOf(client.id, identifier);
  return {
    vcs_hook_id: hookId,
    vcs_repo: {
      identifier,
      'display-identifier': identifier,
      branch: merged.branch ?? '',
      'ingress-submodules': merged['ingress-submodules'] === true,
      'oauth-token-id': tokenId,
      'tags-regex': tagsRegex,
      'service-provider': client.service_provider,
      'repository-http-url': `${client.http_url.replace(/\/+$/, '')}/${identifier}`,
      'webhook-url': webhookUrl(rt.config.baseUrl, hookId),
    },
  };
}

async function clientOfToken(rt: Runtime, tokenId: string, organizationName: string): Promise<OAuthClientRow | null> {
  const client = (await connectionOfToken(rt.db, tokenId))?.client;
  return client && client.organization_name === organizationName ? client : null;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/**
 * After a workspace's repository changed, brings the provider's webhooks in line: the hook it now
 * follows is created when missing, the one it left is removed when no workspace follows it.
 */
export async function syncHooksAfter(rt: Runtime, hookIds: (string | null)[]): Promise<void> {
  const ids = [...new Set(hookIds.filter((id): id is string => id !== null))];
  await enqueueAllAfterCommit(
    rt.queues,
    ids.map((id) => jobs.vcsHookSync(id)),
    rt.logger,
  );
}
