import { asJson, updateGiven, type Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import type { VariableOption } from './no-code.rules.js';

/** A registry module offered for no-code provisioning. */
export interface NoCodeModuleRow {
  id: string;
  organization_name: string;
  registry_module_id: string;
  enabled: boolean;
  /** A version of the module, `latest`, or null (the latest too). */
  version_pin: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface VariableOptionRow extends VariableOption {
  id: string;
  no_code_module_id: string;
  position: number;
}

/** The unique index that allows one no-code module per registry module. */
export const ONE_PER_MODULE = 'no_code_modules_registry_module_id_unique';

const modules = (db: Db) => db<NoCodeModuleRow>('no_code_modules');

export async function insertNoCodeModule(
  db: Db,
  attrs: Pick<NoCodeModuleRow, 'organization_name' | 'registry_module_id' | 'enabled' | 'version_pin'>,
): Promise<NoCodeModuleRow> {
  const [row] = await modules(db)
    .insert({ id: newId('nocode'), ...attrs })
    .returning('*');
  return row;
}

/** Changes the given attributes (see updateGiven). */
export const updateNoCodeModule = (
  db: Db,
  id: string,
  attrs: Partial<Pick<NoCodeModuleRow, 'enabled' | 'version_pin'>>,
) => updateGiven<NoCodeModuleRow>(db, 'no_code_modules', id, attrs);

export const deleteNoCodeModule = async (db: Db, id: string): Promise<boolean> =>
  (await modules(db).where({ id }).del()) > 0;

/** Replaces a no-code module's variable options, in the order given. */
export async function replaceVariableOptions(
  db: Db,
  moduleId: string,
  options: readonly VariableOption[],
): Promise<void> {
  await db('no_code_variable_options').where({ no_code_module_id: moduleId }).del();
  if (!options.length) return;
  await db('no_code_variable_options').insert(
    options.map((o, position) => ({
      id: newId('ncvar'),
      no_code_module_id: moduleId,
      position,
      variable_name: o.variable_name,
      variable_type: o.variable_type,
      options: asJson(db, o.options),
    })),
  );
}

/** The variable options of no-code modules, in their order. */
export const variableOptionsOf = (db: Db, moduleIds: string[]): Promise<VariableOptionRow[]> =>
  moduleIds.length
    ? db<VariableOptionRow>('no_code_variable_options')
        .whereIn('no_code_module_id', moduleIds)
        .orderBy(['no_code_module_id', 'position'])
    : Promise.resolve([]);

/** The no-code modules of registry modules (at most one each). */
export const noCodeModulesOfRegistryModules = (db: Db, registryModuleIds: string[]): Promise<NoCodeModuleRow[]> =>
  registryModuleIds.length ? modules(db).whereIn('registry_module_id', registryModuleIds) : Promise.resolve([]);
