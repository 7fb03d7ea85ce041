import type { Runtime } from '../runtime.js';
import { deleteTokenOf, issueToken, type TokenRow } from '../repos/tokens.js';

/** Issues a team's or an organization's token, replacing any previous one in the same transaction; returns the row and the secret. */
export async function replaceToken(
  rt: Runtime,
  owner: { kind: 'team'; teamId: string } | { kind: 'organization'; organizationName: string },
  attrs: { description: string | null; expiredAt: Date | null; createdById: string | null },
): Promise<{ row: TokenRow; secret: string }> {
  return rt.db.transaction(async (tx) => {
    await deleteTokenOf(tx, owner);
    return issueToken(tx, owner, attrs);
  });
}
