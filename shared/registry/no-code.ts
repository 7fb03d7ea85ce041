import { Readable } from 'node:stream';
import type { Runtime } from '../runtime.js';
import { isUniqueViolation, type Db } from '../platform/db.js';
import { type Field, NotFound, Unprocessable } from '../platform/errors.js';
import { tarGzOf } from '../platform/archive.js';
import { keyProblems, type VariableCategory } from '../variables/rules.js';
import {
  noCodeConfiguration,
  pinsVersion,
  provisionedVersion,
  provisioningProblem,
  type VariableOption,
} from './no-code.rules.js';
import { findModule, type RegistryModuleRow } from '../module-tests/index.js';
import { findModuleVersion } from './repo.js';
import {
  deleteNoCodeModule,
  insertNoCodeModule,
  ONE_PER_MODULE,
  replaceVariableOptions,
  updateNoCodeModule,
  variableOptionsOf,
  type NoCodeModuleRow,
} from './no-code.repo.js';
import {
  deleteWorkspace,
  findWorkspace,
  type WorkspaceRow,
  type WorkspaceSettings,
  createWorkspace,
} from '../workspaces/index.js';
import { publishedVersions } from './queries.js';
import { serviceHostname } from '../platform/config.js';
import { createWorkspaceCv } from '../configuration-versions/index.js';
import { acceptUpload } from '../runs/index.js';
import { createVariable, type VariableInput } from '../variables/index.js';

/*
 * No-code modules: a private registry module offered for provisioning workspaces. A workspace
 * provisioned with one runs a configuration the service writes (the module at its pinned or latest
 * published version, its inputs from the workspace's variables), and its first run is queued at once.
 */

/** What a request sets on a no-code module (undefined: left as it is). */
export interface NoCodeInput {
  enabled?: boolean;
  versionPin?: string | null;
  variableOptions?: VariableOption[];
}

const VERSION_PIN: Field = { attribute: 'version-pin' };

/** The pin to store: a version of the module (422 when it has none such), `latest`, or null for none. */
async function checkedPin(
  db: Db,
  moduleId: string,
  pin: string | null | undefined,
): Promise<string | null | undefined> {
  if (pin === undefined || pin === null || !pinsVersion(pin)) return pin === '' ? null : pin;
  if (!(await findModuleVersion(db, moduleId, pin))) {
    throw new Unprocessable(`version pin ${pin} is neither latest nor a version of the module`, VERSION_PIN);
  }
  return pin;
}

/** Variable options with one entry per variable (422 naming the first repeated). */
function checkedOptions(options: VariableOption[] | undefined): VariableOption[] | undefined {
  const seen = new Set<string>();
  for (const o of options ?? []) {
    if (seen.has(o.variable_name))
      throw new Unprocessable(`variable ${o.variable_name} has options twice`, { relationship: 'variable-options' });
    seen.add(o.variable_name);
  }
  return options;
}

/** The organization's private registry module a request names (422 for any other). */
async function offeredModule(db: Db, organizationName: string, moduleId: string): Promise<RegistryModuleRow> {
  const module = await findModule(db, moduleId);
  if (!module || module.organization_name !== organizationName || module.registry_name !== 'private') {
    throw new Unprocessable(`registry module ${moduleId} is not a private module of the organization`, {
      relationship: 'registry-module',
    });
  }
  return module;
}

/** Offers a registry module of `organizationName` for no-code provisioning (one no-code module per registry module). */
export async function offerNoCodeModule(
  db: Db,
  organizationName: string,
  registryModuleId: string,
  input: NoCodeInput,
): Promise<NoCodeModuleRow> {
  return db
    .transaction(async (tx) => {
      const module = await offeredModule(tx, organizationName, registryModuleId);
      const row = await insertNoCodeModule(tx, {
        organization_name: organizationName,
        registry_module_id: module.id,
        enabled: input.enabled ?? true,
        version_pin: (await checkedPin(tx, module.id, input.versionPin)) ?? null,
      });
      await replaceVariableOptions(tx, row.id, checkedOptions(input.variableOptions) ?? []);
      return row;
    })
    .catch((err: unknown) => {
      throw isUniqueViolation(err, ONE_PER_MODULE)
        ? new Unprocessable('the registry module is already offered as a no-code module', {
            relationship: 'registry-module',
          })
        : err;
    });
}

