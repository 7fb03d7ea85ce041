import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isIPv6 } from 'node:net';
import { decryptSecret } from '../platform/crypto.js';
import { allowedAddressOf } from '../platform/outbound.js';
import { failUpload, findCv, findIngress, type CvRow } from '../configuration-versions/index.js';
import { acceptUpload, type FetchedFrom } from '../runs/index.js';
import { enqueueAllAfterCommit, jobs } from '../platform/queues.js';
import { plansWaitingFor } from './repositories.repo.js';
import { findWorkspace } from '../workspaces/index.js';
import { UploadRefused } from '../configuration-versions/index.js';
import type { ProviderDeps } from './hooks.js';
import { findOAuthClient, findOAuthToken, type OAuthClientRow } from './repo.js';

/** How long one git command may take before the fetch gives up. */
const GIT_TIMEOUT_MS = 5 * 60_000;

/** A fetch that cannot succeed as asked: the version errors with this message. */
class FetchFailed extends Error {}

/** The user name git presents with a connection's token, as each provider expects it. */
const gitUser = (c: OAuthClientRow): string =>
  c.service_provider.startsWith('github')
    ? 'x-access-token'
    : c.service_provider.startsWith('gitlab')
      ? 'oauth2'
      : 'git';

/** The repository's clone URL: from the connection's own address, never from a delivery's payload. */
const cloneUrlOf = (c: OAuthClientRow, identifier: string): URL =>
  new URL(`${c.http_url.replace(/\/+$/, '')}/${identifier}.git`);

