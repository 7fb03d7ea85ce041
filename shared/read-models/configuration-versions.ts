import type { Db } from '../db.js';
import { cvsOfWorkspace, type CvRow, type IngressRow } from '../repos/configuration-versions.js';
import type { RunRow } from '../repos/runs.js';
import { fetchPage, type Page } from './page.js';

/** One page of a workspace's configuration versions, newest first. */
export const cvsPage = (db: Db, workspaceId: string, page: Page) => fetchPage<CvRow>(cvsOfWorkspace(db, workspaceId).orderBy('created_at', 'desc').orderBy('id'), page);

/** The ingress attributes of these versions and, when `withRuns`, the first run each one created. */
export async function cvRelations(db: Db, ids: string[], withRuns: boolean): Promise<{ ingress: IngressRow[]; runs: RunRow[] }> {
  const ingress: IngressRow[] = ids.length ? await db('ingress_attributes').whereIn('configuration_version_id', ids) : [];
  const runs: RunRow[] = withRuns && ids.length
    ? await db('runs').distinctOn('configuration_version_id').whereIn('configuration_version_id', ids).orderBy(['configuration_version_id', 'created_at'])
    : [];
  return { ingress, runs };
}
