import type { Runtime } from '../runtime.js';
import { Unprocessable } from '../platform/errors.js';
import { decryptSecret, encryptSecret } from '../platform/crypto.js';
import {
  deleteTestVariable,
  insertTestVariable,
  updateTestVariable,
  type RegistryModuleRow,
  type TestVariableRow,
} from './repo.js';

/** A test variable's attributes as the API takes them. */
export interface TestVariableInput {
  key?: string;
  value?: string;
  description?: string | null;
  sensitive?: boolean;
  hcl?: boolean;
}

/** Adds an environment variable to a module's test runs (its value sealed). */
export async function createTestVariable(
  rt: Runtime,
  module: RegistryModuleRow,
  input: TestVariableInput & { key: string },
): Promise<TestVariableRow> {
  return insertTestVariable(rt.db, {
    registry_module_id: module.id,
    key: input.key,
    value_sealed: encryptSecret(rt.config.encryptionKey, input.value ?? ''),
    description: input.description ?? null,
    sensitive: input.sensitive ?? false,
    hcl: input.hcl ?? false,
  });
}

/** Changes a test variable's given attributes; a sensitive variable stays sensitive. */
export async function changeTestVariable(
  rt: Runtime,
  variable: TestVariableRow,
  input: TestVariableInput,
): Promise<TestVariableRow> {
  if (variable.sensitive && input.sensitive === false) {
    throw new Unprocessable('a sensitive variable cannot be made non-sensitive; delete it and create it again', {
      attribute: 'sensitive',
    });
  }
  const changes: Partial<TestVariableRow> = {};
  if (input.key !== undefined) changes.key = input.key;
  if (input.value !== undefined) changes.value_sealed = encryptSecret(rt.config.encryptionKey, input.value);
  if (input.description !== undefined) changes.description = input.description;
  if (input.sensitive !== undefined) changes.sensitive = input.sensitive;
  if (input.hcl !== undefined) changes.hcl = input.hcl;
  return updateTestVariable(rt.db, variable.id, changes);
}

/** Deletes a test variable. */
export async function removeTestVariable(rt: Runtime, variable: TestVariableRow): Promise<void> {
  await deleteTestVariable(rt.db, variable.id);
}

/** A test variable's value; every value is kept sealed, sensitive or not. */
export const testVariableValue = (key: Buffer, v: TestVariableRow): string => decryptSecret(key, v.value_sealed);
