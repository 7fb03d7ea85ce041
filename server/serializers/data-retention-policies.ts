import { one, type Resource } from '../jsonapi.js';
import {
  LEGACY_POLICY_TYPE,
  POLICY_TYPES,
  policyOf,
  type DataRetentionColumns,
  type DataRetentionPolicy,
} from '../../shared/retention/index.js';

/** Whose policy it is, as its `target` relationship names it. */
export interface PolicyTarget {
  type: 'organizations' | 'workspaces';
  id: string;
}

/** A data retention policy; `legacy` answers in the one type TFE had before (a delete-older policy, for clients that sent that type). */
export function dataRetentionPolicyResource(
  policy: DataRetentionPolicy,
  target: PolicyTarget,
  legacy = false,
): Resource {
  return {
    type: legacy ? LEGACY_POLICY_TYPE : POLICY_TYPES[policy.kind],
    id: policy.id,
    attributes: policy.kind === 'delete-older' ? { 'delete-older-than-n-days': policy.days } : {},
    relationships: { target: one(target.type, target.id) },
  };
}

/**
 * How an organization or a workspace names its own policy: go-tfe reads `data-retention-policy`
 * (one of the two current types), other clients `data-retention-policy-choice`; null when it has none.
 */
export function dataRetentionRelationships(
  row: DataRetentionColumns,
): Record<'data-retention-policy' | 'data-retention-policy-choice', ReturnType<typeof one>> {
  const policy = policyOf(row);
  const linkage = one(policy ? POLICY_TYPES[policy.kind] : '', policy?.id);
  return { 'data-retention-policy': linkage, 'data-retention-policy-choice': linkage };
}
