import type { Db } from '../platform/db.js';
import type { SshKeyRow } from './repo.js';
import { fetchPage, type Page } from '../platform/page.js';

/** What a list shows of a key: everything but the sealed private key. */
export type SshKeySummary = Omit<SshKeyRow, 'value_sealed'>;

/** One page of an organization's SSH keys, by name, and their total. */
export function sshKeysPage(
  db: Db,
  organizationName: string,
  page: Page,
): Promise<{ rows: SshKeySummary[]; total: number }> {
  const q = db('ssh_keys')
    .where({ organization_name: organizationName })
    .select('id', 'organization_name', 'name', 'created_at', 'updated_at');
  return fetchPage<SshKeySummary>(q.orderBy([{ column: 'name' }, { column: 'id' }]), page);
}
