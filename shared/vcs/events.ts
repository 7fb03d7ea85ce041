import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { verify } from '@octokit/webhooks-methods';
import type { ProviderFamily } from './rules.js';

/**
 * Inbound webhook deliveries of the VCS providers, read into one shape, and the checks that a
 * delivery comes from the provider (pure: no I/O).
 */

export interface VcsPullRequest {
  number: number;
  url: string;
  title: string;
  body: string | null;
  baseBranch: string;
  action: 'opened' | 'updated' | 'closed' | 'other';
}

/** What a delivery says happened to a repository, whichever provider sent it. */
export interface VcsEvent {
  kind: 'push' | 'tag' | 'pull_request';
  /** "owner/repo": GitHub's full name, GitLab's path with namespace. */
  identifier: string;
  cloneUrl: string;
  repoHttpUrl: string;
  /** A push's branch, a pull request's head branch; null for tags. */
  branch: string | null;
  tag: string | null;
  commitSha: string;
  commitMessage: string | null;
  commitUrl: string | null;
  compareUrl: string | null;
  defaultBranch: string | null;
  onDefaultBranch: boolean;
  senderUsername: string | null;
  senderAvatarUrl: string | null;
  senderHtmlUrl: string | null;
  pullRequest: VcsPullRequest | null;
  /** The files a push changed; null when the payload does not say (pull requests, tags, cut commit lists). */
  changedFiles: string[] | null;
  /** A push that deletes its branch or tag: nothing to run. */
  deleted: boolean;
}

/** A delivery's id and its event; the event is null for deliveries that ask nothing (pings, other events). */
export interface ParsedDelivery {
  deliveryId: string;
  event: VcsEvent | null;
}

/** A delivery that cannot be read (bad JSON, a missing field or header): answered with 400. */
export class BadDelivery extends Error {}

export type DeliveryHeaders = Record<string, string | string[] | undefined>;

/** The after (or before) of a push that creates (or deletes) its ref. */
const ZERO_SHA = '0000000000000000000000000000000000000000';

/** GitHub and GitLab put at most this many commits in a push: a longer push lists only some of its files. */
const COMMIT_LIST_CAP = 20;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

/** A header's value whatever the case of its name; a header sent more than once is ambiguous and counts as absent. */
function header(headers: DeliveryHeaders, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    if (Array.isArray(value)) return value.length === 1 ? value[0] : undefined;
    return value;
  }
  return undefined;
}

const firstHeader = (headers: DeliveryHeaders, names: readonly string[]): string | undefined =>
  names.map((n) => header(headers, n)?.trim()).find((v) => v);

/** The value at a dotted path of the payload, or undefined when a step is missing. */
const at = (payload: Json, path: string): unknown =>
  path.split('.').reduce<unknown>((value, key) => (isObject(value) ? value[key] : undefined), payload);

function text(payload: Json, path: string): string {
  const value = at(payload, path);
  if (typeof value !== 'string') throw new BadDelivery(`the payload's ${path} is missing or not a string`);
  return value;
}

function textOrNull(payload: Json, path: string): string | null {
  const value = at(payload, path);
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new BadDelivery(`the payload's ${path} is not a string`);
  return value;
}

function integer(payload: Json, path: string): number {
  const value = at(payload, path);
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new BadDelivery(`the payload's ${path} is missing or not an integer`);
  return value;
}

function parseBody(body: string): Json {
  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch {
    throw new BadDelivery('the body is not JSON');
  }
  if (!isObject(payload)) throw new BadDelivery('the body is not a JSON object');
  return payload;
}

function refName(ref: string): { branch: string | null; tag: string | null } {
  if (ref.startsWith('refs/heads/')) return { branch: ref.slice('refs/heads/'.length), tag: null };
  if (ref.startsWith('refs/tags/')) return { branch: null, tag: ref.slice('refs/tags/'.length) };
  return { branch: null, tag: null };
}

/**
 * The files a push's commits added, changed or removed, in first-seen order; null when the list is
 * cut short (GitHub stops at 20 commits, GitLab and Gitea say how many there were).
 */
