import type { Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';

export interface TagRow {
  id: string;
  organization_name: string;
  name: string;
  created_at: Date;
}

/** The organization's tags with these names, created where missing. */
export async function tagsNamed(db: Db, organizationName: string, names: string[]): Promise<TagRow[]> {
  if (!names.length) return [];
  await db('tags')
    .insert(names.map((name) => ({ id: newId('tag'), organization_name: organizationName, name })))
    .onConflict(['organization_name', 'name'])
    .ignore();
  return db<TagRow>('tags').where({ organization_name: organizationName }).whereIn('name', names);
}

/** The organization's tags among these ids (ids of other organizations' tags are left out). */
export const tagsByIds = (db: Db, organizationName: string, ids: string[]) =>
  ids.length
    ? db<TagRow>('tags').where({ organization_name: organizationName }).whereIn('id', ids)
    : Promise.resolve([] as TagRow[]);

/** The organization's tags among these names (no tag is created). */
export const existingTagsNamed = (db: Db, organizationName: string, names: string[]) =>
  names.length
    ? db<TagRow>('tags').where({ organization_name: organizationName }).whereIn('name', names)
    : Promise.resolve([] as TagRow[]);

/** Attaches tags to a workspace, after those it has, in the order given; tags it has already stay where they are. */
export async function attachTags(db: Db, workspaceId: string, tagIds: string[]): Promise<void> {
  for (const tagId of tagIds)
    await db('workspace_tags')
      .insert({ workspace_id: workspaceId, tag_id: tagId })
      .onConflict(['workspace_id', 'tag_id'])
      .ignore();
}

/** Detaches tags from a workspace (tags it does not have are ignored). */
export async function detachTags(db: Db, workspaceId: string, tagIds: string[]): Promise<void> {
  if (tagIds.length) await db('workspace_tags').where({ workspace_id: workspaceId }).whereIn('tag_id', tagIds).del();
}

/** Deletes the organization's tags among these ids (their workspaces lose them); other ids are ignored. */
export async function deleteTags(db: Db, organizationName: string, ids: string[]): Promise<void> {
  if (ids.length) await db('tags').where({ organization_name: organizationName }).whereIn('id', ids).del();
}

export const findTag = (db: Db, id: string) => db<TagRow>('tags').where({ id }).first();

/** Which of these workspace ids belong to the organization. */
export const workspaceIdsIn = async (db: Db, organizationName: string, ids: string[]) =>
  (await db('workspaces').where({ organization_name: organizationName }).whereIn('id', ids).pluck('id')) as string[];
