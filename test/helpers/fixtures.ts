import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { api, doc, readResponse } from './api.js';

export const uniq = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

export interface TestUser {
  id: string;
  username: string;
  email: string;
  token: string;
}

/** A user created by the site admin, with its own API token (through the API at `base`, the run's by default). */
export async function createUser(name = uniq('user'), base = ''): Promise<TestUser> {
  const email = `${name}@example.test`;
  const created = await api('POST', `${base}/admin/users`, { body: doc('users', { username: name, email }) });
  expect(created.status, created.text).to.equal(201);
  const token = await api('POST', `${base}/users/${created.body.data.id}/authentication-tokens`, {
    body: doc('authentication-tokens', { description: 'test' }),
  });
  expect(token.status, token.text).to.equal(201);
  return { id: created.body.data.id, username: name, email, token: token.body.data.attributes.token };
}

/** An organization owned by `owner` (a fresh user by default), through the API at `base`. */
export async function createOrg(owner?: TestUser, base = ''): Promise<{ name: string; owner: TestUser }> {
  const user = owner ?? (await createUser(undefined, base));
  const name = uniq('org');
  const res = await api('POST', `${base}/organizations`, {
    token: user.token,
    body: doc('organizations', { name, email: `${name}@example.test` }),
  });
  expect(res.status, res.text).to.equal(201);
  return { name, owner: user };
}

/** Invites `user` into `org` and accepts as that user; returns the membership id. */
export async function joinOrg(org: { name: string; owner: TestUser }, user: TestUser, accept = true): Promise<string> {
  const inv = await api('POST', `/organizations/${org.name}/organization-memberships`, {
    token: org.owner.token,
    body: doc('organization-memberships', { email: user.email }),
  });
  expect(inv.status, inv.text).to.equal(201);
  if (accept) {
    const acc = await api('POST', `/organization-memberships/${inv.body.data.id}/actions/accept`, {
      token: user.token,
    });
    expect(acc.status, acc.text).to.equal(200);
  }
  return inv.body.data.id;
}

export async function createTeam(
  org: { name: string; owner: TestUser },
  attrs: Record<string, unknown> = {},
): Promise<string> {
  const res = await api('POST', `/organizations/${org.name}/teams`, {
    token: org.owner.token,
    body: doc('teams', { name: uniq('team'), ...attrs }),
  });
  expect(res.status, res.text).to.equal(201);
  return res.body.data.id;
}

export async function createWorkspace(
  org: { name: string; owner: Pick<TestUser, 'token'> },
  attrs: Record<string, unknown> = {},
  base = '',
): Promise<{ id: string; name: string }> {
  const name = uniq('ws');
  const res = await api('POST', `${base}/organizations/${org.name}/workspaces`, {
    token: org.owner.token,
    body: doc('workspaces', { name, ...attrs }),
  });
  expect(res.status, res.text).to.equal(201);
  return { id: res.body.data.id, name };
}

/** Row count of a table, for asserting that a refused request wrote nothing. */
export async function countRows(table: string): Promise<number> {
  const { harness } = await import('./harness.js');
  const [{ count }] = await harness().rt.db(table).count<{ count: number }[]>({ count: '*' });
  return Number(count);
}

/** A .tar.gz made by the system `tar czf` from a temp directory holding `files` (relative path -> content). */
export async function tarGz(files: Record<string, string>): Promise<Buffer> {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const { mkdtemp, mkdir, readFile, rm, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { dirname, join } = await import('node:path');
  const root = await mkdtemp(join(tmpdir(), 'cv-src-'));
  const out = await mkdtemp(join(tmpdir(), 'cv-out-'));
  try {
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), content);
    }
    await promisify(execFile)('tar', ['czf', join(out, 'config.tar.gz'), '-C', root, '.']);
    return await readFile(join(out, 'config.tar.gz'));
  } finally {
    await rm(root, { recursive: true, force: true });
    await rm(out, { recursive: true, force: true });
  }
}

/** Creates a configuration version; returns its id, its upload URL and the response body. */
export async function createCv(
  workspaceId: string,
  token: string,
  attributes: Record<string, unknown> = {},
  base = '',
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ id: string; uploadUrl: string; body: any }> {
  const res = await api('POST', `${base}/workspaces/${workspaceId}/configuration-versions`, {
    token,
    body: doc('configuration-versions', attributes),
  });
  expect(res.status, res.text).to.equal(201);
  return { id: res.body.data.id, uploadUrl: res.body.data.attributes['upload-url'], body: res.body };
}

/** `url` with its origin replaced by the running test API (signed URLs carry the configured base URL). */
export async function onTestServer(url: string, base?: string): Promise<string> {
  const { harness } = await import('./harness.js');
  const u = new URL(url);
  return `${base ?? harness().baseUrl}${u.pathname}${u.search}`;
}

/** PUTs an archive the way the terraform CLI does: no Authorization header, application/octet-stream. */
export async function putArchive(
  url: string,
  body: Buffer,
  base?: string,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; text: string; body: any }> {
  const res = await fetch(await onTestServer(url, base), {
    method: 'PUT',
    headers: { 'Content-Type': 'application/octet-stream', Accept: 'application/json, */*' },
    body: new Uint8Array(body),
  });
  return readResponse(res);
}

/**
 * A new organization member whose only access to the workspace is `access`, through a team of
 * their own; a custom access with the permissions given.
 */
export async function memberWithAccess(
  org: { name: string; owner: TestUser },
  workspaceId: string,
  access: 'read' | 'plan' | 'write' | 'admin' | 'custom',
  permissions: Record<string, unknown> = {},
): Promise<TestUser> {
  const user = await createUser();
  await joinOrg(org, user);
  const teamId = await createTeam(org);
  const add = await api('POST', `/teams/${teamId}/relationships/users`, {
    token: org.owner.token,
    body: { data: [{ type: 'users', id: user.username }] },
  });
  expect(add.status, add.text).to.equal(204);
  const grant = await api('POST', '/team-workspaces', {
    token: org.owner.token,
    body: doc(
      'team-workspaces',
      { access, ...permissions },
      { workspace: { data: { type: 'workspaces', id: workspaceId } }, team: { data: { type: 'teams', id: teamId } } },
    ),
  });
  expect(grant.status, grant.text).to.equal(201);
  return user;
}

/** Row counts of the given tables, for asserting that a refused request wrote nothing. */
export async function rowCounts(tables: readonly string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of tables) out[t] = await countRows(t);
  return out;
}
