/**
 * Data retention policies of the self-hosted edition: an organization or a workspace either
 * deletes the backing data of state and configuration versions older than a number of days, or
 * explicitly keeps it. A workspace's own policy wins over its organization's.
 */

export const DATA_RETENTION_KINDS = ['delete-older', 'dont-delete'] as const;
export type DataRetentionKind = (typeof DATA_RETENTION_KINDS)[number];

/** The longest retention a policy may name (a hundred years). */
export const MAX_RETENTION_DAYS = 36_500;

export interface DataRetentionPolicy {
  id: string;
  kind: DataRetentionKind;
  /** Set for `delete-older` only. */
  days: number | null;
}

/** The columns an organization's or a workspace's row keeps its policy in. */
export interface DataRetentionColumns {
  data_retention_policy_id: string | null;
  data_retention_policy_kind: DataRetentionKind | null;
  data_retention_days: number | null;
}

/** What a client asks a policy to be. */
export interface DataRetentionInput {
  kind: DataRetentionKind;
  days: number | null;
}

/** The JSON:API types of the policies, and the type of the one kind TFE had before (delete-older only). */
export const POLICY_TYPES: Record<DataRetentionKind, string> = {
  'delete-older': 'data-retention-policy-delete-olders',
  'dont-delete': 'data-retention-policy-dont-deletes',
};
export const LEGACY_POLICY_TYPE = 'data-retention-policies';

/** The kind a request's document type asks for (the legacy type is a delete-older policy). */
export const kindOfType = (type: string): DataRetentionKind =>
  type === POLICY_TYPES['dont-delete'] ? 'dont-delete' : 'delete-older';

/** The policy a row carries, or null. */
export function policyOf(row: DataRetentionColumns): DataRetentionPolicy | null {
  if (!row.data_retention_policy_id || !row.data_retention_policy_kind) return null;
  return { id: row.data_retention_policy_id, kind: row.data_retention_policy_kind, days: row.data_retention_days };
}

/** The columns that store `policy` (all null for none). */
export const columnsOf = (policy: DataRetentionPolicy | null): DataRetentionColumns => ({
  data_retention_policy_id: policy?.id ?? null,
  data_retention_policy_kind: policy?.kind ?? null,
  data_retention_days: policy?.kind === 'delete-older' ? policy.days : null,
});

/**
 * The policy after `input` is set over `current`: the same policy (its id kept) with the new
 * number of days when its kind stays, a new policy when there was none or its kind changes.
 */
export function replacedPolicy(
  current: DataRetentionPolicy | null,
  input: DataRetentionInput,
  freshId: () => string,
): { policy: DataRetentionPolicy; created: boolean } {
  const days = input.kind === 'delete-older' ? input.days : null;
  if (current && current.kind === input.kind) return { policy: { ...current, days }, created: false };
  return { policy: { id: freshId(), kind: input.kind, days }, created: true };
}

/** The policy in force in a workspace: its own, else its organization's, else none. */
export const policyInForce = (
  workspace: DataRetentionPolicy | null,
  organization: DataRetentionPolicy | null,
): DataRetentionPolicy | null => workspace ?? organization;

/** Whether a version created at `createdAt` is past what `policy` keeps at `now`. */
export function pastRetention(policy: DataRetentionPolicy | null, createdAt: Date, now: Date): boolean {
  if (policy?.kind !== 'delete-older' || !policy.days) return false;
  return createdAt.getTime() < now.getTime() - policy.days * 86_400_000;
}
