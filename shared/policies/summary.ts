import type { PolicyKind, PolicyOutcome } from './types.js';

export type CheckStatus = 'passed' | 'soft_failed' | 'hard_failed' | 'errored';

/** Per-policy engine details, under the policy check result's `sentinel` key (not a stable contract). */
export interface PolicyDetail {
  policy: string;
  name: string;
  'policy-set': string;
  kind: PolicyKind;
  'enforcement-level': string;
  status: PolicyOutcome['status'];
  result: boolean;
  'allowed-failure': boolean;
  messages: string[];
  error: string | null;
  'duration-ms': number;
}

/** The policy check's `result` attribute: both `duration` and `duration-ms` are sent. */
export interface PolicyCheckResult {
  result: boolean;
  passed: number;
  'total-failed': number;
  'hard-failed': number;
  'soft-failed': number;
  'advisory-failed': number;
  duration: number;
  'duration-ms': number;
  sentinel: { 'schema-version': string; policies: PolicyDetail[] };
}

export interface CheckSummary {
  status: CheckStatus;
  result: PolicyCheckResult;
  isOverridable: boolean;
}

export interface SummaryOptions {
  /**
   * Whether an OPA `mandatory` failure may be overridden (the policy set's `overridable`); a
   * function answers per policy set. Default true. Sentinel soft-mandatory failures always may.
   */
  overridableSet?: boolean | ((policySetName: string) => boolean);
}

type Weight = 'none' | 'advisory' | 'soft' | 'hard';

/** How much a policy's outcome weighs on the check: a failure or an error counts at its level. */
function weigh(o: PolicyOutcome, opts: SummaryOptions): Weight {
  if (o.status === 'passed') return 'none';
  switch (o.enforcementLevel) {
    case 'advisory':
      return 'advisory';
    case 'soft-mandatory':
      return 'soft';
    case 'hard-mandatory':
      return 'hard';
    case 'mandatory': {
      const set = opts.overridableSet ?? true;
      return (typeof set === 'function' ? set(o.policySetName) : set) ? 'soft' : 'hard';
    }
  }
}

function detail(o: PolicyOutcome): PolicyDetail {
  return {
    policy: `${o.policySetName}/${o.name}`,
    name: o.name,
    'policy-set': o.policySetName,
    kind: o.kind,
    'enforcement-level': o.enforcementLevel,
    status: o.status,
    result: o.status === 'passed',
    'allowed-failure': o.enforcementLevel === 'advisory',
    messages: o.messages,
    error: o.error ?? null,
    'duration-ms': o.durationMs,
  };
}

/**
 * The policy check's status and `result` from its policies' outcomes, as TFE decides:
 * - a failed hard-mandatory policy (or an OPA mandatory one whose set is not overridable): `hard_failed`;
 * - otherwise a policy that could not be evaluated, at any level: `errored`, never overridable (the
 *   run errors: an unevaluated policy says nothing about the plan, so it is never taken as passed;
 *   it is counted as failed at its level);
 * - otherwise a failed soft-mandatory or overridable OPA mandatory policy: `soft_failed`, overridable;
 * - otherwise `passed`; advisory failures only warn and are counted as advisory-failed.
 */
export function summarizeCheck(outcomes: PolicyOutcome[], opts: SummaryOptions = {}): CheckSummary {
  const weighed = outcomes.map((o) => ({ o, w: weigh(o, opts) }));
  const count = (w: Weight) => weighed.filter((x) => x.w === w).length;
  const blocking = weighed.filter((x) => x.w === 'soft' || x.w === 'hard');
  const hard = count('hard');
  let status: CheckStatus = 'passed';
  if (blocking.some((x) => x.w === 'hard' && x.o.status === 'failed')) status = 'hard_failed';
  else if (outcomes.some((o) => o.status === 'errored')) status = 'errored';
  else if (blocking.length) status = 'soft_failed';
  const durationMs = outcomes.reduce((sum, o) => sum + o.durationMs, 0);
  return {
    status,
    isOverridable: status === 'soft_failed',
    result: {
      result: status === 'passed',
      passed: count('none'),
      'total-failed': outcomes.length - count('none'),
      'hard-failed': hard,
      'soft-failed': count('soft'),
      'advisory-failed': count('advisory'),
      duration: durationMs,
      'duration-ms': durationMs,
      sentinel: { 'schema-version': '1.0.0', policies: outcomes.map(detail) },
    },
  };
}

const TITLES: Record<PolicyKind, string> = { sentinel: 'Sentinel', opa: 'OPA' };

function policyBlock(o: PolicyOutcome, n: number): string[] {
  const lines = [
    `## Policy ${n}: ${o.policySetName}/${o.name} (${o.enforcementLevel})`,
    '',
    `Result: ${o.status === 'passed'}`,
    '',
  ];
  if (o.error) lines.push(`Error: ${o.error}`, '');
  if (o.messages.length) lines.push(o.kind === 'sentinel' ? 'Print messages:' : 'Messages:', '', ...o.messages, '');
  return lines;
}

function kindBlock(kind: PolicyKind, outcomes: PolicyOutcome[]): string[] {
  const title = TITLES[kind];
  const blocking = outcomes.filter(
    (o) => o.status === 'errored' || (o.status !== 'passed' && o.enforcementLevel !== 'advisory'),
  );
  const advisory = outcomes.some((o) => o.status === 'failed' && o.enforcementLevel === 'advisory');
  let why = `This result means that all ${title} policies passed and the protected behavior is allowed.`;
  if (blocking.some((o) => o.status === 'errored')) {
    why = `${title} evaluated to false because one or more policies could not be evaluated; their errors are shown below.`;
  } else if (blocking.length) {
    why = `${title} evaluated to false because one or more ${title} policies evaluated to false.`;
  } else if (advisory) {
    why = `This result means that all enforced ${title} policies passed; advisory policies that failed only warn.`;
  }
  const lines = [
    `${title} Result: ${blocking.length === 0}`,
    '',
    why,
    '',
    `${outcomes.length} policies evaluated.`,
    '',
  ];
  outcomes.forEach((o, i) => lines.push(...policyBlock(o, i + 1)));
  return lines;
}

function closing(summary: CheckSummary): string | null {
  switch (summary.status) {
    case 'passed':
      return null;
    case 'soft_failed':
      return 'The check soft failed: the run continues only if the failures are overridden.';
    case 'hard_failed':
      return 'The check hard failed: the run cannot continue.';
    case 'errored':
      return 'The check errored: a policy that could not be evaluated cannot be overridden, so the run cannot continue. Fix the policy (or install its runtime) and start a new run.';
  }
}

/** The check's human-readable output (GET /policy-checks/:id/output), which terraform prints line by line. */
export function renderOutput(outcomes: PolicyOutcome[], summary: CheckSummary): string {
  if (!outcomes.length) return 'No policies were evaluated.\n';
  const lines: string[] = [];
  for (const kind of ['sentinel', 'opa'] as const) {
    const ofKind = outcomes.filter((o) => o.kind === kind);
    if (ofKind.length) lines.push(...kindBlock(kind, ofKind));
  }
  const last = closing(summary);
  if (last) lines.push(last, '');
  return lines.join('\n');
}
