import type { Knex } from 'knex';
import { rowsOf, type Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import { fetchPage, type Page } from '../platform/page.js';
import { newApiToken, sha256Hex } from '../platform/crypto.js';
import type { TeamRow } from './teams.repo.js';

/**
 * `run`: a run's own token, for one plan or apply phase (see shared/runs/tokens.ts).
 * `audit-trail`: an organization's audit trail token, which authenticates no route here.
 */
export type TokenKind = 'user' | 'team' | 'organization' | 'run' | 'audit-trail';

/** The owner of a token of which there is one at most: a team's legacy token, an organization's token or audit trail token. */
export type SingleTokenOwner =
  { kind: 'team'; teamId: string } | { kind: 'organization' | 'audit-trail'; organizationName: string };

export interface TokenRow {
  id: string;
  kind: TokenKind;
  user_id: string | null;
  team_id: string | null;
  organization_name: string | null;
  run_id: string | null;
  digest: string;
  description: string | null;
  from_configuration: boolean;
  created_by_id: string | null;
  expired_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
}

/** Looks a bearer token up by its digest (the secret itself is never stored). */
export async function findTokenBySecret(db: Db, secret: string): Promise<TokenRow | undefined> {
  return db<TokenRow>('authentication_tokens')
    .where({ digest: sha256Hex(secret) })
    .first();
}

export const findToken = (db: Db, id: string) => db<TokenRow>('authentication_tokens').where({ id }).first();

/** Creates a token; returns the row and the secret, which the caller shows exactly once. */
export async function issueToken(
  db: Db,
  owner: { kind: TokenKind; userId?: string; teamId?: string; organizationName?: string },
  attrs: {
    description?: string | null;
    expiredAt?: Date | null;
    createdById?: string | null;
    secret?: string;
    fromConfiguration?: boolean;
  } = {},
): Promise<{ row: TokenRow; secret: string }> {
  const secret = attrs.secret ?? newApiToken();
  const [row] = await db<TokenRow>('authentication_tokens')
    .insert({
      id: newId('at'),
      kind: owner.kind,
      user_id: owner.userId ?? null,
      team_id: owner.teamId ?? null,
      organization_name: owner.organizationName ?? null,
      digest: sha256Hex(secret),
      description: attrs.description ?? null,
      expired_at: attrs.expiredAt ?? null,
      created_by_id: attrs.createdById ?? null,
      from_configuration: attrs.fromConfiguration ?? false,
    })
    .returning('*');
  return { row, secret };
}

/** Deletes the user's tokens from the configuration other than the one with `digest` (the configured token changed). */
export async function deleteConfiguredTokensBut(db: Db, userId: string, digest: string): Promise<void> {
  await db('authentication_tokens').where({ user_id: userId, from_configuration: true }).whereNot({ digest }).del();
}

/** Whether some token has this digest. */
export async function hasTokenWithDigest(db: Db, digest: string): Promise<boolean> {
  return Boolean(await db('authentication_tokens').where({ digest }).first('id'));
}

export const deleteToken = (db: Db, id: string) => db('authentication_tokens').where({ id }).del();
export const tokensOfUser = (db: Db, userId: string) =>
  db<TokenRow>('authentication_tokens').where({ user_id: userId, kind: 'user' }).orderBy('created_at');

/** Where the single token of `owner` is: a team's legacy token is the one without a description. */
function singleTokenOf(db: Db, owner: SingleTokenOwner) {
  const q = db<TokenRow>('authentication_tokens').where({ kind: owner.kind });
  return owner.kind === 'team'
    ? q.where({ team_id: owner.teamId }).whereNull('description')
    : q.where({ organization_name: owner.organizationName });
}

export const singleToken = (db: Db, owner: SingleTokenOwner): Promise<TokenRow | undefined> =>
  singleTokenOf(db, owner).first();

/** Holds the owner's row until the transaction ends, so that two replacements of its single token wait for each other. */
export async function lockSingleTokenOwner(tx: Db, owner: SingleTokenOwner): Promise<void> {
  if (owner.kind === 'team') await tx('teams').where({ id: owner.teamId }).forUpdate().first('id');
  else await tx('organizations').where({ name: owner.organizationName }).forUpdate().first('name');
}

/** Deletes the single token of `owner` (see SingleTokenOwner); a team's described tokens stay. */
export async function deleteTokenOf(db: Db, owner: SingleTokenOwner): Promise<void> {
  await singleTokenOf(db, owner).del();
}

/** A page of a team's tokens, legacy and described, oldest first. */
export const tokensOfTeam = (db: Db, teamId: string, page: Page) =>
  fetchPage<TokenRow>(
    db<TokenRow>('authentication_tokens')
      .where({ team_id: teamId, kind: 'team' })
      .orderBy([{ column: 'created_at' }, { column: 'id' }]),
    page,
  );

export const TEAM_TOKEN_SORTS = ['created-at', 'expired-at', 'last-used-at', 'description', 'team-name'] as const;
export type TeamTokenSort = (typeof TEAM_TOKEN_SORTS)[number];

/**
 * A page of the team tokens of an organization's teams, less the owners team's unless `withOwners`; `search`
 * matches a team's name (case-insensitive, in part). Ordered by `sort` (`-` for descending; tokens
 * that never expire last), then by creation.
 */
export function teamTokensOfOrganization(
  db: Db,
  organizationName: string,
  opts: { withOwners: boolean; search: string | null; sort: { by: TeamTokenSort; descending: boolean } | null },
  page: Page,
) {
  const q = db('authentication_tokens as t')
    .join('teams as tm', 'tm.id', 't.team_id')
    .where({ 't.kind': 'team', 'tm.organization_name': organizationName })
    .select<TokenRow[]>('t.*');
  if (!opts.withOwners) q.where('tm.is_owners', false);
  if (opts.search) q.whereRaw(`strpos(lower(tm.name), lower(?)) > 0`, [opts.search]);
  if (opts.sort) {
    const column = opts.sort.by === 'team-name' ? 'tm.name' : `t.${opts.sort.by.replace(/-/g, '_')}`;
    q.orderBy(column, opts.sort.descending ? 'desc' : 'asc', 'last');
  }
  return fetchPage<TokenRow>(q.orderBy([{ column: 't.created_at' }, { column: 't.id' }]), page);
}

/** Records use at most once a minute, so authentication stays a read on the hot path. */
export async function touchToken(db: Db, id: string): Promise<void> {
  await db('authentication_tokens')
    .where({ id })
    .andWhere((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', db.raw(`now() - interval '1 minute'`)))
    .update({ last_used_at: db.fn.now() });
}

/**
 * A live token with its owner: the user's columns, the team's row as JSON, the run's workspace and
 * organization. Every column's name starts with `auth_`, which no table's does, so the row can
 * share a statement with a companion's columns (see findLiveTokenWithOwner).
 */
export interface LiveTokenRow {
  auth_token_id: string;
  auth_kind: TokenKind;
  auth_org: string | null;
  auth_last_used_at: Date | null;
  /** The user's columns: set when the token is a user's (then auth_user_id is not null). */
  auth_user_id: string | null;
  auth_username: string;
  auth_email: string;
  auth_is_admin: boolean;
  auth_user_created_at: Date;
  auth_team: (Omit<TeamRow, 'created_at'> & { created_at: string }) | null;
  auth_run_id: string | null;
  auth_run_workspace_id: string | null;
  /** The run's organization: set when the token is a run's (then auth_run_workspace_id is not null). */
  auth_run_org: string;
  /** Whether the run's secrets are withheld (its token then reads nothing of the API); null for other tokens. */
  auth_run_secrets_withheld: boolean | null;
}

/**
 * findLiveTokenWithOwner's statement, written out rather than built: it runs on every API request,
 * and knex would compile a built query again each time (it runs through rowsOf for the same reason).
 */
const LIVE_TOKEN_WITH_OWNER = `
  select t.id as auth_token_id, t.kind as auth_kind, t.organization_name as auth_org, t.last_used_at as auth_last_used_at,
         u.id as auth_user_id, u.username as auth_username, u.email as auth_email, u.is_admin as auth_is_admin,
         u.created_at as auth_user_created_at, to_jsonb(tm.*) as auth_team,
         t.run_id as auth_run_id, rw.id as auth_run_workspace_id, rw.organization_name as auth_run_org, r.secrets_withheld as auth_run_secrets_withheld
    from authentication_tokens as t
    left join users as u on u.id = t.user_id
    left join teams as tm on tm.id = t.team_id
    left join runs as r on r.id = t.run_id
    left join workspaces as rw on rw.id = r.workspace_id
   where t.digest = ? and (t.expired_at is null or t.expired_at > now()) and u.suspended_at is null
   limit 1`;

/**
 * The token's lookup with a companion statement: one row read in the same statement
 * (docs/design-for-speed.md, "Read-ahead of the guard's row"). `companion` is given the SQL of the
 * token's user id (null for a token that is not a user's); a row it finds has a column that is not
 * null (its key), and no column whose name starts with `auth_`. Made once per companion (see
 * earlyGuardReadOf in server/guards.ts), so that no request builds the text again.
 */
export const tokenLookupWith = (companion: (tokenUserId: string) => string): string =>
  `select tok.*, c.* from (${LIVE_TOKEN_WITH_OWNER}) as tok left join lateral (${companion('tok.auth_user_id')}) as c on true`;

/** A statement tokenLookupWith made, with the values of the companion's `?` placeholders. */
export interface Companion {
  statement: string;
  bindings: readonly (string | null)[];
}

/**
 * A valid (unexpired) token by its secret, with its owner (for the principal it authenticates),
 * and the row of `companion` when given (undefined when it found none), read by the same statement.
 */
export async function findLiveTokenWithOwner(
  db: Db,
  secret: string,
  companion?: Companion,
): Promise<{ token: LiveTokenRow; companion?: Record<string, unknown> } | undefined> {
  if (!companion) {
    const [token] = await rowsOf<LiveTokenRow>(db, LIVE_TOKEN_WITH_OWNER, [sha256Hex(secret)]);
    return token && { token };
  }
  const [row] = await rowsOf<LiveTokenRow & Record<string, unknown>>(db, companion.statement, [
    sha256Hex(secret),
    ...companion.bindings,
  ]);
  if (!row) return undefined;
  const other = companionColumns(row);
  let found = false;
  for (const key in other) {
    if (other[key] === null) continue;
    found = true;
    break;
  }
  return { token: row, companion: found ? other : undefined };
}

/**
 * The companion's columns of a tokenLookupWith row: the row less the token's columns, taken out
 * by name in one copy. (A copy made key by key is an object V8 keeps as a dictionary, which made
 * every later copy of the row, e.g. a guard's, cost about 15 µs per request in the API's profile.)
 */
function companionColumns(row: LiveTokenRow & Record<string, unknown>): Record<string, unknown> {
  const {
    auth_token_id,
    auth_kind,
    auth_org,
    auth_last_used_at,
    auth_user_id,
    auth_username,
    auth_email,
    auth_is_admin,
    auth_user_created_at,
    auth_team,
    auth_run_id,
    auth_run_workspace_id,
    auth_run_org,
    auth_run_secrets_withheld,
    ...other
  } = row;
  // Every token column is named above: a column added to LiveTokenRow and not here fails to compile.
  const named = {
    auth_token_id,
    auth_kind,
    auth_org,
    auth_last_used_at,
    auth_user_id,
    auth_username,
    auth_email,
    auth_is_admin,
    auth_user_created_at,
    auth_team,
    auth_run_id,
    auth_run_workspace_id,
    auth_run_org,
    auth_run_secrets_withheld,
  };
  void (named satisfies Record<keyof LiveTokenRow, unknown>);
  return other;
}

/** The run of a task result whose access token has this secret, while the result is not final. */
export async function runOfTaskAccessToken(db: Db, secret: string): Promise<string | null> {
  const row = await db('task_results')
    .where({ access_token_digest: sha256Hex(secret) })
    .whereIn('status', ['pending', 'running'])
    .first('run_id');
  return row ? (row.run_id as string) : null;
}

/** A run token's row: id, run id, digest, description and expiry (see newRunToken). */
export const RUN_TOKEN_INSERT =
  "insert into authentication_tokens (id, kind, run_id, digest, description, expired_at) values (?, 'run', ?, ?, ?, ?)";

/** A run's token for one phase, not written yet (see newRunToken). */
export interface NewRunToken {
  id: string;
  /** Only the phase's environment receives it. */
  secret: string;
  /** Its row's insert, not sent: await it, or give `values` to a statement that writes it along (see phaseSourcesOf). */
  insert: Knex.Raw;
  /** RUN_TOKEN_INSERT's bindings. */
  values: readonly Knex.RawBinding[];
}

/** A run's token for one phase (named in its description), valid until `expiredAt` (the phase's time limit). */
export function newRunToken(db: Db, runId: string, phase: 'plan' | 'apply', expiredAt: Date): NewRunToken {
  const secret = newApiToken();
  const id = newId('at');
  const values = [id, runId, sha256Hex(secret), `${phase} phase`, expiredAt];
  return { id, secret, insert: db.raw(RUN_TOKEN_INSERT, values), values };
}

/** Ends a run token now (the row stays, with when it was last used, until its run is deleted). */
export async function revokeRunToken(db: Db, id: string): Promise<void> {
  await db('authentication_tokens')
    .where({ id, kind: 'run' })
    .where((q) => q.whereNull('expired_at').orWhere('expired_at', '>', db.fn.now()))
    .update({ expired_at: db.fn.now() });
}
