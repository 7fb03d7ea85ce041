import type { Field } from '../platform/errors.js';

/** Policy kinds: Sentinel is the default. */
export const POLICY_KINDS = ['sentinel', 'opa'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

/** Enforcement levels allowed for each kind. */
export const ENFORCEMENT_LEVELS = {
  sentinel: ['hard-mandatory', 'soft-mandatory', 'advisory'],
  opa: ['mandatory', 'advisory'],
} as const satisfies Record<PolicyKind, readonly string[]>;
export type EnforcementLevel = (typeof ENFORCEMENT_LEVELS)[PolicyKind][number];
export const ALL_ENFORCEMENT_LEVELS: readonly EnforcementLevel[] = [
  ...new Set(Object.values(ENFORCEMENT_LEVELS).flat()),
];

/** Largest policy code accepted by the upload endpoint. */
export const MAX_POLICY_CODE_BYTES = 10 * 1024 * 1024;

/** Free edition limits: one policy set per organization, five policies in it. */
export const FREE_POLICY_SETS_PER_ORGANIZATION = 1;
export const FREE_POLICIES_PER_SET = 5;

/** The file name the deprecated `enforce[].path` must carry: `<name>.sentinel` or `<name>.rego`. */
export const policyPath = (name: string, kind: PolicyKind): string => `${name}.${kind === 'opa' ? 'rego' : 'sentinel'}`;

export const isLevelOf = (kind: PolicyKind, level: string): level is EnforcementLevel =>
  (ENFORCEMENT_LEVELS[kind] as readonly string[]).includes(level);

/** What is wrong with one field of a policy request. */
export interface Problem {
  detail: string;
  field: Field;
}

/** What a create or update asks for; `undefined` means the attribute was not sent. */
export interface PolicyRequest {
  name: string;
  kind: PolicyKind;
  /** null: sent as null; undefined: not sent. */
  query?: string | null;
  level?: string;
  enforce?: { path?: string; mode: string }[];
}

/**
 * Checks the kind-dependent rules of a policy and settles its enforcement level from
 * `enforcement-level` and the deprecated `enforce` (when both are sent they must agree).
 * `current` is the stored level on update, absent on create where a level is required.
 */
export function settlePolicy(
  req: PolicyRequest,
  current?: EnforcementLevel,
): { level: EnforcementLevel | null; problems: Problem[] } {
  const problems: Problem[] = [];
  // A query on a Sentinel policy is refused at creation; an update ignores it (clients send it whatever the kind).
  if (req.kind === 'sentinel' && current === undefined && req.query !== undefined && req.query !== null) {
    problems.push({ detail: 'query is only valid for opa policies', field: { attribute: 'query' } });
  }
  if (req.kind === 'opa' && (current === undefined ? !req.query : req.query === null || req.query === '')) {
    problems.push({ detail: 'query is required for opa policies', field: { attribute: 'query' } });
  }
  const levels = ENFORCEMENT_LEVELS[req.kind].join(', ');
  if (req.level !== undefined && !isLevelOf(req.kind, req.level)) {
    problems.push({
      detail: `enforcement-level must be one of ${levels} for ${req.kind} policies`,
      field: { attribute: 'enforcement-level' },
    });
  }
  const [enforce] = req.enforce ?? [];
  if (enforce) {
    const path = policyPath(req.name, req.kind);
    // go-tfe's OPA tests send the mode alone: the path, when sent, must name the policy's file.
    if (enforce.path !== undefined && enforce.path !== path)
      problems.push({ detail: `enforce path must be ${path}`, field: { attribute: 'enforce', at: [0, 'path'] } });
    if (!isLevelOf(req.kind, enforce.mode)) {
      problems.push({
        detail: `enforce mode must be one of ${levels} for ${req.kind} policies`,
        field: { attribute: 'enforce', at: [0, 'mode'] },
      });
    } else if (req.level !== undefined && enforce.mode !== req.level) {
      problems.push({
        detail: 'enforce mode and enforcement-level must agree when both are given',
        field: { attribute: 'enforce', at: [0, 'mode'] },
      });
    }
  }
  const asked = req.level ?? enforce?.mode;
  if (asked === undefined && current === undefined) {
    problems.push({
      detail: 'enforcement-level (or the deprecated enforce) is required',
      field: { attribute: 'enforcement-level' },
    });
  }
  if (problems.length) return { level: null, problems };
  return { level: (asked as EnforcementLevel | undefined) ?? current!, problems };
}
