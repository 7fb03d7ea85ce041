import { Octokit } from '@octokit/rest';
import { providerFamily, type CommitState } from './rules.js';

/**
 * What the service asks of a VCS provider's API: a repository webhook made and removed, and a
 * commit's status set. Every call goes through the fetch the caller gives (the guarded one).
 */

export type { CommitState };

export interface CommitStatus {
  state: CommitState;
  targetUrl: string;
  description: string;
  /** The status's name on the commit; a later status of the same name replaces it. */
  context: string;
}

export interface ProviderClient {
  createHook(identifier: string, hookUrl: string, secret: string): Promise<{ id: string }>;
  /** A hook the provider no longer has (404) counts as deleted. */
  deleteHook(identifier: string, hookId: string): Promise<void>;
  setCommitStatus(identifier: string, sha: string, status: CommitStatus): Promise<void>;
}

export interface ProviderClientOptions {
  apiUrl: string;
  token: string;
  fetch: typeof fetch;
}

/** A call the provider refused or that got no answer; status is the HTTP status, null when none arrived. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

/** GitHub refuses longer status descriptions; GitLab gets the same text. */
const DESCRIPTION_LIMIT = 140;

/** The description cut to the limit by characters (not UTF-16 units), marked as cut. */
export function statusDescription(description: string): string {
  const chars = Array.from(description);
  return chars.length <= DESCRIPTION_LIMIT ? description : `${chars.slice(0, DESCRIPTION_LIMIT - 1).join('')}…`;
}

/** "owner/repo" as GitHub's two path parameters. */
function ownerAndRepo(identifier: string): { owner: string; repo: string } {
  const slash = identifier.indexOf('/');
  if (slash <= 0 || slash === identifier.length - 1 || identifier.indexOf('/', slash + 1) !== -1)
    throw new ProviderError(`the repository identifier ${JSON.stringify(identifier)} is not owner/repo`, null);
  return { owner: identifier.slice(0, slash), repo: identifier.slice(slash + 1) };
}

interface OctokitFailure {
  status: number;
  message: string;
  response?: unknown;
}

const isOctokitFailure = (err: unknown): err is OctokitFailure =>
  err instanceof Error && typeof (err as { status?: unknown }).status === 'number';

/** An octokit error as a ProviderError: it reports 500 when no response came, so the response decides. */
function githubError(err: unknown): ProviderError {
  if (!isOctokitFailure(err)) return new ProviderError(`GitHub call failed: ${String(err)}`, null);
  if (err.response === undefined) return new ProviderError(`GitHub call failed: ${err.message}`, null);
  return new ProviderError(`GitHub answered ${err.status}: ${err.message}`, err.status);
}

async function githubCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw githubError(err);
  }
}

const noop = () => {};

/** GitHub and GitHub Enterprise (apiUrl https://api.github.com or https://<host>/api/v3). */
export function githubClient(opts: ProviderClientOptions): ProviderClient {
  const octokit = new Octokit({
    baseUrl: opts.apiUrl.replace(/\/+$/, ''),
    auth: opts.token,
    request: { fetch: opts.fetch },
    // Failures come back as ProviderErrors for the caller to report; octokit would also print them.
    log: { debug: noop, info: noop, warn: console.warn, error: noop },
  });
  return {
    async createHook(identifier, hookUrl, secret) {
      const { data } = await githubCall(() =>
        octokit.rest.repos.createWebhook({
          ...ownerAndRepo(identifier),
          events: ['push', 'pull_request'],
          active: true,
          config: { url: hookUrl, content_type: 'json', secret, insecure_ssl: '0' },
        }),
      );
      return { id: String(data.id) };
    },
    async deleteHook(identifier, hookId) {
      if (!/^\d+$/.test(hookId))
        throw new ProviderError(`the GitHub hook id ${JSON.stringify(hookId)} is not a number`, null);
      try {
        await githubCall(() =>
          octokit.rest.repos.deleteWebhook({ ...ownerAndRepo(identifier), hook_id: Number(hookId) }),
        );
      } catch (err) {
        if (err instanceof ProviderError && err.status === 404) return;
        throw err;
      }
    },
    async setCommitStatus(identifier, sha, status) {
      await githubCall(() =>
        octokit.rest.repos.createCommitStatus({
          ...ownerAndRepo(identifier),
          sha,
          state: status.state,
          target_url: status.targetUrl,
          description: statusDescription(status.description),
          context: status.context,
        }),
      );
    },
  };
}

