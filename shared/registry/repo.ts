import { asJson, type Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import { moduleVersionMachine, type ModuleVersionEvent, type ModuleVersionStatus } from './machine.js';
import type { ModuleDetails } from './module-config.rules.js';

/** A published version of a private registry module. */
export interface ModuleVersionRow {
  id: string;
  registry_module_id: string;
  version: string;
  status: ModuleVersionStatus;
  error: string | null;
  commit_sha: string | null;
  archive_object_id: string | null;
  readme: string | null;
  root: ModuleDetails | null;
  submodules: ModuleDetails[] | null;
  test_run_id: string | null;
  created_by_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export async function insertModuleVersion(
  db: Db,
  attrs: Pick<ModuleVersionRow, 'registry_module_id' | 'version' | 'commit_sha' | 'test_run_id' | 'created_by_id'>,
): Promise<ModuleVersionRow> {
  const [row] = await db<ModuleVersionRow>('registry_module_versions')
    .insert({ id: newId('modver'), ...attrs, status: 'pending' })
    .returning('*');
  return row;
}

export const findModuleVersion = (db: Db, moduleId: string, version: string) =>
  db<ModuleVersionRow>('registry_module_versions').where({ registry_module_id: moduleId, version }).first();

export const findModuleVersionById = (db: Db, id: string) =>
  db<ModuleVersionRow>('registry_module_versions').where({ id }).first();

/** Every version of the modules, oldest first. */
export const versionsOfModules = (db: Db, moduleIds: string[]) =>
  db<ModuleVersionRow>('registry_module_versions')
    .whereIn('registry_module_id', moduleIds)
    .orderBy('created_at')
    .orderBy('id');

/** Compare-and-set move of a version from the states the event allows; undefined when it was no longer in one. */
export async function moveModuleVersion(
  db: Db,
  id: string,
  event: ModuleVersionEvent,
  changes: Partial<Pick<ModuleVersionRow, 'error' | 'archive_object_id' | 'readme' | 'root' | 'submodules'>> = {},
): Promise<ModuleVersionRow | undefined> {
  const { root, submodules, ...plain } = changes;
  const [row] = await db<ModuleVersionRow>('registry_module_versions')
    .where({ id })
    .whereIn('status', moduleVersionMachine.sources(event) as ModuleVersionStatus[])
    .update({
      ...plain,
      ...(root !== undefined ? { root: asJson(db, root) } : {}),
      ...(submodules !== undefined ? { submodules: asJson(db, submodules) } : {}),
      status: moduleVersionMachine.moves[event].to,
      updated_at: db.fn.now(),
    })
    .returning('*');
  return row;
}

/** Records the test run whose result a version carries, and the version on the test run. */
export async function setVersionTestRun(db: Db, id: string, testRunId: string): Promise<void> {
  await db('registry_module_versions').where({ id }).update({ test_run_id: testRunId, updated_at: db.fn.now() });
  await db('test_runs').where({ id: testRunId }).update({ module_version_id: id });
}

export const deleteModuleVersion = (db: Db, id: string) => db('registry_module_versions').where({ id }).delete();

/** The organization a version's module belongs to and who created the version, or undefined when the version does not exist. */
export async function moduleVersionOwner(
  db: Db,
  id: string,
): Promise<{ organization: string; createdById: string | null } | undefined> {
  const row = await db('registry_module_versions as v')
    .join('registry_modules as m', 'm.id', 'v.registry_module_id')
    .where('v.id', id)
    .first('m.organization_name', 'v.created_by_id');
  return row && { organization: row.organization_name, createdById: row.created_by_id };
}