function changedFiles(commits: unknown, total: unknown): string[] | null {
  if (!Array.isArray(commits) || commits.length >= COMMIT_LIST_CAP) return null;
  if (typeof total === 'number' && total > commits.length) return null;
  const files = new Set<string>();
  for (const commit of commits) {
    if (!isObject(commit)) throw new BadDelivery("the payload's commits are not objects");
    for (const key of ['added', 'modified', 'removed']) {
      const list = commit[key] ?? [];
      if (!isStringList(list)) throw new BadDelivery(`the payload's commits[].${key} is not a list of paths`);
      for (const file of list) files.add(file);
    }
  }
  return [...files];
}

type PullRequestAction = VcsPullRequest['action'];

const GITHUB_ACTIONS: Record<string, PullRequestAction> = {
  opened: 'opened',
  reopened: 'opened',
  synchronize: 'updated',
  closed: 'closed',
};

/** Gitea and Forgejo spell new commits on a pull request "synchronized". */
const GITEA_ACTIONS: Record<string, PullRequestAction> = { ...GITHUB_ACTIONS, synchronized: 'updated' };

/** The repository and sender fields GitHub-shaped payloads share. */
function githubRepository(p: Json) {
  return {
    identifier: text(p, 'repository.full_name'),
    cloneUrl: text(p, 'repository.clone_url'),
    repoHttpUrl: text(p, 'repository.html_url'),
    defaultBranch: textOrNull(p, 'repository.default_branch'),
    senderUsername: textOrNull(p, 'sender.login'),
    senderAvatarUrl: textOrNull(p, 'sender.avatar_url'),
    senderHtmlUrl: textOrNull(p, 'sender.html_url'),
  };
}

function githubPush(p: Json): VcsEvent | null {
  const { branch, tag } = refName(text(p, 'ref'));
  // Other refs (notes, pull request heads, ...) start nothing.
  if (branch === null && tag === null) return null;
  const repo = githubRepository(p);
  const after = text(p, 'after');
  const deleted = p.deleted === true || after === ZERO_SHA;
  // An annotated tag's after names the tag object; head_commit is the commit it points at.
  const head = isObject(p.head_commit) ? p.head_commit : null;
  return {
    kind: tag === null ? 'push' : 'tag',
    ...repo,
    branch,
    tag,
    commitSha: head ? text(head, 'id') : after,
    commitMessage: head ? textOrNull(head, 'message') : null,
    commitUrl: head ? textOrNull(head, 'url') : null,
    // Gitea and Forgejo call it compare_url.
    compareUrl: textOrNull(p, 'compare') ?? textOrNull(p, 'compare_url'),
    onDefaultBranch: branch !== null && branch === repo.defaultBranch,
    pullRequest: null,
    // A tag's push lists no commits, which says nothing about the files of the commit it tags.
    changedFiles: tag !== null || deleted ? null : changedFiles(p.commits, p.total_commits),
    deleted,
  };
}

function githubPullRequest(p: Json, actions: Record<string, PullRequestAction>): VcsEvent | null {
  const name = text(p, 'action');
  const action = Object.hasOwn(actions, name) ? actions[name] : null;
  // Labels, reviews, edits and the like change nothing a run depends on.
  if (action === null) return null;
  const repo = githubRepository(p);
  const branch = text(p, 'pull_request.head.ref');
  const sha = text(p, 'pull_request.head.sha');
  return {
    kind: 'pull_request',
    ...repo,
    branch,
    tag: null,
    commitSha: sha,
    commitMessage: null,
    // The payload carries no commit URL; a pull request's commits are reachable in the base repository.
    commitUrl: `${repo.repoHttpUrl}/commit/${sha}`,
    compareUrl: null,
    onDefaultBranch: branch === repo.defaultBranch,
    pullRequest: {
      number: integer(p, 'number'),
      url: text(p, 'pull_request.html_url'),
      title: text(p, 'pull_request.title'),
      body: textOrNull(p, 'pull_request.body'),
      baseBranch: text(p, 'pull_request.base.ref'),
      action,
    },
    changedFiles: null,
    deleted: false,
  };
}

function githubShaped(eventName: string, body: string, actions: Record<string, PullRequestAction>): VcsEvent | null {
  if (eventName !== 'push' && eventName !== 'pull_request') return null;
  const payload = parseBody(body);
  return eventName === 'push' ? githubPush(payload) : githubPullRequest(payload, actions);
}

