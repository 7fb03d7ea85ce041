import { defineMachine } from '../platform/machine.js';

export const STATE_VERSION_STATUSES = [
  'pending',
  'finalized',
  'discarded',
  'backing_data_soft_deleted',
  'backing_data_permanently_deleted',
] as const;
export type StateVersionStatus = (typeof STATE_VERSION_STATUSES)[number];
export type BackingDataEvent = 'soft_delete' | 'restore' | 'permanent_delete';

/** The backing-data actions of the self-hosted edition: a soft delete can be restored until it is made permanent. */
export const backingDataMachine = defineMachine<StateVersionStatus, BackingDataEvent>('state version', {
  soft_delete: { from: ['finalized'], to: 'backing_data_soft_deleted' },
  restore: { from: ['backing_data_soft_deleted'], to: 'finalized' },
  permanent_delete: { from: ['backing_data_soft_deleted'], to: 'backing_data_permanently_deleted' },
});

/** Whether a version serves its state: not while pending (none yet), nor once its backing data is deleted. */
export const servesState = (v: { status: StateVersionStatus }): boolean => v.status === 'finalized';

const VERBS: Record<BackingDataEvent, string> = {
  soft_delete: 'soft delete',
  restore: 'restore',
  permanent_delete: 'permanently delete',
};

/** Why a backing-data action may not happen to a version (null when it may); the current state of a workspace keeps its data. */
export function backingDataRefusal(
  event: BackingDataEvent,
  v: { status: StateVersionStatus; isCurrent: boolean },
): string | null {
  if (!backingDataMachine.can(v.status, event))
    return `cannot ${VERBS[event]} the backing data of a state version that is ${v.status}`;
  if (event === 'soft_delete' && v.isCurrent) return 'the backing data of the current state version cannot be deleted';
  return null;
}

/**
 * The backing-data moves a data retention policy makes to delete a version's data, as the actions
 * would (a soft delete, then a permanent delete), or null when it may not: the current state of
 * a workspace keeps its data, and only a stored or soft-deleted state has data to delete.
 */
export function retentionMoves(v: { status: StateVersionStatus; isCurrent: boolean }): BackingDataEvent[] | null {
  if (v.isCurrent) return null;
  const moves: BackingDataEvent[] =
    v.status === 'finalized' ? ['soft_delete', 'permanent_delete'] : ['permanent_delete'];
  return backingDataRefusal(moves[0], v) ? null : moves;
}

/** What the ordering of a workspace's state versions looks at: the declared serial, the lineage and the md5. */
export interface StateVersionMark {
  serial: number;
  lineage: string | null;
  md5: string | null;
}

/**
 * Why `next` may not follow `current` as its workspace's state (null when it may): a lower serial,
 * the same serial with other content, or another lineage. The same serial with the same bytes is a
 * state stored again, which changes nothing a writer could lose.
 */
export function successorConflict(current: StateVersionMark, next: StateVersionMark): string | null {
  if (next.serial < current.serial)
    return `serial ${next.serial} is lower than the current state version's serial ${current.serial}`;
  if (next.serial === current.serial && (!current.md5 || current.md5 !== next.md5)) {
    return `serial ${next.serial} is the current state version's serial and the state differs from it; a changed state must have a greater serial`;
  }
  if (next.lineage && current.lineage && next.lineage !== current.lineage) {
    return `lineage ${next.lineage} does not match the current state version's lineage ${current.lineage}`;
  }
  return null;
}

/** One resource instance under management, as a workspace's resource list shows it. */
export interface ManagedResource {
  address: string;
  name: string;
  /** The module path without its `module.` prefixes; `root` for the root module. */
  module: string;
  /** The provider's namespace and type (`hashicorp/aws`), without its registry host and alias. */
  provider: string;
  /** The resource type (`aws_s3_bucket`). */
  type: string;
  /** The instance key as text (`0`, `a`), null for a resource without count or for_each. */
  nameIndex: string | null;
}

interface StateResource {
  module?: unknown;
  mode?: unknown;
  type?: unknown;
  name?: unknown;
  provider?: unknown;
  instances?: { index_key?: unknown }[];
}

/** The provider address of a state's resource, `provider["registry.terraform.io/hashicorp/aws"].alias`, as `hashicorp/aws`. */
function providerOf(raw: string): string {
  const quoted = /^provider\["([^"]+)"\]/.exec(raw);
  if (!quoted) return raw.replace(/^provider\./, '');
  const parts = quoted[1].split('/');
  return parts.length >= 3 ? parts.slice(1).join('/') : quoted[1];
}

/** The managed resource instances of a parsed state file (version 4), in the state's order. */
export function managedResourcesOf(doc: { resources?: unknown }): ManagedResource[] {
  const resources = Array.isArray(doc.resources) ? (doc.resources as StateResource[]) : [];
  const out: ManagedResource[] = [];
  for (const r of resources) {
    if (
      r?.mode !== 'managed' ||
      typeof r.type !== 'string' ||
      typeof r.name !== 'string' ||
      !Array.isArray(r.instances)
    )
      continue;
    const module = typeof r.module === 'string' && r.module ? r.module.replace(/(^|\.)module\./g, '$1') : '';
    for (const instance of r.instances) {
      const key = instance?.index_key;
      const index = typeof key === 'number' ? `[${key}]` : typeof key === 'string' ? `[${JSON.stringify(key)}]` : '';
      out.push({
        address: `${module ? `${module}.` : ''}${r.type}.${r.name}${index}`,
        name: r.name,
        module: module || 'root',
        provider: typeof r.provider === 'string' ? providerOf(r.provider) : '',
        type: r.type,
        nameIndex: typeof key === 'number' || typeof key === 'string' ? String(key) : null,
      });
    }
  }
  return out;
}
