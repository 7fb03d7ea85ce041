import { updateGiven, type Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';

/** An organization's SSH key; the private key is sealed in `value_sealed` and read back only for a run's phase. */
export interface SshKeyRow {
  id: string;
  organization_name: string;
  name: string;
  value_sealed: string;
  created_at: Date;
  updated_at: Date;
}

const keys = (db: Db) => db<SshKeyRow>('ssh_keys');

export const findSshKey = (db: Db, id: string) => keys(db).where({ id }).first();

/** findSshKey, keeping the key from being deleted until the caller's transaction ends (a workspace is being given it). */
export const findSshKeyToAssign = (db: Db, id: string) => keys(db).where({ id }).forShare().first();

export async function insertSshKey(
  db: Db,
  organizationName: string,
  attrs: { name: string; value_sealed: string },
): Promise<SshKeyRow> {
  const [row] = await keys(db)
    .insert({ id: newId('sshkey'), organization_name: organizationName, ...attrs })
    .returning('*');
  return row;
}

/** Changes the given attributes of a key (see updateGiven). */
export const updateSshKey = (db: Db, id: string, attrs: { name?: string; value_sealed?: string }) =>
  updateGiven<SshKeyRow>(db, 'ssh_keys', id, attrs);

/** Deletes a key (its workspaces lose it, by the foreign key); whether there was one. */
export const deleteSshKey = async (db: Db, id: string): Promise<boolean> => (await keys(db).where({ id }).del()) > 0;

/** The sealed private key of a workspace's SSH key, or null when it has none. */
export async function sealedSshKeyOfWorkspace(db: Db, workspaceId: string): Promise<string | null> {
  const row = await db('workspaces as w')
    .join('ssh_keys as k', 'k.id', 'w.ssh_key_id')
    .where('w.id', workspaceId)
    .first('k.value_sealed');
  return (row?.value_sealed as string | undefined) ?? null;
}
