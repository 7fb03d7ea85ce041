import type { Runtime } from '../runtime.js';
import type { Db } from '../platform/db.js';
import { BadRequest, NotFound, Unauthorized } from '../platform/errors.js';
import { decryptSecret } from '../platform/crypto.js';
import { enqueueAllAfterCommit, jobs } from '../platform/queues.js';
import { insertCv, insertIngress } from '../configuration-versions/index.js';
import {
  BadDelivery,
  parseDelivery,
  signedAs,
  type DeliveryHeaders,
  type ParsedDelivery,
  type VcsEvent,
} from './events.js';
import { connectionOfToken, type OAuthClientRow } from './repo.js';
import { hookSecret } from './repositories.js';
import { followersOf, modulesFollowing, recordDelivery, setDeliveryVersions } from './repositories.repo.js';
import { runFor, type FollowingWorkspace } from './triggers.js';
import { providerFamily, type ServiceProvider } from './rules.js';

/** The `source` of the configuration versions a connection's deliveries create. */
const sourceOf = (p: ServiceProvider): string =>
  p.startsWith('bitbucket')
    ? 'bitbucket'
    : p.startsWith('ado')
      ? 'ado'
      : { github: 'github', gitlab: 'gitlab', generic: 'git' }[providerFamily(p)];

/** A delivery's body as parsed, or 400 when it cannot be read. */
function parsedOrRefused(parse: () => ParsedDelivery): ParsedDelivery {
  try {
    return parse();
  } catch (err) {
    if (err instanceof BadDelivery) throw new BadRequest(err.message);
    throw err;
  }
}

/** A workspace that follows a hook, as a delivery reads it. */
interface Follower extends FollowingWorkspace {
  id: string;
  organizationName: string;
  tokenId: string;
}

async function followingWorkspaces(db: Db, hookId: string): Promise<Follower[]> {
  const rows = await followersOf(db, hookId);
  return rows.map((w) => {
    const repo = w.vcs_repo as Record<string, unknown>;
    return {
      id: w.id,
      organizationName: w.organization_name,
      tokenId: String(repo['oauth-token-id']),
      branch: typeof repo.branch === 'string' ? repo.branch : '',
      tagsRegex: typeof repo['tags-regex'] === 'string' && repo['tags-regex'] ? repo['tags-regex'] : null,
      speculativeEnabled: w.speculative_enabled,
      fileTriggersEnabled: w.file_triggers_enabled,
      workingDirectory: w.working_directory ?? '',
      triggerPrefixes: w.trigger_prefixes ?? [],
      triggerPatterns: w.trigger_patterns ?? [],
    };
  });
}

/** What a received delivery did. */
export interface DeliveryOutcome {
  /** `duplicate`: the provider sent it before (its delivery id is known); nothing was created again. */
  outcome: 'accepted' | 'duplicate';
  configurationVersionIds: string[];
}

/** What follows a hook: its workspaces, its modules, and the connection they reach the repository through. */
interface Following {
  followers: Follower[];
  modules: Awaited<ReturnType<typeof modulesFollowing>>;
  client: OAuthClientRow;
}

/** What follows a hook; 404 when nothing does. */
async function followingOf(rt: Runtime, hookId: string): Promise<Following> {
  const [followers, modules] = await Promise.all([followingWorkspaces(rt.db, hookId), modulesFollowing(rt.db, hookId)]);
  const tokenId = followers[0]?.tokenId ?? (modules[0] ? String(modules[0].vcs_repo['oauth-token-id']) : null);
  if (!tokenId) throw new NotFound();
  const client = (await connectionOfToken(rt.db, tokenId))?.client;
  if (!client) throw new NotFound();
  return { followers, modules, client };
}

/**
 * Takes a webhook delivery for hook `hookId`: checks the provider's signature (401 when it does
 * not hold, before anything is read from the body), then takes its event (see takeEvent).
 */
export async function receiveDelivery(
  rt: Runtime,
  hookId: string,
  headers: DeliveryHeaders,
  body: string,
): Promise<DeliveryOutcome> {
  const following = await followingOf(rt, hookId);
  const { client } = following;
  const family = providerFamily(client.service_provider);
  // A server whose webhook is set up by hand signs with the secret given to its connection.
  const secret =
    family === 'generic' && client.secret_sealed
      ? decryptSecret(rt.config.encryptionKey, client.secret_sealed)
      : hookSecret(rt.config.encryptionKey, hookId);
  if (!(await signedAs(family, secret, body, headers))) throw new Unauthorized('the webhook signature does not match');
  const delivery = parsedOrRefused(() => parseDelivery(family, headers, body));
  return takeEvent(rt, hookId, following, delivery.deliveryId, delivery.event);
}