/** A GitHub delivery: push (branches and tags) and pull_request events; ping and the rest ask nothing. */
export function parseGithubDelivery(headers: DeliveryHeaders, body: string): ParsedDelivery {
  const deliveryId = firstHeader(headers, ['X-GitHub-Delivery']);
  if (!deliveryId) throw new BadDelivery('the X-GitHub-Delivery header is missing');
  const eventName = firstHeader(headers, ['X-GitHub-Event']);
  if (!eventName) throw new BadDelivery('the X-GitHub-Event header is missing');
  return { deliveryId, event: githubShaped(eventName, body, GITHUB_ACTIONS) };
}

/** A Gitea or Forgejo delivery: they send GitHub's payloads under their own header names. */
export function parseGenericDelivery(headers: DeliveryHeaders, body: string): ParsedDelivery {
  const deliveryId = firstHeader(headers, ['X-Gitea-Delivery', 'X-Forgejo-Delivery', 'X-GitHub-Delivery']);
  if (!deliveryId) throw new BadDelivery('the delivery header (X-Gitea-Delivery or X-Forgejo-Delivery) is missing');
  const eventName = firstHeader(headers, ['X-Gitea-Event', 'X-Forgejo-Event', 'X-GitHub-Event']);
  if (!eventName) throw new BadDelivery('the event header (X-Gitea-Event or X-Forgejo-Event) is missing');
  return { deliveryId, event: githubShaped(eventName, body, GITEA_ACTIONS) };
}

/** The project fields every GitLab payload carries. */
function gitlabProject(p: Json) {
  return {
    identifier: text(p, 'project.path_with_namespace'),
    cloneUrl: text(p, 'project.git_http_url'),
    repoHttpUrl: text(p, 'project.web_url'),
    defaultBranch: textOrNull(p, 'project.default_branch'),
  };
}

function gitlabPush(p: Json, kind: 'push' | 'tag'): VcsEvent | null {
  const { branch, tag } = refName(text(p, 'ref'));
  if ((kind === 'push' ? branch : tag) === null) return null;
  const project = gitlabProject(p);
  const before = text(p, 'before');
  const after = text(p, 'after');
  const deleted = after === ZERO_SHA;
  // checkout_sha is the commit an annotated tag points at (after names the tag object); null on deletion.
  const sha = textOrNull(p, 'checkout_sha') ?? after;
  const commits = Array.isArray(p.commits) ? p.commits : [];
  const head = commits.find((c): c is Json => isObject(c) && c.id === sha);
  // GitLab sends no compare URL; its compare page takes the two ends of the push.
  const compareUrl = deleted || before === ZERO_SHA ? null : `${project.repoHttpUrl}/-/compare/${before}...${after}`;
  return {
    kind,
    ...project,
    branch,
    tag,
    commitSha: sha,
    commitMessage: head ? textOrNull(head, 'message') : null,
    commitUrl: head ? textOrNull(head, 'url') : null,
    compareUrl,
    onDefaultBranch: branch !== null && branch === project.defaultBranch,
    senderUsername: textOrNull(p, 'user_username'),
    senderAvatarUrl: textOrNull(p, 'user_avatar'),
    senderHtmlUrl: null,
    pullRequest: null,
    changedFiles: kind === 'tag' || deleted ? null : changedFiles(p.commits, p.total_commits_count),
    deleted,
  };
}

/** A merge request's action; an update counts as new commits only when it carries the previous head (oldrev). */
function gitlabAction(attributes: Json): PullRequestAction {
  switch (attributes.action) {
    case 'open':
    case 'reopen':
      return 'opened';
    case 'update':
      return typeof attributes.oldrev === 'string' && attributes.oldrev ? 'updated' : 'other';
    case 'close':
    case 'merge':
      return 'closed';
    default:
      return 'other';
  }
}

function gitlabMergeRequest(p: Json): VcsEvent {
  const project = gitlabProject(p);
  if (!isObject(p.object_attributes)) throw new BadDelivery("the payload's object_attributes is missing");
  const branch = text(p, 'object_attributes.source_branch');
  return {
    kind: 'pull_request',
    ...project,
    branch,
    tag: null,
    commitSha: text(p, 'object_attributes.last_commit.id'),
    commitMessage: textOrNull(p, 'object_attributes.last_commit.message'),
    commitUrl: textOrNull(p, 'object_attributes.last_commit.url'),
    compareUrl: null,
    onDefaultBranch: branch === project.defaultBranch,
    senderUsername: textOrNull(p, 'user.username'),
    senderAvatarUrl: textOrNull(p, 'user.avatar_url'),
    senderHtmlUrl: null,
    pullRequest: {
      number: integer(p, 'object_attributes.iid'),
      url: text(p, 'object_attributes.url'),
      title: text(p, 'object_attributes.title'),
      body: textOrNull(p, 'object_attributes.description'),
      baseBranch: text(p, 'object_attributes.target_branch'),
      action: gitlabAction(p.object_attributes),
    },
    changedFiles: null,
    deleted: false,
  };
}

