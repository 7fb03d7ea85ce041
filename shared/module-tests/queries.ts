import type { Db } from '../platform/db.js';
import type { TestSource } from './machine.js';
import type { TestRunRow, TestVariableRow } from './repo.js';
import { fetchPage, type Page } from '../platform/page.js';

/** One page of a module's test runs, newest first, of the given sources when named. */
export function testRunPage(db: Db, moduleId: string, page: Page, sources?: TestSource[]) {
  const query = db('test_runs').where({ registry_module_id: moduleId });
  if (sources) query.whereIn('source', sources);
  return fetchPage<TestRunRow>(query.orderBy('created_at', 'desc').orderBy('id', 'desc'), page);
}

/** One page of a module's test variables, oldest first. */
export const testVariablePage = (db: Db, moduleId: string, page: Page) =>
  fetchPage<TestVariableRow>(
    db('module_test_variables').where({ registry_module_id: moduleId }).orderBy('created_at').orderBy('id'),
    page,
  );
