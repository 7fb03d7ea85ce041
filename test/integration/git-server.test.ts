import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';

/*
 * The git server helper against the real git client: what other suites clone or fetch from it
 * (over HTTP, with a token as a VCS host would ask for) is what its commits and tags put there.
 */

const TOKEN = 'git-server-test-token';
const MAIN_TF = 'resource "null_resource" "a" {}\n';
const VARIABLES_TF = 'variable "cidr" {\n  default = "10.0.0.0/16"\n}\n';

/** `url` with HTTP Basic credentials in it, as a clone URL with a token is given to git. */
function withToken(url: string, token: string): string {
  const u = new URL(url);
  u.username = 'x';
  u.password = token;
  return u.toString();
}

describe('git server test helper (git http-backend on loopback)', () => {
  let server: GitServer;
  let scratch: string;
  let cloneUrl: string;
  let first: string;
  let n = 0;
  const freshDir = () => join(scratch, `c${++n}`);

  before(async () => {
    server = await startGitServer({ token: TOKEN });
    scratch = await mkdtemp(join(tmpdir(), 'rls-git-clones-'));
    cloneUrl = await server.createRepo('acme/infra');
    first = await server.commit(
      'acme/infra',
      'main',
      { 'main.tf': MAIN_TF, 'modules/vpc/variables.tf': VARIABLES_TF },
      'first',
    );
    await server.tag('acme/infra', 'v1.0.0', first);
  });
  after(async () => {
    await server?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('serves a shallow clone over HTTP to a client with the token', async () => {
    expect(cloneUrl).to.equal(`${server.url}/acme/infra.git`);
    const dir = freshDir();
    const clone = await runGit(['clone', '-q', '--depth', '1', withToken(cloneUrl, TOKEN), dir]);
    expect(clone.code, clone.stderr).to.equal(0);
    expect(await readFile(join(dir, 'main.tf'), 'utf8')).to.equal(MAIN_TF);
    expect(await readFile(join(dir, 'modules/vpc/variables.tf'), 'utf8')).to.equal(VARIABLES_TF);
    expect((await runGit(['rev-parse', 'HEAD'], { cwd: dir })).stdout.trim()).to.equal(first);
    expect((await runGit(['rev-parse', '--is-shallow-repository'], { cwd: dir })).stdout.trim()).to.equal('true');
    expect((await runGit(['ls-remote', '--tags', 'origin'], { cwd: dir })).stdout).to.include(
      `${first}\trefs/tags/v1.0.0`,
    );
  });

  it('answers a wrong token or none with 401 and a Basic challenge', async () => {
    const clone = await runGit(['clone', '-q', '--depth', '1', withToken(cloneUrl, 'wrong'), freshDir()]);
    expect(clone.code).to.not.equal(0);
    expect(clone.stderr).to.match(/401|authentication/i);

    const anonymous = await fetch(`${cloneUrl}/info/refs?service=git-upload-pack`);
    expect(anonymous.status).to.equal(401);
    expect(anonymous.headers.get('www-authenticate')).to.match(/^Basic/);
  });

  it('serves a shallow fetch of one commit by its sha', async () => {
    const dir = freshDir();
    expect((await runGit(['init', '-q', dir])).code).to.equal(0);
    const fetched = await runGit(['fetch', '-q', '--depth', '1', withToken(cloneUrl, TOKEN), first], { cwd: dir });
    expect(fetched.code, fetched.stderr).to.equal(0);
    expect((await runGit(['rev-parse', 'FETCH_HEAD'], { cwd: dir })).stdout.trim()).to.equal(first);
    const shown = await runGit(['show', `${first}:main.tf`], { cwd: dir });
    expect(shown.stdout).to.equal(MAIN_TF);
  });

  it('shows a file deleted by a later commit gone from a fresh clone, and still there at the tag', async () => {
    const second = await server.commit('acme/infra', 'main', { 'modules/vpc/variables.tf': null }, 'drop variables');
    expect(second)
      .to.match(/^[0-9a-f]{40}$/)
      .and.not.equal(first);

    const latest = freshDir();
    const clone = await runGit(['clone', '-q', '--depth', '1', withToken(cloneUrl, TOKEN), latest]);
    expect(clone.code, clone.stderr).to.equal(0);
    expect((await runGit(['rev-parse', 'HEAD'], { cwd: latest })).stdout.trim()).to.equal(second);
    expect(existsSync(join(latest, 'modules/vpc/variables.tf'))).to.equal(false);
    expect(await readFile(join(latest, 'main.tf'), 'utf8')).to.equal(MAIN_TF);

    const tagged = freshDir();
    const atTag = await runGit(['clone', '-q', '--depth', '1', '-b', 'v1.0.0', withToken(cloneUrl, TOKEN), tagged]);
    expect(atTag.code, atTag.stderr).to.equal(0);
    expect(await readFile(join(tagged, 'modules/vpc/variables.tf'), 'utf8')).to.equal(VARIABLES_TF);
  });

  it("counts the requests to a repository's git endpoints", async () => {
    const earlier = server.requests('acme/infra');
    expect(earlier).to.be.greaterThan(0);
    const listed = await runGit(['ls-remote', withToken(cloneUrl, TOKEN)]);
    expect(listed.code, listed.stderr).to.equal(0);
    expect(server.requests('acme/infra')).to.be.greaterThan(earlier);
    expect(server.requests('acme/other')).to.equal(0);
  });

  it('serves a fetch whose request body the client gzips (many branches wanted at once)', async function () {
    this.timeout(60_000);
    // git gzips a posted body over 1 KiB: forty wants of distinct commits make one.
    const url = await server.createRepo('acme/many');
    const tips: string[] = [];
    for (let i = 0; i < 40; i++) tips.push(await server.commit('acme/many', `b${i}`, { 'n.txt': `${i}\n` }));
    const dir = freshDir();
    const clone = await runGit(['clone', '-q', '--no-checkout', withToken(url, TOKEN), dir]);
    expect(clone.code, clone.stderr).to.equal(0);
    const branches = await runGit(['for-each-ref', '--format=%(objectname)', 'refs/remotes/origin/'], { cwd: dir });
    expect(branches.stdout.trim().split('\n').sort()).to.deep.equal([...tips].sort());
  });
});
