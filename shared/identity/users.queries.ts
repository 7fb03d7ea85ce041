import type { Db } from '../platform/db.js';
import type { UserRow } from './users.repo.js';
import { fetchPage, type Page } from '../platform/page.js';

/** Escapes LIKE's wildcards so a search matches its text literally. */
const literal = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Every user, by username, optionally those whose username or email contains `q` (any case): the site admin's list. */
export function usersPage(db: Db, q: string | null, page: Page): Promise<{ rows: UserRow[]; total: number }> {
  const query = db<UserRow>('users')
    .select('id', 'username', 'email', 'is_admin', 'created_at', 'suspended_at')
    .orderBy('username');
  if (q) {
    const like = `%${literal(q.toLowerCase())}%`;
    query.where((w) =>
      w.whereRaw('lower(username) like ?', [like]).orWhereRaw("lower(coalesce(email, '')) like ?", [like]),
    );
  }
  return fetchPage<UserRow>(query, page);
}
