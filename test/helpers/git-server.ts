import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/**
 * Real git repositories served over HTTP on loopback by `git http-backend` (read only), for tests
 * of what clones or fetches from a VCS host. Commits are made through a working clone on disk and
 * pushed to the bare repository directly, not over HTTP.
 */
export interface GitServer {
  /** Base URL, e.g. http://127.0.0.1:PORT */
  url: string;
  /** Creates an empty bare repository `owner/name` (path under the server root, served at `${url}/${identifier}.git`) and returns its clone URL. */
  createRepo(identifier: string): Promise<string>;
  /** Makes a commit on `branch` (created from the current tip of that branch, or an orphan first commit) that writes the given files (path -> content; content null deletes the file), pushes it to the bare repo, and returns the commit sha. */
  commit(identifier: string, branch: string, files: Record<string, string | null>, message?: string): Promise<string>;
  /** Creates lightweight tag `tag` at `sha` (or the branch tip named) in the bare repo. */
  tag(identifier: string, tag: string, at: string): Promise<void>;
  /** Number of HTTP requests to the repo's git endpoints so far (for asserting that a fetch happened), rejected ones included. */
  requests(identifier: string): number;
  close(): Promise<void>;
}

export interface GitResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

// Commits need an author; the machine's own config is ignored (see gitEnv).
const IDENTITY = ['-c', 'user.name=test', '-c', 'user.email=test@example.test'];

/**
 * The environment for git commands: none of the caller's GIT_* variables or this machine's config
 * files, English messages, and no prompt for credentials (a rejected clone fails instead of waiting).
 */
export function gitEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('GIT_') && key !== 'SSH_ASKPASS') env[key] = value;
  }
  return {
    ...env,
    LC_ALL: 'C',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    ...extra,
  };
}

/** Runs `git` with gitEnv(); resolves with its exit code and output, whatever the code. */
export function runGit(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn('git', args, { cwd: opts.cwd, env: gitEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    proc.on('error', reject);
    proc.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `git` and resolves with its trimmed stdout; rejects when it exits non-zero. */
async function git(args: string[], cwd?: string): Promise<string> {
  const result = await runGit(args, { cwd });
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} exited ${result.code}: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/** Rejects `..`, `.git` and absolute paths, so that a test's identifier or file path stays inside its directory. */
function checkedPath(path: string, what: string): string {
  const segments = path.split('/');
  if (!path || path.startsWith('/') || segments.some((s) => s === '' || s === '.' || s === '..' || s === '.git'))
    throw new Error(`invalid ${what}: ${JSON.stringify(path)}`);
  return path;
}

/** Where a CGI response's headers end: the blank line and the first byte after it. */
function headerEnd(buf: Buffer): { start: number; next: number } | null {
  const crlf = buf.indexOf('\r\n\r\n');
  const lf = buf.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { start: crlf, next: crlf + 4 };
  if (lf >= 0) return { start: lf, next: lf + 2 };
  return null;
}

/** A CGI response's header block: its `Status:` (200 without one) and the other headers. */
function parseCgiHeaders(block: string): { status: number; headers: OutgoingHttpHeaders } {
  let status = 200;
  const headers: Record<string, string[]> = {};
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 500;
    else (headers[name] ??= []).push(value);
  }
  return { status, headers };
}

function reply(res: ServerResponse, status: number, text: string, headers: OutgoingHttpHeaders = {}): void {
  if (res.writableEnded) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'text/plain', ...headers });
  res.end(`${text}\n`);
}

