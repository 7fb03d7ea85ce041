import { defineMachine } from '../platform/machine.js';

export const CV_STATUSES = [
  'pending',
  'fetching',
  'uploaded',
  'archived',
  'errored',
  'backing_data_soft_deleted',
  'backing_data_permanently_deleted',
] as const;
export type CvStatus = (typeof CV_STATUSES)[number];
export type CvEvent = 'upload' | 'fail' | 'fetch' | 'archive' | 'soft_delete' | 'restore' | 'permanent_delete';

/** Configuration version states. */
export const cvMachine = defineMachine<CvStatus, CvEvent>('configuration version', {
  upload: { from: ['pending', 'fetching'], to: 'uploaded' },
  fail: { from: ['pending', 'fetching'], to: 'errored' },
  fetch: { from: ['pending', 'archived'], to: 'fetching' },
  archive: { from: ['uploaded'], to: 'archived' },
  soft_delete: { from: ['uploaded'], to: 'backing_data_soft_deleted' },
  restore: { from: CV_STATUSES.filter((s) => s !== 'backing_data_permanently_deleted'), to: 'uploaded' },
  permanent_delete: { from: ['backing_data_soft_deleted'], to: 'backing_data_permanently_deleted' },
});

/** Versions uploaded through the API or the CLI (the only ones archive and backing-data actions touch). */
export const API_SOURCES = ['tfe-api', 'terraform', 'tfe-configuration-version'] as const;
export const isApiSource = (source: string): boolean => (API_SOURCES as readonly string[]).includes(source);

/** Facts about a version that its preconditions depend on, read by the caller. */
export interface CvFacts {
  status: CvStatus;
  source: string;
  isCurrent: boolean;
  activeRuns: number;
  hasBackingData: boolean;
}

/**
 * Why an action may not happen, or null when it may. Pure: the caller reads the facts in the
 * same transaction that then moves the row with a compare-and-set.
 */
export function refusal(event: 'archive' | 'soft_delete' | 'restore' | 'permanent_delete', v: CvFacts): string | null {
  if (!cvMachine.can(v.status, event))
    return `cannot ${event.replace('_', ' ')} a configuration version that is ${v.status}`;
  switch (event) {
    case 'archive':
      if (!isApiSource(v.source))
        return 'configuration versions created from a VCS repository are archived automatically';
      if (v.isCurrent) return 'configuration could not be archived because it is current';
      if (v.activeRuns) return 'the configuration version has runs in progress';
      return null;
    case 'soft_delete':
    case 'permanent_delete':
      if (!isApiSource(v.source))
        return 'only configuration versions created through the API or CLI have backing data that can be deleted';
      if (v.isCurrent) return 'the backing data of the current configuration version cannot be deleted';
      return null;
    case 'restore':
      return v.hasBackingData ? null : 'there is no backing data to restore';
  }
}

/**
 * The moves a data retention policy makes to delete a version's backing data, as the actions
 * would (a soft delete, then a permanent delete), or null when it may not: the actions' own rules,
 * and a version that a run in progress uses keeps its files.
 */
export function retentionMoves(v: CvFacts): ('soft_delete' | 'permanent_delete')[] | null {
  if (v.activeRuns) return null;
  const moves: ('soft_delete' | 'permanent_delete')[] =
    v.status === 'uploaded' ? ['soft_delete', 'permanent_delete'] : ['permanent_delete'];
  return refusal(moves[0], v) ? null : moves;
}

/** Usable for new runs: uploaded, or archived when created from VCS (its files are fetched again). */
export const usableForRuns = (status: CvStatus, source: string): boolean =>
  status === 'uploaded' || (status === 'archived' && !isApiSource(source));