/** GitLab's commit states: it has no "error", and a failed run is "failed" either way. */
const GITLAB_STATES: Record<CommitState, 'pending' | 'success' | 'failed'> = {
  pending: 'pending',
  success: 'success',
  failure: 'failed',
  error: 'failed',
};

/** The message of a GitLab error body ({"message": ...} or {"error": ...}), cut short. */
function gitlabMessage(body: string): string {
  let text = body;
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null) {
      const { message, error } = parsed as { message?: unknown; error?: unknown };
      const said = message ?? error;
      if (said !== undefined) text = typeof said === 'string' ? said : JSON.stringify(said);
    }
  } catch {
    // Not JSON: the text as it is.
  }
  return text.trim().slice(0, 300);
}

/**
 * GitLab refuses to set a status the commit already shows ("Cannot transition status via :enqueue
 * from :pending"): setting it again is done.
 */
const alreadyInState = (err: unknown, state: string): boolean =>
  err instanceof ProviderError &&
  err.status === 400 &&
  /cannot transition status/i.test(err.message) &&
  err.message.includes(`from :${state}`);

/** GitLab.com and self-managed GitLab (apiUrl https://<host>/api/v4), over REST v4. */
export function gitlabClient(opts: ProviderClientOptions): ProviderClient {
  const base = opts.apiUrl.replace(/\/+$/, '');
  const projectPath = (identifier: string) => `/projects/${encodeURIComponent(identifier)}`;

  /** One call; a non-2xx answer is a ProviderError carrying the status and GitLab's message. */
  async function call(
    method: 'POST' | 'DELETE',
    path: string,
    body?: Record<string, unknown>,
  ): Promise<{ status: number; text: string }> {
    let response: Response | undefined;
    let text: string;
    try {
      response = await opts.fetch(`${base}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${opts.token}`,
          Accept: 'application/json',
          ...(body ? { 'Content-Type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      text = await response.text();
    } catch (err) {
      const cause = err instanceof Error && typeof err.cause === 'string' ? err.cause : String(err);
      throw new ProviderError(`GitLab call failed: ${cause}`, response?.status ?? null);
    }
    if (!response.ok)
      throw new ProviderError(`GitLab answered ${response.status}: ${gitlabMessage(text)}`, response.status);
    return { status: response.status, text };
  }

  return {
    async createHook(identifier, hookUrl, secret) {
      const { text } = await call('POST', `${projectPath(identifier)}/hooks`, {
        url: hookUrl,
        token: secret,
        push_events: true,
        merge_requests_events: true,
        tag_push_events: true,
        enable_ssl_verification: true,
      });
      let id: unknown;
      try {
        id = (JSON.parse(text) as { id?: unknown }).id;
      } catch {
        id = undefined;
      }
      if (typeof id !== 'number' && typeof id !== 'string')
        throw new ProviderError('GitLab created the hook but its answer names no hook id', null);
      return { id: String(id) };
    },
    async deleteHook(identifier, hookId) {
      try {
        await call('DELETE', `${projectPath(identifier)}/hooks/${encodeURIComponent(hookId)}`);
      } catch (err) {
        if (err instanceof ProviderError && err.status === 404) return;
        throw err;
      }
    },
    async setCommitStatus(identifier, sha, status) {
      const state = GITLAB_STATES[status.state];
      try {
        await call('POST', `${projectPath(identifier)}/statuses/${encodeURIComponent(sha)}`, {
          state,
          target_url: status.targetUrl,
          description: statusDescription(status.description),
          name: status.context,
        });
      } catch (err) {
        if (alreadyInState(err, state)) return;
        throw err;
      }
    },
  };
}

/** The API client of a connection's provider; null for providers whose API the service does not call. */
export function providerClient(serviceProvider: string, opts: ProviderClientOptions): ProviderClient | null {
  const family = providerFamily(serviceProvider);
  return family === 'github' ? githubClient(opts) : family === 'gitlab' ? gitlabClient(opts) : null;
}

/** The providers whose API the service calls (webhooks, commit statuses); the others are reached by git alone. */
export const hasApiClient = (serviceProvider: string): boolean => providerFamily(serviceProvider) !== 'generic';