/** Starts the server on 127.0.0.1 with an OS-chosen port. With `token`, every request must carry HTTP Basic auth whose password is that token (any username), else 401 with WWW-Authenticate: Basic; without, anonymous reads are allowed. */
export async function startGitServer(opts: { token?: string } = {}): Promise<GitServer> {
  const dir = await mkdtemp(join(tmpdir(), 'rls-git-server-'));
  // Only bare repositories live under the served root; working clones are made beside it.
  const reposDir = join(dir, 'repos');
  await mkdir(reposDir);
  const repos = new Set<string>();
  const counts = new Map<string, number>();
  const backends = new Set<ChildProcess>();
  // One commit or tag at a time per repository: concurrent pushes to one branch would race.
  const queues = new Map<string, Promise<unknown>>();

  /** The user a request is served as ('' for anonymous), or null when it must be rejected. */
  const authorize = (req: IncomingMessage): string | null => {
    const match = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : null;
    const colon = decoded?.indexOf(':') ?? -1;
    const user = decoded !== null && colon >= 0 ? decoded.slice(0, colon) : null;
    const password = decoded !== null && colon >= 0 ? decoded.slice(colon + 1) : null;
    if (opts.token === undefined) return user ?? '';
    return password === opts.token ? (user ?? '') : null;
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return reply(res, 400, 'bad path');
    }
    const repo = /^\/(.+?)\.git(?:\/|$)/.exec(path)?.[1];
    if (repo !== undefined) counts.set(repo, (counts.get(repo) ?? 0) + 1);
    const user = authorize(req);
    if (user === null) return reply(res, 401, 'authentication required', { 'WWW-Authenticate': 'Basic realm="git"' });
    if (path.split('/').includes('..')) return reply(res, 404, 'not found');

    const encoding = (req.headers['content-encoding'] ?? '').toLowerCase();
    const gzipped = encoding === 'gzip' || encoding === 'x-gzip';
    const length = req.headers['content-length'];
    const protocol = req.headers['git-protocol'];
    const child = spawn('git', ['http-backend'], {
      env: gitEnv({
        GIT_PROJECT_ROOT: reposDir,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: path,
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_ADDR: req.socket.remoteAddress ?? '',
        ...(user ? { REMOTE_USER: user } : {}),
        ...(typeof protocol === 'string' ? { GIT_PROTOCOL: protocol } : {}),
        // The length of a gzipped body is not that of what git reads, which then reads to the end.
        ...(length !== undefined && !gzipped ? { CONTENT_LENGTH: length } : {}),
      }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    backends.add(child);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => undefined);
    child.on('error', (err) => reply(res, 500, `git http-backend: ${err.message}`));
    // The body is unzipped here: git clients gzip the larger request bodies they post.
    let body: Readable = req;
    if (gzipped) {
      const gunzip = createGunzip();
      gunzip.on('error', () => {
        child.kill();
        reply(res, 400, 'bad gzip body');
      });
      body = req.pipe(gunzip);
    }
    body.pipe(child.stdin);

    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = headerEnd(head);
      if (!end) return;
      child.stdout.off('data', onData);
      child.stdout.pause();
      const { status, headers } = parseCgiHeaders(head.subarray(0, end.start).toString('latin1'));
      res.writeHead(status, headers);
      res.write(head.subarray(end.next));
      child.stdout.pipe(res);
    };
    child.stdout.on('data', onData);
    child.on('close', (code) => {
      backends.delete(child);
      if (!res.headersSent) reply(res, 502, `git http-backend exited ${code} without a response: ${stderr.trim()}`);
    });
    res.on('close', () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    });
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const bare = (identifier: string): string => {
    if (!repos.has(identifier)) throw new Error(`no repository ${identifier} (createRepo first)`);
    return join(reposDir, `${identifier}.git`);
  };
  const serialized = <T>(identifier: string, work: () => Promise<T>): Promise<T> => {
    const next = (queues.get(identifier) ?? Promise.resolve()).then(work, work);
    queues.set(
      identifier,
      next.catch(() => undefined),
    );
    return next;
  };

  let closed: Promise<void> | undefined;
  return {
    url: base,
    async createRepo(identifier) {
      checkedPath(identifier, 'repository identifier');
      if (repos.has(identifier)) throw new Error(`repository ${identifier} exists`);
      repos.add(identifier);
      const path = join(reposDir, `${identifier}.git`);
      await mkdir(dirname(path), { recursive: true });
      await git(['init', '-q', '--bare', '-b', 'main', path]);
      // A shallow fetch of a commit by its sha (as a VCS-driven run pins one) needs this of upload-pack.
      await git(['--git-dir', path, 'config', 'uploadpack.allowAnySHA1InWant', 'true']);
      // Read only over HTTP: pushes go to the bare repository on disk.
      await git(['--git-dir', path, 'config', 'http.receivepack', 'false']);
      return `${base}/${identifier}.git`;
    },
    commit(identifier, branch, files, message = 'commit') {
      return serialized(identifier, async () => {
        const target = bare(identifier);
        const work = await mkdtemp(join(dir, 'work-'));
        try {
          await git(['init', '-q', '-b', branch, work]);
          const tip = await runGit(['--git-dir', target, 'rev-parse', '--verify', '-q', `refs/heads/${branch}`]);
          if (tip.code === 0) {
            await git(['fetch', '-q', target, `refs/heads/${branch}`], work);
            await git(['reset', '-q', '--hard', 'FETCH_HEAD'], work);
          }
          for (const [path, content] of Object.entries(files)) {
            const file = join(work, checkedPath(path, 'file path'));
            if (content === null) {
              await rm(file, { recursive: true, force: true });
            } else {
              await mkdir(dirname(file), { recursive: true });
              await writeFile(file, content);
            }
          }
          await git(['add', '-A'], work);
          await git([...IDENTITY, 'commit', '-q', '--allow-empty', '-m', message], work);
          await git(['push', '-q', target, `HEAD:refs/heads/${branch}`], work);
          return await git(['rev-parse', 'HEAD'], work);
        } finally {
          await rm(work, { recursive: true, force: true });
        }
      });
    },
    tag(identifier, tag, at) {
      return serialized(identifier, async () => {
        await git(['--git-dir', bare(identifier), 'tag', tag, `${at}^{commit}`]);
      });
    },
    requests: (identifier) => counts.get(identifier) ?? 0,
    close() {
      closed ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        for (const child of backends) child.kill();
        await stopped;
        await Promise.allSettled(queues.values());
        await rm(dir, { recursive: true, force: true });
      })();
      return closed;
    },
  };
}
