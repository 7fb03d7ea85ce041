import { expect } from 'chai';
import { expectError, type ApiResponse } from './api.js';
import { rowCounts } from './fixtures.js';

/** Every table the identity endpoints write. */
const TABLES = [
  'users',
  'organizations',
  'organization_memberships',
  'teams',
  'team_members',
  'authentication_tokens',
  'mail_messages',
];

export const tableCounts = () => rowCounts(TABLES);

export const pointers = (res: ApiResponse): (string | undefined)[] =>
  res.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer);

/** The request must fail with `status` (and name `pointer`, when given) and leave every table's row count as it was. */
export async function refused(
  status: number,
  call: () => Promise<ApiResponse>,
  pointer?: string,
): Promise<ApiResponse> {
  const before = await tableCounts();
  const res = await call();
  expectError(res, status);
  if (pointer) expect(pointers(res), res.text).to.include(pointer);
  expect(await tableCounts()).to.deep.equal(before);
  return res;
}