/** Runs git with nothing of the machine's configuration; resolves with its output, rejects with its reason. */
function runGit(args: string[], cwd: string, home: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        LC_ALL: 'C',
        GIT_TERMINAL_PROMPT: '0',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_ASKPASS: '/bin/false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: GIT_TIMEOUT_MS,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      if (stdout.length < 64_000) stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString('utf8');
    });
    child.on('error', (err) => reject(new FetchFailed(`git could not start: ${err.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) return resolve(stdout);
      const why = stderr.trim() || (signal ? `git stopped (${signal})` : `git exited with ${code}`);
      reject(new FetchFailed(why));
    });
  });
}

/** git's settings for one origin: only http(s), no redirects, pinned to vetted addresses, the token sent to that origin only. */
async function originSettings(deps: ProviderDeps, url: URL, authorization: string | null): Promise<string[]> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new FetchFailed(`only http and https repositories are fetched, not ${url.protocol.replace(':', '')}`);
  let address: string;
  try {
    address = await allowedAddressOf(url.hostname, deps.config.outboundAllowedCidrs);
  } catch {
    throw new FetchFailed(`the repository's address ${url.hostname} is not allowed`);
  }
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const pinned = isIPv6(address) ? `[${address}]` : address;
  return [
    '-c',
    `http.curloptResolve=${host}:${port}:${pinned}`,
    ...(authorization ? ['-c', `http.${url.origin}/.extraHeader=Authorization: ${authorization}`] : []),
  ];
}

const BASE_SETTINGS = [
  '-c',
  'protocol.allow=never',
  '-c',
  'protocol.https.allow=always',
  '-c',
  'protocol.http.allow=always',
  '-c',
  'http.followRedirects=false',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'advice.detachedHead=false',
];

/**
 * Fetches a version created by a webhook delivery: the commit its ingress attributes name, shallow
 * and with submodules when the workspace asks, through the connection's token; its files are then
 * accepted as an upload is (same checks and limits), which queues the run. A repository that
 * cannot be fetched leaves the version errored with git's reason.
 */
export async function fetchConfigurationVersion(deps: ProviderDeps, cvId: string): Promise<void> {
  const cv = await findCv(deps.db, cvId);
  if (!cv || cv.status !== 'fetching') return;
  const dir = await mkdtemp(join(tmpdir(), 'vcs-fetch-'));
  try {
    const message = await checkout(deps, cv, join(dir, 'repo'), dir);
    // A version archived before is fetched again for the runs that wait for it.
    const again = 'archived-at' in cv.status_timestamps;
    await acceptArchive(deps, cv, join(dir, 'repo'), { message, again });
    if (again) await queueWaitingPlans(deps, cv.id);
  } catch (err) {
    if (err instanceof FetchFailed) await failUpload(deps.db, cv.id, err.message, 'fetching');
    else if (!(err instanceof UploadRefused)) throw err;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Checks the version's commit out into `into`; returns the run's message (the commit's). */
async function checkout(deps: ProviderDeps, cv: CvRow, into: string, home: string): Promise<string> {
  const [ingress, ws] = await Promise.all([findIngress(deps.db, cv.id), findWorkspace(deps.db, cv.workspace_id!)]);
  const repo = ws?.vcs_repo;
  if (!ingress?.commit_sha || !repo) throw new FetchFailed('the workspace no longer follows a repository');
  const token = await findOAuthToken(deps.db, String(repo['oauth-token-id']));
  const client = token && (await findOAuthClient(deps.db, token.oauth_client_id));
  if (!token || !client) throw new FetchFailed("the workspace's VCS connection was removed");
  const secret = decryptSecret(deps.config.encryptionKey, token.token_sealed);
  const authorization = `Basic ${Buffer.from(`${gitUser(client)}:${secret}`).toString('base64')}`;
  const url = cloneUrlOf(client, String(repo.identifier));
  const settings = [...BASE_SETTINGS, ...(await originSettings(deps, url, authorization))];
  await runGit(['init', '-q', into], home, home);
  await runGit([...settings, 'fetch', '-q', '--depth', '1', '--no-tags', url.href, ingress.commit_sha], into, home);
  await runGit([...settings, 'checkout', '-q', '--detach', 'FETCH_HEAD'], into, home);
  if (repo['ingress-submodules'] === true) await fetchSubmodules(deps, settings, into, home, url);
  return ingress.commit_message?.split('\n')[0] || 'Triggered via VCS';
}

/** Submodules are fetched only from vetted addresses; those on the repository's own origin get its token. */
async function fetchSubmodules(
  deps: ProviderDeps,
  settings: string[],
  into: string,
  home: string,
  origin: URL,
): Promise<void> {
  // No .gitmodules (git exits 1): nothing to fetch.
  const listed = await runGit(['config', '-f', '.gitmodules', '--get-regexp', 'url'], into, home).catch(() => '');
  const extra: string[] = [];
  for (const line of listed.split('\n').filter(Boolean)) {
    const raw = line.split(/\s+/)[1] ?? '';
    let url: URL;
    try {
      url = new URL(raw, origin.href.endsWith('/') ? origin.href : `${origin.href}/`);
    } catch {
      throw new FetchFailed(`submodule URL ${raw} is not an http(s) URL`);
    }
    if (url.origin !== origin.origin) extra.push(...(await originSettings(deps, url, null)));
  }
  await runGit(
    [...settings, ...extra, 'submodule', 'update', '-q', '--init', '--recursive', '--depth', '1'],
    into,
    home,
  );
}

/** Packs the checked-out tree (without git's own files) and accepts it as the version's archive. */
async function acceptArchive(deps: ProviderDeps, cv: CvRow, dir: string, fetched: FetchedFrom): Promise<void> {
  const tar = spawn('tar', ['-czf', '-', '--exclude=.git', '-C', dir, '.'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<number | null>((resolve) => tar.on('close', resolve));
  await acceptUpload(deps, cv, tar.stdout, undefined, fetched);
  if ((await exited) !== 0) deps.logger.warn('packing a fetched repository ended with an error', { cv: cv.id });
}

/** Queues the plans of the runs that waited for a version fetched again. */
async function queueWaitingPlans(deps: ProviderDeps, cvId: string): Promise<void> {
  const waiting = await plansWaitingFor(deps.db, cvId);
  await enqueueAllAfterCommit(
    deps.queues,
    waiting.map((r) => jobs.runStep(r.id, 'plan', r.organization_name)),
    deps.logger,
  );
}
