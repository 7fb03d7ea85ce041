import type { Db } from '../platform/db.js';
import type { Principal } from '../identity/access.queries.js';
import { organizationsVisibleTo, type OrganizationRow } from './repo.js';
import { fetchPage, type Page } from '../platform/page.js';

/** One page of the organizations a principal can see, by name. */
export const organizationsPage = (db: Db, principal: Principal, page: Page) =>
  fetchPage<OrganizationRow>(organizationsVisibleTo(db, principal).orderBy('name'), page);
