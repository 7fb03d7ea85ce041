import type { Db } from '../platform/db.js';
import type { Principal } from '../identity/access.queries.js';
import { organizationsVisibleTo, type OrganizationRow } from './repo.js';
import { fetchPage, type Page } from '../platform/page.js';

/** One page of the organizations a principal can see, by name. */
export const organizationsPage = (db: Db, principal: Principal, page: Page) =>
  fetchPage<OrganizationRow>(organizationsVisibleTo(db, principal).orderBy('name'), page);

/** Every organization of the service, by name (`q` matches a part of the name or email), for site admins. */
export function allOrganizationsPage(db: Db, q: string | null, page: Page) {
  const query = db<OrganizationRow>('organizations').orderBy('name');
  if (q) query.whereRaw("strpos(lower(name || ' ' || coalesce(email, '')), lower(?)) > 0", [q]);
  return fetchPage<OrganizationRow>(query, page);
}
