import type { Runtime } from '../runtime.js';
import { NotFound } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { policyOf, replacedPolicy, type DataRetentionInput, type DataRetentionPolicy } from './rules.js';
import { lockPolicyColumns, writePolicy, type PolicyHolder } from './policies.repo.js';

/**
 * Sets an organization's or a workspace's data retention policy: the existing policy with its new
 * number of days when its kind stays, else a new policy in place of the old one. `created` says
 * which.
 */
export async function setDataRetentionPolicy(
  rt: Pick<Runtime, 'db'>,
  holder: PolicyHolder,
  input: DataRetentionInput,
): Promise<{ policy: DataRetentionPolicy; created: boolean }> {
  return rt.db.transaction(async (tx) => {
    const row = await lockPolicyColumns(tx, holder);
    // Deleted since the caller's guard found it.
    if (!row) throw new NotFound();
    const next = replacedPolicy(policyOf(row), input, () => newId('drp'));
    await writePolicy(tx, holder, next.policy);
    return next;
  });
}

/** Removes the holder's own policy (a workspace then follows its organization's); 404 when it has none. */
export async function removeDataRetentionPolicy(rt: Pick<Runtime, 'db'>, holder: PolicyHolder): Promise<void> {
  await rt.db.transaction(async (tx) => {
    const row = await lockPolicyColumns(tx, holder);
    if (!row || !policyOf(row)) throw new NotFound('no data retention policy is set here');
    await writePolicy(tx, holder, null);
  });
}