/** A GitLab delivery: push, tag push and merge request hooks; other hooks ask nothing. */
export function parseGitlabDelivery(headers: DeliveryHeaders, body: string): ParsedDelivery {
  // Idempotency-Key stays the same when GitLab retries a delivery; the event's UUID is the older
  // name of one event. The webhook's own UUID names the hook, not a delivery, so it is never used.
  const deliveryId = firstHeader(headers, ['Idempotency-Key', 'X-Gitlab-Event-UUID']);
  if (!deliveryId) throw new BadDelivery('the delivery has no Idempotency-Key or X-Gitlab-Event-UUID header');
  const eventName = firstHeader(headers, ['X-Gitlab-Event']);
  if (!eventName) throw new BadDelivery('the X-Gitlab-Event header is missing');
  switch (eventName) {
    case 'Push Hook':
      return { deliveryId, event: gitlabPush(parseBody(body), 'push') };
    case 'Tag Push Hook':
      return { deliveryId, event: gitlabPush(parseBody(body), 'tag') };
    case 'Merge Request Hook':
      return { deliveryId, event: gitlabMergeRequest(parseBody(body)) };
    default:
      return { deliveryId, event: null };
  }
}

/** Equal hex digests, compared in constant time; anything but a well-formed digest is unequal. */
function digestsEqual(expectedHex: string, givenHex: string): boolean {
  if (!/^[0-9a-f]+$/i.test(givenHex) || givenHex.length !== expectedHex.length) return false;
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(givenHex.toLowerCase(), 'hex'));
}

/** Whether X-Hub-Signature-256 signs the body with the secret; an empty secret signs nothing. */
export async function githubSignatureValid(
  secret: string,
  body: string,
  signatureHeader: string | undefined,
): Promise<boolean> {
  if (!secret || !signatureHeader) return false;
  try {
    return await verify(secret, body, signatureHeader.trim());
  } catch {
    // It throws on an empty body rather than answering.
    return false;
  }
}

/** Whether X-Gitlab-Token is the secret; digests of both are compared so their lengths do not leak. */
export function gitlabTokenValid(secret: string, tokenHeader: string | undefined): boolean {
  if (!secret || tokenHeader === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(secret), digest(tokenHeader));
}

/**
 * Whether a Gitea or Forgejo delivery is signed with the secret: the hex HMAC-SHA256 of the body in
 * X-Gitea-Signature or X-Forgejo-Signature, else "sha256=<hex>" in X-Hub-Signature-256. The first
 * of them present decides.
 */
export function genericSignatureValid(secret: string, body: string, headers: DeliveryHeaders): boolean {
  if (!secret) return false;
  const expected = createHmac('sha256', secret).update(body, 'utf8').digest('hex');
  const plain = firstHeader(headers, ['X-Gitea-Signature', 'X-Forgejo-Signature']);
  if (plain) return digestsEqual(expected, plain);
  const prefixed = firstHeader(headers, ['X-Hub-Signature-256']);
  if (prefixed?.startsWith('sha256=')) return digestsEqual(expected, prefixed.slice('sha256='.length));
  return false;
}

/** Whether a delivery in a provider family's format carries its signature over `body` with `secret`. */
export async function signedAs(
  family: ProviderFamily,
  secret: string,
  body: string,
  headers: DeliveryHeaders,
): Promise<boolean> {
  if (family === 'github') return githubSignatureValid(secret, body, header(headers, 'X-Hub-Signature-256'));
  if (family === 'gitlab') return gitlabTokenValid(secret, header(headers, 'X-Gitlab-Token'));
  return genericSignatureValid(secret, body, headers);
}

/** A delivery in a provider family's format (see the parsers above). */
export function parseDelivery(family: ProviderFamily, headers: DeliveryHeaders, body: string): ParsedDelivery {
  if (family === 'github') return parseGithubDelivery(headers, body);
  if (family === 'gitlab') return parseGitlabDelivery(headers, body);
  return parseGenericDelivery(headers, body);
}