/** Takes an event a poll of the hook's repository saw, as a delivery of it (`deliveryId` names the commit, so it is taken once). */
export async function takePolledEvent(
  rt: Runtime,
  hookId: string,
  deliveryId: string,
  event: VcsEvent,
): Promise<DeliveryOutcome> {
  return takeEvent(rt, hookId, await followingOf(rt, hookId), deliveryId, event);
}

/**
 * Records a delivery once by its id, and for each workspace its event runs (and each module a
 * pull request tests) creates a configuration version to fetch with the commit's ingress
 * attributes, all in one transaction; the fetches, and the tag publications of modules, are
 * queued after it commits.
 */
async function takeEvent(
  rt: Runtime,
  hookId: string,
  { followers, modules, client }: Following,
  deliveryId: string,
  event: VcsEvent | null,
): Promise<DeliveryOutcome> {
  const result = await rt.db.transaction(async (tx) => {
    if (!(await recordDelivery(tx, hookId, deliveryId, event?.kind ?? 'ignored')))
      return { outcome: 'duplicate' as const, created: [] };
    // A commit pushed to a branch runs once, however it is heard of (a webhook, a poll, both).
    const pushed = event?.kind === 'push' ? `commit-${event.branch}-${event.commitSha}` : null;
    if (pushed && deliveryId !== pushed && !(await recordDelivery(tx, hookId, pushed, 'push')))
      return { outcome: 'duplicate' as const, created: [] };
    const created: { id: string; organization: string; since: string }[] = [];
    // A version of the commit, to fetch: a workspace's run, or a module's test run.
    const toFetch = async (
      owner: { workspace_id: string } | { registry_module_id: string },
      speculative: boolean,
      organization: string,
    ) => {
      const cv = await insertCv(tx, {
        ...owner,
        source: sourceOf(client.service_provider),
        auto_queue_runs: true,
        speculative,
        // A pull request's version never becomes the workspace's current one (its run never applies).
        provisional: speculative,
        status: 'fetching',
        created_by_id: null,
      });
      await insertIngress(tx, cv.id, ingressOf(event!));
      created.push({ id: cv.id, organization, since: cv.status_timestamps['fetching-at'] });
    };
    for (const ws of event ? followers : []) {
      const run = runFor(ws, event!);
      if (run) await toFetch({ workspace_id: ws.id }, run.speculative, ws.organizationName);
    }
    // A pull request against a module's repository tests the module with its commit (a test run
    // whose source is the configuration version), as TFE's branch-based modules are tested.
    const testsModules =
      event?.kind === 'pull_request' && ['opened', 'updated'].includes(event.pullRequest?.action ?? '');
    for (const m of testsModules ? modules : []) await toFetch({ registry_module_id: m.id }, true, m.organization_name);
    if (created.length)
      await setDeliveryVersions(
        tx,
        hookId,
        deliveryId,
        created.map((c) => c.id),
      );
    return { outcome: 'accepted' as const, created };
  });
  // A tag may publish a version of the modules that follow the repository.
  const tagged = result.outcome === 'accepted' && event?.kind === 'tag' && !event.deleted;
  await enqueueAllAfterCommit(
    rt.queues,
    [
      ...result.created.map((c) => jobs.vcsFetch(c.id, c.organization, c.since)),
      ...(tagged ? modules.map((m) => jobs.vcsModuleSync(m.id, m.organization_name, deliveryId)) : []),
    ],
    rt.logger,
  );
  return { outcome: result.outcome, configurationVersionIds: result.created.map((c) => c.id) };
}

/** The commit an event names, as a version's ingress attributes keep it. */
function ingressOf(e: VcsEvent) {
  return {
    branch: e.branch,
    clone_url: e.cloneUrl,
    commit_message: e.commitMessage,
    commit_sha: e.commitSha,
    commit_url: e.commitUrl,
    compare_url: e.compareUrl,
    identifier: e.identifier,
    is_pull_request: e.pullRequest !== null,
    on_default_branch: e.onDefaultBranch,
    pull_request_number: e.pullRequest?.number ?? null,
    pull_request_url: e.pullRequest?.url ?? null,
    pull_request_title: e.pullRequest?.title ?? null,
    pull_request_body: e.pullRequest?.body ?? null,
    tag: e.tag,
    sender_username: e.senderUsername,
    sender_avatar_url: e.senderAvatarUrl,
    sender_html_url: e.senderHtmlUrl,
  };
}
