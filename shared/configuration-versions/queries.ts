import { grantedRead, type GrantedRead } from '../identity/index.js';
import type { Db } from '../platform/db.js';
import { cvsOfWorkspace, type CvRow, type IngressRow } from './repo.js';
import type { RunRow } from '../runs/repo.js';
import { fetchPage, type Page } from '../platform/page.js';

/** One page of a workspace's configuration versions, newest first. */
export const cvsPage = (db: Db, workspaceId: string, page: Page) =>
  fetchPage<CvRow>(cvsOfWorkspace(db, workspaceId).orderBy('created_at', 'desc').orderBy('id'), page);

/** The ingress attributes of these versions and, when `withRuns`, the first run each one created. */
export async function cvRelations(
  db: Db,
  ids: string[],
  withRuns: boolean,
): Promise<{ ingress: IngressRow[]; runs: RunRow[] }> {
  const ingress: IngressRow[] = ids.length
    ? await db('ingress_attributes').whereIn('configuration_version_id', ids)
    : [];
  const runs: RunRow[] =
    withRuns && ids.length
      ? await db('runs')
          .distinctOn('configuration_version_id')
          .whereIn('configuration_version_id', ids)
          .orderBy(['configuration_version_id', 'created_at'])
      : [];
  return { ingress, runs };
}

/** The organization of a configuration version read as `x`: its workspace's, or its registry module's for a module test version (SQL). */
const ORGANIZATION_OF_CV =
  'coalesce((select w.organization_name from workspaces w where w.id = x.workspace_id), (select m.organization_name from registry_modules m where m.id = x.registry_module_id))';

/**
 * A configuration version by id with its organization's name and its ingress attributes' id, as a
 * granted read (see rowWithGrant): all that the version's own document needs, which clients poll
 * until the upload is in.
 */
export const CV_WITH_INGRESS_ID: GrantedRead = {
  ...grantedRead('configuration_versions', [
    `${ORGANIZATION_OF_CV} as organization_name`,
    '(select ia.id from ingress_attributes ia where ia.configuration_version_id = x.id limit 1) as ingress_attributes_id',
  ]),
  organization: ORGANIZATION_OF_CV,
};

/** A row CV_WITH_INGRESS_ID read. */
export type CvWithIngressIdRow = CvRow & { organization_name: string; ingress_attributes_id: string | null };

/** The version's own row of a row CV_WITH_INGRESS_ID read, and its ingress attributes' id. */
export function splitIngressId(row: CvWithIngressIdRow): { cv: CvRow; ingressId: string | null } {
  const { organization_name: _name, ingress_attributes_id: ingressId, ...cv } = row;
  return { cv, ingressId };
}

/** What creating a run needs of the configuration version it would use. */
export type RunSourceCv = Pick<CvRow, 'id' | 'workspace_id' | 'status' | 'source' | 'speculative'>;

/**
 * A workspace by id with the configuration version a new run of it would use, as a granted read
 * (see rowWithGrant): the version the key's first value names, or, when it is null, the
 * workspace's current one; the key's second value is the workspace's id. All that creating a run
 * reads before its insert, in one statement.
 */
export const WORKSPACE_WITH_RUN_CV: GrantedRead = grantedRead('workspaces', [
  `(select json_build_object('id', cv.id, 'workspace_id', cv.workspace_id, 'status', cv.status, 'source', cv.source, 'speculative', cv.speculative)
      from configuration_versions cv where cv.id = coalesce(?::text, x.current_configuration_version_id)) as run_cv`,
]);

/** A row WORKSPACE_WITH_RUN_CV read, split into the workspace's row and the version (undefined when there is none). */
export function splitRunCv<T>(row: T & { run_cv: RunSourceCv | null }): { row: T; cv: RunSourceCv | undefined } {
  const { run_cv: cv, ...rest } = row;
  return { row: rest as T, cv: cv ?? undefined };
}
