import type { Db } from '../platform/db.js';
import { groupUnder } from '../platform/page.js';
import type { OAuthClientRow, OAuthTokenRow } from './repo.js';

/** What a response shows of a connection: everything but its sealed secret and private key. */
export type OAuthClientSummary = Omit<OAuthClientRow, 'secret_sealed' | 'private_key_sealed'>;

/** What a response shows of a token: whether it has an SSH key, never the token or the key. */
export type OAuthTokenSummary = Omit<OAuthTokenRow, 'token_sealed' | 'ssh_key_sealed'> & { has_ssh_key: boolean };

const CLIENT_COLUMNS = [
  'id',
  'organization_name',
  'service_provider',
  'name',
  'http_url',
  'api_url',
  'key',
  'rsa_public_key',
  'organization_scoped',
  'agent_pool_id',
  'callback_id',
  'created_at',
  'updated_at',
] as const;

const tokenColumns = (db: Db) => [
  't.id',
  't.oauth_client_id',
  't.service_provider_user',
  't.created_at',
  db.raw('(t.ssh_key_sealed is not null) as has_ssh_key'),
];

/** An organization's connections, oldest first. */
export const oauthClientsOf = (db: Db, organizationName: string): Promise<OAuthClientSummary[]> =>
  db('oauth_clients')
    .where({ organization_name: organizationName })
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select(...CLIENT_COLUMNS);

/** The tokens of an organization's connections, oldest first. */
export const oauthTokensOfOrganization = (db: Db, organizationName: string): Promise<OAuthTokenSummary[]> =>
  db('oauth_tokens as t')
    .join('oauth_clients as c', 'c.id', 't.oauth_client_id')
    .where('c.organization_name', organizationName)
    .orderBy([{ column: 't.created_at' }, { column: 't.id' }])
    .select(tokenColumns(db));

/** The tokens of connections, by connection id (every id present). */
export async function tokensByClient(db: Db, clientIds: string[]): Promise<Map<string, OAuthTokenSummary[]>> {
  const rows: OAuthTokenSummary[] = clientIds.length
    ? await db('oauth_tokens as t')
        .whereIn('t.oauth_client_id', clientIds)
        .orderBy([{ column: 't.created_at' }, { column: 't.id' }])
        .select(tokenColumns(db))
    : [];
  return groupUnder(
    clientIds,
    rows,
    (r) => r.oauth_client_id,
    (r) => r,
  );
}

/** The projects connections are available to, by connection id (every id present). */
export async function projectIdsByClient(db: Db, clientIds: string[]): Promise<Map<string, string[]>> {
  const rows = (
    clientIds.length
      ? await db('oauth_client_projects').whereIn('oauth_client_id', clientIds).orderBy('project_id')
      : []
  ) as { oauth_client_id: string; project_id: string }[];
  return groupUnder(
    clientIds,
    rows,
    (r) => r.oauth_client_id,
    (r) => r.project_id,
  );
}

/** A token as a response shows it (see OAuthTokenSummary). */
export const oauthTokenSummary = (t: OAuthTokenRow): OAuthTokenSummary => ({
  id: t.id,
  oauth_client_id: t.oauth_client_id,
  service_provider_user: t.service_provider_user,
  created_at: t.created_at,
  has_ssh_key: t.ssh_key_sealed !== null,
});

/** A connection as a response shows it (see OAuthClientSummary). */
export const oauthClientSummary = (c: OAuthClientRow): OAuthClientSummary =>
  Object.fromEntries(CLIENT_COLUMNS.map((column) => [column, c[column]])) as OAuthClientSummary;

/** A commit status as the run's delivery log shows it. */
export interface CommitStatusView {
  id: string;
  run_id: string;
  identifier: string;
  commit_sha: string;
  state: string;
  description: string;
  target_url: string;
  context: string;
  delivery_status: string;
  attempts: number;
  last_error: string | null;
  response_status: number | null;
  sent_at: Date | null;
  created_at: Date;
}

/** The commit statuses a run reported (or is to report), in the order its moves made them. */
export const commitStatusesOfRun = (db: Db, runId: string): Promise<CommitStatusView[]> =>
  db('vcs_commit_statuses')
    .where({ run_id: runId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select(
      'id',
      'run_id',
      'identifier',
      'commit_sha',
      'state',
      'description',
      'target_url',
      'context',
      'delivery_status',
      'attempts',
      'last_error',
      'response_status',
      'sent_at',
      'created_at',
    );
