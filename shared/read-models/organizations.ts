import type { Db } from '../db.js';
import type { Principal } from '../access.js';
import { organizationsVisibleTo, type OrganizationRow } from '../repos/organizations.js';
import { fetchPage, type Page } from './page.js';

/** One page of the organizations a principal can see, by name. */
export const organizationsPage = (db: Db, principal: Principal, page: Page) => fetchPage<OrganizationRow>(organizationsVisibleTo(db, principal).orderBy('name'), page);