/** Changes a no-code module; its registry module stays the same (422 when a request names another). */
export async function changeNoCodeModule(
  rt: Runtime,
  ncm: NoCodeModuleRow,
  input: NoCodeInput & { registryModuleId?: string },
): Promise<NoCodeModuleRow> {
  if (input.registryModuleId !== undefined && input.registryModuleId !== ncm.registry_module_id) {
    throw new Unprocessable('the registry module of a no-code module cannot be changed', {
      relationship: 'registry-module',
    });
  }
  return rt.db.transaction(async (tx) => {
    const changed = await updateNoCodeModule(tx, ncm.id, {
      enabled: input.enabled,
      version_pin: await checkedPin(tx, ncm.registry_module_id, input.versionPin),
    });
    if (!changed) throw new NotFound();
    const options = checkedOptions(input.variableOptions);
    if (options) await replaceVariableOptions(tx, ncm.id, options);
    return changed;
  });
}

export async function removeNoCodeModule(rt: Runtime, ncm: NoCodeModuleRow): Promise<void> {
  if (!(await deleteNoCodeModule(rt.db, ncm.id))) throw new NotFound();
}

/** A workspace's variable as provisioning takes it. */
export type ProvisionedVariable = VariableInput & { key: string; category: VariableCategory };

/** What a workspace is provisioned with: its settings, its variables, and who asked. */
export interface ProvisionRequest {
  settings: WorkspaceSettings & { name: string };
  variables: ProvisionedVariable[];
  createdById: string | null;
}

/** The variables given, refused with 422 when a key is malformed or given twice in a category. */
function checkedVariables(variables: ProvisionedVariable[]): ProvisionedVariable[] {
  const seen = new Set<string>();
  for (const [i, v] of variables.entries()) {
    const problems = keyProblems(v.key, v.category);
    if (problems.length)
      throw new Unprocessable(`variable ${v.key}: ${problems[0].detail}`, { relationship: 'vars', element: i });
    if (seen.has(`${v.category}:${v.key}`))
      throw new Unprocessable(`variable ${v.key} is given twice`, { relationship: 'vars', element: i });
    seen.add(`${v.category}:${v.key}`);
  }
  return variables;
}

/**
 * Provisions a workspace with a no-code module: the workspace, its variables, and a configuration
 * version the service writes (see noCodeConfiguration) whose upload queues the first run. What the
 * module needs is checked first (422: disabled, no published version at the pin, a required input
 * without a variable, a value outside its options); a later failure removes the workspace again.
 */
export async function provisionWorkspace(
  rt: Runtime,
  ncm: NoCodeModuleRow,
  req: ProvisionRequest,
): Promise<WorkspaceRow> {
  if (!ncm.enabled) throw new Unprocessable('the no-code module is disabled');
  const module = await findModule(rt.db, ncm.registry_module_id);
  if (!module) throw new NotFound();
  const version = provisionedVersion(
    ncm.version_pin,
    (await publishedVersions(rt.db, module.id)).map((v) => v.version),
  );
  if (!version)
    throw new Unprocessable(
      pinsVersion(ncm.version_pin)
        ? `version ${ncm.version_pin} of the module is not published`
        : 'the module has no published version',
    );
  const root = (await findModuleVersion(rt.db, module.id, version))?.root ?? { inputs: [], outputs: [] };
  const variables = checkedVariables(req.variables);
  const given = variables.map((v) => ({ key: v.key, value: v.value ?? '', category: v.category }));
  const problem = provisioningProblem(root.inputs, await variableOptionsOf(rt.db, [ncm.id]), given);
  if (problem) throw new Unprocessable(problem, { relationship: 'vars' });

  const ws = await createWorkspace(rt, ncm.organization_name, req.settings);
  try {
    for (const v of variables) await createVariable(rt, { workspace_id: ws.id }, v);
    const source = `${serviceHostname(rt.config)}/${module.namespace}/${module.name}/${module.provider}`;
    const archive = tarGzOf({ 'main.tf': noCodeConfiguration({ source, name: module.name, version }, root) });
    const cv = await createWorkspaceCv(rt, {
      workspace_id: ws.id,
      source: 'tfe-api',
      auto_queue_runs: true,
      speculative: false,
      provisional: false,
      created_with_plan_access_only: false,
      created_by_id: req.createdById,
    });
    await acceptUpload(rt, cv, Readable.from([archive]), archive.length);
  } catch (err) {
    await deleteWorkspace(rt.db, ws.id).catch(() => undefined);
    throw err;
  }
  return (await findWorkspace(rt.db, ws.id)) ?? ws;
}
