import { defineMachine } from '../platform/machine.js';

/** A published module version's states: its archive is awaited, then read (`ok`) or refused. */
export const MODULE_VERSION_STATUSES = ['pending', 'ok', 'reg_ingress_failed'] as const;
export type ModuleVersionStatus = (typeof MODULE_VERSION_STATUSES)[number];
export type ModuleVersionEvent = 'ingest' | 'fail';

export const moduleVersionMachine = defineMachine<ModuleVersionStatus, ModuleVersionEvent>('module version', {
  ingest: { from: ['pending'], to: 'ok' },
  fail: { from: ['pending'], to: 'reg_ingress_failed' },
});

/** Semantic version 2.0.0 (no leading `v`), as the registry protocol and Terraform's constraints read it. */
export const SEMVER_PATTERN =
  '^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(-((0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)(\\.(0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*))*))?(\\+[0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*)?$';
const SEMVER = new RegExp(SEMVER_PATTERN);

export const isSemver = (v: string): boolean => SEMVER.test(v);

interface Parsed {
  core: [number, number, number];
  pre: string[];
}

function parse(v: string): Parsed {
  const [main, pre = ''] = v.split('+')[0].split(/-(.*)/s);
  const [a, b, c] = main.split('.').map(Number);
  return { core: [a, b, c], pre: pre ? pre.split('.') : [] };
}

/** Semver precedence: negative when `x` comes before `y`; build metadata is ignored. */
export function compareSemver(x: string, y: string): number {
  const p = parse(x);
  const q = parse(y);
  for (let i = 0; i < 3; i++) if (p.core[i] !== q.core[i]) return p.core[i] - q.core[i];
  if (!p.pre.length || !q.pre.length) return q.pre.length - p.pre.length;
  for (let i = 0; i < Math.min(p.pre.length, q.pre.length); i++) {
    const [s, t] = [p.pre[i], q.pre[i]];
    if (s === t) continue;
    const [sn, tn] = [/^[0-9]+$/.test(s), /^[0-9]+$/.test(t)];
    if (sn && tn) return Number(s) - Number(t);
    if (sn !== tn) return sn ? -1 : 1;
    return s < t ? -1 : 1;
  }
  return p.pre.length - q.pre.length;
}

/** The latest of the versions by precedence, preferring releases over pre-releases; null when none. */
export function latestVersion(versions: readonly string[]): string | null {
  const releases = versions.filter((v) => !parse(v).pre.length);
  const pool = releases.length ? releases : versions;
  return pool.reduce<string | null>((best, v) => (best === null || compareSemver(v, best) > 0 ? v : best), null);
}

/** The registry module's status as TFE names it, from its versions' statuses. */
export type ModuleStatus = 'pending' | 'setup_complete' | 'setup_failed';

export function moduleStatus(versionStatuses: readonly ModuleVersionStatus[]): ModuleStatus {
  if (versionStatuses.includes('ok')) return 'setup_complete';
  if (!versionStatuses.length || versionStatuses.includes('pending')) return 'pending';
  return 'setup_failed';
}
