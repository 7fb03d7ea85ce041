import type { Runtime } from '../runtime.js';
import type { Db } from '../platform/db.js';
import type { OutboundClient } from '../platform/outbound.js';
import { decryptSecret } from '../platform/crypto.js';
import { guardedFetch } from './outbound-fetch.js';
import { providerClient, type ProviderClient } from './providers.js';
import { connectionOfToken, type OAuthClientRow } from './repo.js';
import { hookSecret, webhookUrl } from './repositories.js';
import {
  anyTokenOf,
  deleteHookRow,
  findHook,
  firstFollowerRepo,
  lockHook,
  saveHook,
  type HookRow,
} from './repositories.repo.js';

/** What calls a provider: the runtime and the guarded outbound client. */
export type ProviderDeps = Runtime & { outbound: OutboundClient };

/** A workspace or module following the hook: its repository and the token it connects with. */
interface Follower {
  identifier: string;
  tokenId: string;
}

async function followerOf(db: Db, hookId: string): Promise<Follower | null> {
  const repo = await firstFollowerRepo(db, hookId);
  return repo ? { identifier: String(repo.identifier), tokenId: String(repo['oauth-token-id']) } : null;
}

/** The provider's API as a connection's token reaches it, or null when the service calls no API for this provider. */
export async function clientFor(
  deps: ProviderDeps,
  tokenId: string,
): Promise<{ api: ProviderClient; client: OAuthClientRow } | null> {
  const found = await connectionOfToken(deps.db, tokenId);
  if (!found) return null;
  const { client, tokenSealed } = found;
  const api = providerClient(client.service_provider, {
    apiUrl: client.api_url,
    token: decryptSecret(deps.config.encryptionKey, tokenSealed),
    fetch: guardedFetch(deps.outbound),
  });
  return api ? { api, client } : null;
}

/**
 * Brings a repository's webhook in line with the workspaces that follow it: created at the provider
 * when one follows it and it is missing, removed when none does. A provider that cannot be reached
 * throws, and the job is retried; the error is kept on the row for operators.
 */
export async function syncRepositoryHook(deps: ProviderDeps, hookId: string): Promise<void> {
  // The provider is called with the hook held, so two syncs of one hook never both create it.
  await deps.db.transaction(async (tx) => {
    await lockHook(tx, hookId);
    const [follower, row] = await Promise.all([followerOf(tx, hookId), findHook(tx, hookId)]);
    if (follower && !row?.provider_hook_id) {
      const provider = await clientFor(deps, follower.tokenId);
      if (!provider) return;
      const key = { id: hookId, oauth_client_id: provider.client.id, identifier: follower.identifier };
      try {
        const created = await provider.api.createHook(
          follower.identifier,
          webhookUrl(deps.config.baseUrl, hookId),
          hookSecret(deps.config.encryptionKey, hookId),
        );
        await saveHook(tx, { ...key, provider_hook_id: created.id });
      } catch (err) {
        // Kept on the row for operators; the job is retried.
        await saveHook(deps.db, { ...key, last_error: String((err as Error).message ?? err).slice(0, 1000) });
        throw err;
      }
      return;
    }
    if (!follower && row) {
      const provider = row.provider_hook_id ? await clientOfHook(deps, row) : null;
      if (provider && row.provider_hook_id) await provider.deleteHook(row.identifier, row.provider_hook_id);
      await deleteHookRow(tx, hookId);
    }
  });
}

/** The provider's API through any token of the hook's connection (the workspaces that used one are gone). */
async function clientOfHook(deps: ProviderDeps, row: HookRow): Promise<ProviderClient | null> {
  const tokenId = await anyTokenOf(deps.db, row.oauth_client_id);
  return tokenId ? ((await clientFor(deps, tokenId))?.api ?? null) : null;
}
