import type { Db } from '../platform/db.js';
import type { TagRow } from './tags.repo.js';
import { fetchPage, type Page } from '../platform/page.js';

/** One page of a workspace's tags, in the order they were added, with the total. */
export const workspaceTagsPage = (db: Db, workspaceId: string, page: Page) =>
  fetchPage<TagRow>(
    db('workspace_tags as wt')
      .join('tags as t', 't.id', 'wt.tag_id')
      .where('wt.workspace_id', workspaceId)
      .orderBy('wt.position')
      .select('t.*'),
    page,
  );

/** One page of an organization's tags (optionally those whose name contains `q`), each with how many workspaces carry it. */
export function organizationTagsPage(db: Db, organizationName: string, q: string | null, page: Page) {
  const query = db('tags as t').where('t.organization_name', organizationName);
  if (q) query.whereILike('t.name', `%${q.replace(/[%_\\]/g, '\\$&')}%`);
  return fetchPage<TagRow & { instance_count: number }>(
    query
      .orderBy('t.name')
      .select('t.*', db.raw('(select count(*)::int from workspace_tags wt where wt.tag_id = t.id) as instance_count')),
    page,
  );
}
