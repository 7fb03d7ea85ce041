import type { Runtime } from '../runtime.js';
import { isUniqueViolation } from '../platform/db.js';
import { ApiError, Unprocessable } from '../platform/errors.js';
import {
  deleteTokenOf,
  issueToken,
  lockSingleTokenOwner,
  type SingleTokenOwner,
  type TokenRow,
} from './tokens.repo.js';

type TokenAttributes = { description: string | null; expiredAt: Date | null; createdById: string | null };

/**
 * Issues the single token of `owner` (a team's legacy token, an organization's token or audit
 * trail token), replacing any previous one in the same transaction; returns the row and the secret.
 */
export async function replaceToken(
  rt: Runtime,
  owner: SingleTokenOwner,
  attrs: TokenAttributes,
): Promise<{ row: TokenRow; secret: string }> {
  // A team's legacy token is the one without a description: a described one is another token.
  if (owner.kind === 'team' && attrs.description !== null) {
    throw new Unprocessable(
      "a team's legacy token has no description: create a described token with POST /teams/:id/authentication-tokens",
      { attribute: 'description' },
    );
  }
  return rt.db.transaction(async (tx) => {
    await lockSingleTokenOwner(tx, owner);
    await deleteTokenOf(tx, owner);
    return issueToken(tx, owner, attrs);
  });
}

/** TFE's words for a team token description already in use, which go-tfe recognises by their text. */
const DESCRIPTION_TAKEN = 'Validation failed: Description has already been taken';
const descriptionTaken = () =>
  new ApiError('invalid', 'invalid attributes', DESCRIPTION_TAKEN, [
    { title: 'invalid attributes', detail: DESCRIPTION_TAKEN, field: { attribute: 'description' } },
  ]);

/** Issues one more token of a team, named by a description no other token of the team has. */
export async function issueDescribedTeamToken(
  rt: Runtime,
  teamId: string,
  attrs: TokenAttributes,
): Promise<{ row: TokenRow; secret: string }> {
  if (attrs.description === null) {
    throw new Unprocessable(
      'data.attributes.description is required: a team token without one is its legacy token (POST /teams/:id/authentication-token)',
      { attribute: 'description' },
    );
  }
  try {
    return await issueToken(rt.db, { kind: 'team', teamId }, attrs);
  } catch (err) {
    if (isUniqueViolation(err, 'authentication_tokens_team_description')) throw descriptionTaken();
    throw err;
  }
}
