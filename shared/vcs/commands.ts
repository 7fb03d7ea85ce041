import type { Runtime } from '../runtime.js';
import { encryptSecret } from '../platform/crypto.js';
import { NotFound, Unprocessable } from '../platform/errors.js';
import type { Db } from '../platform/db.js';
import { findAgentPool } from '../agent-pools/index.js';
import { projectIdsIn } from '../projects/index.js';
import { connectionProblem, isPrivateKeyBlock, type ServiceProvider } from './rules.js';
import {
  addClientProjects,
  deleteOAuthClient,
  deleteOAuthToken,
  findOAuthToken,
  insertOAuthClient,
  insertOAuthToken,
  lockOAuthClient,
  removeClientProjects,
  replaceOAuthTokens,
  updateOAuthClient,
  updateOAuthToken,
  type OAuthClientRow,
  type OAuthTokenRow,
} from './repo.js';

/*
 * VCS connections, as TFE's OAuth clients: a provider, its URLs, and the credential runs and
 * webhooks use. A token string given with the connection becomes its OAuth token. Secrets (the
 * client secret, a private key, the token, a token's SSH key) are sealed and never returned.
 */

/** What a request sets on a connection (attribute names as the API spells them, without dashes). */
export interface OAuthClientInput {
  serviceProvider?: ServiceProvider;
  name?: string | null;
  httpUrl?: string;
  apiUrl?: string;
  key?: string | null;
  secret?: string | null;
  rsaPublicKey?: string | null;
  privateKey?: string | null;
  oauthTokenString?: string | null;
  organizationScoped?: boolean;
  /** The agent pool that reaches the provider; null takes it away. */
  agentPoolId?: string | null;
}

const seal = (rt: Runtime, value: string | null | undefined): string | null | undefined =>
  value === undefined ? undefined : value ? encryptSecret(rt.config.encryptionKey, value) : null;

/** 422 when the connection, with the request's changes, breaks a rule of its provider (see connectionProblem). */
function assertConnection(shape: Parameters<typeof connectionProblem>[0]): void {
  const problem = connectionProblem(shape);
  if (problem) throw new Unprocessable(problem.message, { attribute: problem.attribute });
}

/** The agent pool a request names, which must be the organization's (422 otherwise); null and undefined pass through. */
async function poolOf(
  tx: Db,
  organizationName: string,
  id: string | null | undefined,
): Promise<string | null | undefined> {
  if (!id) return id;
  const pool = await findAgentPool(tx, id);
  if (!pool || pool.organization_name !== organizationName)
    throw new Unprocessable('the provided agent pool does not exist or you are not authorized to use it', {
      relationship: 'agent-pool',
    });
  return id;
}

/** Creates a connection of an organization, with its token when the request gives a token string. */
export async function createOAuthClient(
  rt: Runtime,
  organizationName: string,
  input: OAuthClientInput & { serviceProvider: ServiceProvider; httpUrl: string; apiUrl: string },
): Promise<OAuthClientRow> {
  assertConnection({
    serviceProvider: input.serviceProvider,
    key: input.key,
    hasPrivateKey: Boolean(input.privateKey),
    hasSecret: Boolean(input.secret),
  });
  return rt.db.transaction(async (tx) => {
    const agentPoolId = await poolOf(tx, organizationName, input.agentPoolId);
    const client = await insertOAuthClient(tx, organizationName, {
      service_provider: input.serviceProvider,
      name: input.name ?? null,
      http_url: input.httpUrl,
      api_url: input.apiUrl,
      key: input.key ?? null,
      secret_sealed: seal(rt, input.secret) ?? null,
      rsa_public_key: input.rsaPublicKey ?? null,
      private_key_sealed: seal(rt, input.privateKey) ?? null,
      organization_scoped: input.organizationScoped ?? true,
      agent_pool_id: agentPoolId ?? null,
    });
    if (input.oauthTokenString)
      await insertOAuthToken(tx, {
        oauth_client_id: client.id,
        token_sealed: seal(rt, input.oauthTokenString)!,
        service_provider_user: null,
      });
    return client;
  });
}

/** Changes a connection; a new token string replaces its token. */
export async function changeOAuthClient(
  rt: Runtime,
  clientId: string,
  input: OAuthClientInput,
): Promise<OAuthClientRow> {
  return rt.db.transaction(async (tx) => {
    const current = await lockOAuthClient(tx, clientId);
    if (!current) throw new NotFound();
    assertConnection({
      serviceProvider: current.service_provider,
      key: input.key,
      hasPrivateKey: input.privateKey === undefined ? current.private_key_sealed !== null : Boolean(input.privateKey),
      hasSecret: input.secret === undefined ? current.secret_sealed !== null : Boolean(input.secret),
    });
    const changed = await updateOAuthClient(tx, clientId, {
      name: input.name,
      key: input.key,
      secret_sealed: seal(rt, input.secret),
      rsa_public_key: input.rsaPublicKey,
      private_key_sealed: seal(rt, input.privateKey),
      organization_scoped: input.organizationScoped,
      agent_pool_id: await poolOf(tx, current.organization_name, input.agentPoolId),
    });
    if (input.oauthTokenString)
      await replaceOAuthTokens(tx, {
        oauth_client_id: clientId,
        token_sealed: seal(rt, input.oauthTokenString)!,
        service_provider_user: null,
      });
    return changed!;
  });
}

/** Deletes a connection and its tokens. */
export async function removeOAuthClient(rt: Runtime, clientId: string): Promise<void> {
  if (!(await deleteOAuthClient(rt.db, clientId))) throw new NotFound();
}

/** Makes a connection available to projects of its organization (422 naming the first that is not one), or no longer. */
export async function changeClientProjects(
  rt: Runtime,
  client: Pick<OAuthClientRow, 'id' | 'organization_name'>,
  projectIds: string[],
  change: 'add' | 'remove',
): Promise<void> {
  if (change === 'remove') return removeClientProjects(rt.db, client.id, projectIds);
  const found = new Set(await projectIdsIn(rt.db, client.organization_name, projectIds));
  const missing = projectIds.find((id) => !found.has(id));
  if (missing)
    throw new Unprocessable(`project ${missing} was not found in organization ${client.organization_name}`, {
      relationship: 'projects',
    });
  await addClientProjects(rt.db, client.id, projectIds);
}

/** Gives a token an SSH key (git fetches submodules with it), or takes it away (an empty key); 422 for anything but a private key. */
export async function changeOAuthToken(
  rt: Runtime,
  tokenId: string,
  sshKey: string | undefined,
): Promise<OAuthTokenRow> {
  if (sshKey && !isPrivateKeyBlock(sshKey))
    throw new Unprocessable('Ssh key is invalid: it must be a private key block', { attribute: 'ssh-key' });
  const changed =
    sshKey === undefined
      ? await findOAuthToken(rt.db, tokenId)
      : await updateOAuthToken(rt.db, tokenId, { ssh_key_sealed: seal(rt, sshKey) ?? null });
  if (!changed) throw new NotFound();
  return changed;
}

export async function removeOAuthToken(rt: Runtime, tokenId: string): Promise<void> {
  if (!(await deleteOAuthToken(rt.db, tokenId))) throw new NotFound();
}
