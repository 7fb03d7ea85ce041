import { randomUUID } from 'node:crypto';
import { updateGiven, type Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import type { ServiceProvider } from './rules.js';

/** A VCS connection of an organization; its secret and private key are sealed and never read back by the API. */
export interface OAuthClientRow {
  id: string;
  organization_name: string;
  service_provider: ServiceProvider;
  name: string | null;
  http_url: string;
  api_url: string;
  key: string | null;
  secret_sealed: string | null;
  rsa_public_key: string | null;
  private_key_sealed: string | null;
  organization_scoped: boolean;
  /** The agent pool that reaches a provider the service cannot (null: the service reaches it). */
  agent_pool_id: string | null;
  callback_id: string;
  created_at: Date;
  updated_at: Date;
}

/** A connection's credential to the provider (a personal access or OAuth token), with an optional SSH key, both sealed. */
export interface OAuthTokenRow {
  id: string;
  oauth_client_id: string;
  token_sealed: string;
  ssh_key_sealed: string | null;
  service_provider_user: string | null;
  created_at: Date;
}

export type OAuthClientAttrs = Pick<
  OAuthClientRow,
  | 'service_provider'
  | 'name'
  | 'http_url'
  | 'api_url'
  | 'key'
  | 'secret_sealed'
  | 'rsa_public_key'
  | 'private_key_sealed'
  | 'organization_scoped'
  | 'agent_pool_id'
>;

const clients = (db: Db) => db<OAuthClientRow>('oauth_clients');
const tokens = (db: Db) => db<OAuthTokenRow>('oauth_tokens');

export const findOAuthClient = (db: Db, id: string) => clients(db).where({ id }).first();

/** findOAuthClient, its row locked until the caller's transaction ends (a change reads it whole first). */
export const lockOAuthClient = (db: Db, id: string) => clients(db).where({ id }).forUpdate().first();

export async function insertOAuthClient(
  db: Db,
  organizationName: string,
  attrs: OAuthClientAttrs,
): Promise<OAuthClientRow> {
  const [row] = await clients(db)
    .insert({ id: newId('oc'), organization_name: organizationName, callback_id: randomUUID(), ...attrs })
    .returning('*');
  return row;
}

/** Changes the given attributes of a connection (see updateGiven). */
export const updateOAuthClient = (db: Db, id: string, attrs: Partial<OAuthClientAttrs>) =>
  updateGiven<OAuthClientRow>(db, 'oauth_clients', id, attrs);

/** Deletes a connection and its tokens; whether there was one. */
export const deleteOAuthClient = async (db: Db, id: string): Promise<boolean> =>
  (await clients(db).where({ id }).del()) > 0;

export const findOAuthToken = (db: Db, id: string) => tokens(db).where({ id }).first();

export async function insertOAuthToken(
  db: Db,
  attrs: Pick<OAuthTokenRow, 'oauth_client_id' | 'token_sealed' | 'service_provider_user'>,
): Promise<OAuthTokenRow> {
  const [row] = await tokens(db)
    .insert({ id: newId('ot'), ...attrs })
    .returning('*');
  return row;
}

/** Replaces a connection's tokens by one (a new token string given on update). */
export async function replaceOAuthTokens(
  db: Db,
  attrs: Pick<OAuthTokenRow, 'oauth_client_id' | 'token_sealed' | 'service_provider_user'>,
): Promise<OAuthTokenRow> {
  // The token keeps its id: workspaces name it in their vcs-repo.
  const [kept, ...rest] = await tokens(db).where({ oauth_client_id: attrs.oauth_client_id }).orderBy('created_at');
  if (rest.length)
    await tokens(db)
      .whereIn(
        'id',
        rest.map((t) => t.id),
      )
      .del();
  if (!kept) return insertOAuthToken(db, attrs);
  const [row] = await tokens(db).where({ id: kept.id }).update({ token_sealed: attrs.token_sealed }).returning('*');
  return row;
}

export async function updateOAuthToken(
  db: Db,
  id: string,
  attrs: Pick<OAuthTokenRow, 'ssh_key_sealed'>,
): Promise<OAuthTokenRow | undefined> {
  const [row] = await tokens(db).where({ id }).update(attrs).returning('*');
  return row;
}

export const deleteOAuthToken = async (db: Db, id: string): Promise<boolean> =>
  (await tokens(db).where({ id }).del()) > 0;

/** Makes a connection available to projects; adding twice is harmless. */
export async function addClientProjects(db: Db, clientId: string, projectIds: string[]): Promise<void> {
  if (!projectIds.length) return;
  await db('oauth_client_projects')
    .insert(projectIds.map((project_id) => ({ oauth_client_id: clientId, project_id })))
    .onConflict(['oauth_client_id', 'project_id'])
    .ignore();
}

export async function removeClientProjects(db: Db, clientId: string, projectIds: string[]): Promise<void> {
  await db('oauth_client_projects').where({ oauth_client_id: clientId }).whereIn('project_id', projectIds).del();
}

/** A token's connection and the token's sealed value, read together; undefined when the token does not exist. */
export async function connectionOfToken(
  db: Db,
  tokenId: string | undefined,
): Promise<{ client: OAuthClientRow; tokenSealed: string } | undefined> {
  if (!tokenId) return undefined;
  const row = (await db('oauth_tokens as t')
    .join('oauth_clients as c', 'c.id', 't.oauth_client_id')
    .where('t.id', tokenId)
    .first('c.*', 't.token_sealed as token_sealed_of_token')) as
    (OAuthClientRow & { token_sealed_of_token: string }) | undefined;
  if (!row) return undefined;
  const { token_sealed_of_token: tokenSealed, ...client } = row;
  return { client, tokenSealed };
}

/** Whether a connection limited to projects serves this one. */
export const clientServesProject = async (db: Db, clientId: string, projectId: string): Promise<boolean> =>
  Boolean(
    await db('oauth_client_projects').where({ oauth_client_id: clientId, project_id: projectId }).first('project_id'),
  );
