import { spawn } from 'node:child_process';
import { isIPv6 } from 'node:net';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { decryptSecret } from '../platform/crypto.js';
import { allowedAddressOf } from '../platform/outbound.js';
import type { ProviderDeps } from './hooks.js';
import { connectionOfToken, type OAuthClientRow } from './repo.js';
import { providerFamily } from './rules.js';

// git as the service runs it for repositories: nothing of the machine's configuration, only
// http(s), no redirects, pinned to addresses the outbound guard allows, the token sent to the
// repository's own origin only.

/** How long one git command may take before the fetch gives up. */
const GIT_TIMEOUT_MS = 5 * 60_000;

/** A fetch that cannot succeed as asked: the version errors with this message. */
export class FetchFailed extends Error {}

/** The user name git presents with a connection's token, as each provider expects it. */
const GIT_USERS = { github: 'x-access-token', gitlab: 'oauth2', generic: 'git' } as const;
const gitUser = (c: OAuthClientRow): string => GIT_USERS[providerFamily(c.service_provider)];

/** The repository's clone URL: from the connection's own address, never from a delivery's payload. */
const cloneUrlOf = (c: OAuthClientRow, identifier: string): URL =>
  new URL(`${c.http_url.replace(/\/+$/, '')}/${identifier}.git`);

/** Runs git with nothing of the machine's configuration; resolves with its output, rejects with its reason. */
export function runGit(args: string[], cwd: string, home: string): Promise<string> {
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

/** A repository as git reaches it: its clone URL and the settings that carry the connection's token. */
export interface RepositoryAccess {
  url: URL;
  settings: string[];
}

/** How git reaches `identifier` through a connection's token; FetchFailed when the token or its connection is gone. */
export async function repositoryAccess(
  deps: ProviderDeps,
  repo: { tokenId: string; identifier: string },
): Promise<RepositoryAccess> {
  const found = await connectionOfToken(deps.db, repo.tokenId);
  if (!found) throw new FetchFailed('the VCS connection was removed');
  const { client, tokenSealed } = found;
  const secret = decryptSecret(deps.config.encryptionKey, tokenSealed);
  const authorization = `Basic ${Buffer.from(`${gitUser(client)}:${secret}`).toString('base64')}`;
  const url = cloneUrlOf(client, repo.identifier);
  return { url, settings: [...BASE_SETTINGS, ...(await originSettings(deps, url, authorization))] };
}

/** Checks one commit out into `into` (a new directory), shallow, with its submodules when asked. */
export async function checkoutCommit(
  deps: ProviderDeps,
  access: RepositoryAccess,
  sha: string,
  into: string,
  home: string,
  submodules: boolean,
): Promise<void> {
  const { url, settings } = access;
  await runGit(['init', '-q', into], home, home);
  await runGit([...settings, 'fetch', '-q', '--depth', '1', '--no-tags', url.href, sha], into, home);
  await runGit([...settings, 'checkout', '-q', '--detach', 'FETCH_HEAD'], into, home);
  if (submodules) await fetchSubmodules(deps, settings, into, home, url);
}

/** The repository's branches and the commit each is at, and its default branch (where HEAD points). */
export async function remoteHeads(
  access: RepositoryAccess,
  home: string,
): Promise<{ defaultBranch: string | null; branches: Map<string, string> }> {
  const out = await runGit(
    [...access.settings, 'ls-remote', '--symref', access.url.href, 'HEAD', 'refs/heads/*'],
    home,
    home,
  );
  const branches = new Map<string, string>();
  let defaultBranch: string | null = null;
  for (const line of out.split('\n')) {
    const symref = /^ref: refs\/heads\/(\S+)\tHEAD$/.exec(line);
    if (symref) defaultBranch = symref[1];
    const [sha, ref] = line.split('\t');
    if (sha && ref?.startsWith('refs/heads/')) branches.set(ref.slice('refs/heads/'.length), sha);
  }
  return { defaultBranch, branches };
}

/** The repository's tags and the commit each names (an annotated tag's commit, not the tag object). */
export async function remoteTags(access: RepositoryAccess, home: string): Promise<Map<string, string>> {
  const out = await runGit([...access.settings, 'ls-remote', '--tags', access.url.href], home, home);
  const tags = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [sha, ref] = line.split('\t');
    if (!sha || !ref?.startsWith('refs/tags/')) continue;
    const peeled = ref.endsWith('^{}');
    const name = ref.slice('refs/tags/'.length).replace(/\^\{\}$/, '');
    if (peeled || !tags.has(name)) tags.set(name, sha);
  }
  return tags;
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
    // Not --recursive: a submodule's own submodules would be fetched from addresses nobody vetted.
    [...settings, ...extra, 'submodule', 'update', '-q', '--init', '--depth', '1'],
    into,
    home,
  );
}

/**
 * Packs the checked-out tree in `dir` (without git's own files) into a .tar.gz file beside it, and
 * opens it: the archive is whole before anything reads it. FetchFailed with tar's reason when
 * tar fails.
 */
export async function packTree(dir: string): Promise<Readable> {
  const file = `${dir}.tar.gz`;
  await new Promise<void>((resolve, reject) => {
    const tar = spawn('tar', ['-czf', file, '--exclude=.git', '-C', dir, '.'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    tar.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 2000) stderr += d.toString('utf8');
    });
    tar.on('error', (err) => reject(new FetchFailed(`tar could not start: ${err.message}`)));
    tar.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new FetchFailed(`packing the files failed: ${stderr.trim() || `tar exited with ${code}`}`)),
    );
  });
  return createReadStream(file);
}
