import { expect } from 'chai';
import { api, doc, expectError, type ApiResponse } from './api.js';
import { createOrg, createTeam, createUser, joinOrg, rowCounts, uniq, type TestUser } from './fixtures.js';
import { pointers } from './identity.js';

export type Org = { name: string; owner: TestUser };

/** An organization and its owner's token, created in the enclosing suite's `before` hook. */
export function orgForSuite(): Org & { token: string } {
  const org = { name: '', owner: {} as TestUser, token: '' };
  before(async () => {
    const created = await createOrg();
    Object.assign(org, created, { token: created.owner.token });
  });
  return org;
}

/** Every table the policy endpoints write. */
const POLICY_TABLES = [
  'policies',
  'policy_sets',
  'policy_set_policies',
  'policy_set_workspaces',
  'policy_set_workspace_exclusions',
];

/** A policy create document with a fresh name and an advisory level unless `attrs` say otherwise. */
export const policyDoc = (attrs: Record<string, unknown> = {}, relationships?: Record<string, unknown>) =>
  doc('policies', { name: uniq('pol'), 'enforcement-level': 'advisory', ...attrs }, relationships);

/** A policy set create document with a fresh name. */
export const policySetDoc = (attrs: Record<string, unknown> = {}, relationships?: Record<string, unknown>) =>
  doc('policy-sets', { name: uniq('set'), ...attrs }, relationships);

export const linkages = (type: string, ids: string[]) => ({ data: ids.map((id) => ({ type, id })) });

/** POSTs a policy (base: '' for the test API, or another app's API root) and expects 200. */
export async function createPolicy(
  org: string,
  token: string,
  attrs: Record<string, unknown> = {},
  relationships?: Record<string, unknown>,
  base = '',
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<any> {
  const res = await api('POST', `${base}/organizations/${org}/policies`, {
    token,
    body: policyDoc(attrs, relationships),
  });
  expect(res.status, res.text).to.equal(200);
  return res.body.data;
}

/** POSTs a policy set and expects 201. */
export async function createPolicySet(
  org: string,
  token: string,
  attrs: Record<string, unknown> = {},
  relationships?: Record<string, unknown>,
  base = '',
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<any> {
  const res = await api('POST', `${base}/organizations/${org}/policy-sets`, {
    token,
    body: policySetDoc(attrs, relationships),
  });
  expect(res.status, res.text).to.equal(201);
  return res.body.data;
}

/** PUTs policy code the way go-tfe does (octet-stream, JSON accepted back). */
export async function uploadCode(
  policyId: string,
  token: string,
  code: string | Uint8Array<ArrayBuffer>,
  base = '',
): Promise<ApiResponse> {
  return api('PUT', `${base}/policies/${policyId}/upload`, {
    token,
    raw: code,
    headers: { 'Content-Type': 'application/octet-stream', Accept: 'application/json' },
  });
}

/**
 * The request must be refused with `status` (naming `pointer` when given) and leave every policy
 * table as it was.
 */
export async function refusedPolicy(
  status: number,
  call: () => Promise<ApiResponse>,
  pointer?: string,
  detail?: RegExp,
): Promise<ApiResponse> {
  const before = await rowCounts(POLICY_TABLES);
  const res = await call();
  expectError(res, status, detail);
  if (pointer) expect(pointers(res), res.text).to.include(pointer);
  expect(await rowCounts(POLICY_TABLES)).to.deep.equal(before);
  return res;
}

/** A new member of `org` on a team with exactly the given organization permissions (none by default). */
export async function memberWithPermissions(org: Org, access: Record<string, boolean> = {}): Promise<TestUser> {
  const user = await createUser();
  await joinOrg(org, user);
  const team = await createTeam(org, { 'organization-access': access });
  const add = await api('POST', `/teams/${team}/relationships/users`, {
    token: org.owner.token,
    body: { data: [{ type: 'users', id: user.username }] },
  });
  expect(add.status, add.text).to.equal(204);
  return user;
}

export const idsOf = (list: { id: string }[]): string[] => list.map((r) => r.id);
