import type { Knex } from 'knex';
import { asJson, type Db } from '../platform/db.js';
import { newId } from '../platform/ids.js';
import { createLog } from '../platform/logs.js';
import { decryptSecret, encryptSecret } from '../platform/crypto.js';
import { testRunMachine, type TestRunEvent, type TestRunStatus, type TestSource } from './machine.js';
import { leaseExpired } from '../platform/leases.js';

export interface RegistryModuleRow {
  id: string;
  organization_name: string;
  registry_name: string;
  namespace: string;
  name: string;
  provider: string;
  created_by_id: string | null;
  /** The repository whose tags publish its versions (see shared/vcs/modules.ts); null when published through the API. */
  vcs_repo: Record<string, unknown> | null;
  vcs_hook_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface TestVariableRow {
  id: string;
  registry_module_id: string;
  key: string;
  value_sealed: string;
  description: string | null;
  category: string;
  sensitive: boolean;
  hcl: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface TestRunRow {
  id: string;
  registry_module_id: string;
  configuration_version_id: string | null;
  /** The published version whose archive the run tests, when it tests one. */
  module_version_id: string | null;
  status: TestRunStatus;
  test_status: string | null;
  tests_passed: number | null;
  tests_failed: number | null;
  tests_errored: number | null;
  tests_skipped: number | null;
  source: TestSource;
  verbose: boolean;
  test_directory: string;
  filters: string[];
  variables_sealed: string | null;
  variable_keys: string[];
  parallelism: number | null;
  log_id: string;
  message: string | null;
  cancel_requested_at: Date | null;
  lease_owner: string | null;
  lease_until: Date | null;
  attempts: number;
  status_timestamps: Record<string, string>;
  created_by_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The natural key of a module within an organization. */
export interface ModuleAddress {
  organization: string;
  registryName: string;
  namespace: string;
  name: string;
  provider: string;
}

export const findModuleByAddress = (db: Db, a: ModuleAddress) =>
  db<RegistryModuleRow>('registry_modules')
    .where({
      organization_name: a.organization,
      registry_name: a.registryName,
      namespace: a.namespace,
      name: a.name,
      provider: a.provider,
    })
    .first();

export const findModule = (db: Db, id: string) => db<RegistryModuleRow>('registry_modules').where({ id }).first();

/** The organization a module belongs to, as `{ organization_name }`; undefined when there is no such module. */
export const organizationOfModule = (
  db: Db,
  id: string,
): Promise<Pick<RegistryModuleRow, 'organization_name'> | undefined> =>
  db<RegistryModuleRow>('registry_modules').where({ id }).first('organization_name');

export async function insertModule(
  db: Db,
  attrs: Omit<RegistryModuleRow, 'id' | 'created_at' | 'updated_at' | 'vcs_repo' | 'vcs_hook_id'> &
    Partial<Pick<RegistryModuleRow, 'vcs_repo' | 'vcs_hook_id'>>,
): Promise<RegistryModuleRow> {
  const { vcs_repo, ...rest } = attrs;
  const [row] = await db<RegistryModuleRow>('registry_modules')
    .insert({ id: newId('mod'), ...rest, ...(vcs_repo ? { vcs_repo: asJson(db, vcs_repo) } : {}) })
    .returning('*');
  return row;
}

/** Deletes a registry module (its test runs and variables go with it). */
export const deleteModule = (db: Db, id: string) => db('registry_modules').where({ id }).delete();

/** Inserts a module's test variable (an environment variable, its value sealed). */
export async function insertTestVariable(
  db: Db,
  attrs: Pick<TestVariableRow, 'registry_module_id' | 'key' | 'value_sealed' | 'description' | 'sensitive' | 'hcl'>,
): Promise<TestVariableRow> {
  const [row] = await db<TestVariableRow>('module_test_variables')
    .insert({ id: newId('var'), ...attrs, category: 'env' })
    .returning('*');
  return row;
}

/** Updates a test variable; the row as it is now. */
export async function updateTestVariable(
  db: Db,
  id: string,
  changes: Partial<TestVariableRow>,
): Promise<TestVariableRow> {
  const [row] = await db<TestVariableRow>('module_test_variables')
    .where({ id })
    .update({ ...changes, updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/** Deletes a test variable. */
export const deleteTestVariable = (db: Db, id: string) => db('module_test_variables').where({ id }).delete();

export const findTestVariable = (db: Db, moduleId: string, id: string) =>
  db<TestVariableRow>('module_test_variables').where({ registry_module_id: moduleId, id }).first();

export const testVariablesOf = (db: Db, moduleId: string) =>
  db<TestVariableRow>('module_test_variables')
    .where({ registry_module_id: moduleId })
    .orderBy('created_at')
    .orderBy('id');

export const findTestRun = (db: Db, moduleId: string, id: string) =>
  db<TestRunRow>('test_runs').where({ registry_module_id: moduleId, id }).first();

/** A module's test run, locked until the caller's transaction ends (cancels take turns on it). */
export const lockTestRun = (tx: Db, moduleId: string, id: string) =>
  tx<TestRunRow>('test_runs').where({ registry_module_id: moduleId, id }).forUpdate().first();

/**
 * A test run locked for its claim, with whether its lease has run out. Undefined when there is no
 * such test run.
 */
export async function lockTestRunForClaim(
  tx: Db,
  id: string,
): Promise<(TestRunRow & { lease_expired: boolean }) | undefined> {
  return tx('test_runs').where({ id }).forUpdate().first('*', leaseExpired(tx));
}

/** Records that a cancel was asked for; the worker then interrupts Terraform. */
export async function recordCancelRequest(tx: Db, id: string): Promise<void> {
  await tx('test_runs').where({ id }).update({ cancel_requested_at: tx.fn.now(), updated_at: tx.fn.now() });
}

/** Whether a test run is still running and whether a cancel was asked for; undefined when it is gone. */
export const testRunCancelState = (
  db: Db,
  id: string,
): Promise<Pick<TestRunRow, 'status' | 'cancel_requested_at'> | undefined> =>
  db<TestRunRow>('test_runs').where({ id }).first('status', 'cancel_requested_at');

/** Ends the worker's lease of a test run it no longer runs (force-canceled, or gone). */
export async function releaseTestRunLease(db: Db, id: string): Promise<void> {
  await db('test_runs').where({ id }).update({ lease_owner: null, lease_until: null });
}

const TIMESTAMP_OF: Partial<Record<TestRunStatus, string>> = {
  queued: 'queued-at',
  running: 'started-at',
  finished: 'finished-at',
  errored: 'errored-at',
  canceled: 'canceled-at',
};

const stamp = (db: Db, key: string) =>
  db.raw('status_timestamps || jsonb_build_object(?::text, ?::text)', [key, new Date().toISOString()]);

/** Inserts a test run, already queued, with its (empty) log. */
export async function insertTestRun(
  db: Db,
  key: Buffer,
  attrs: Pick<
    TestRunRow,
    | 'registry_module_id'
    | 'configuration_version_id'
    | 'source'
    | 'verbose'
    | 'test_directory'
    | 'filters'
    | 'parallelism'
    | 'created_by_id'
  > & {
    variables: { key: string; value: string }[];
  },
): Promise<TestRunRow> {
  const logId = await createLog(db);
  const { variables, ...rest } = attrs;
  const [row] = await db<TestRunRow>('test_runs')
    .insert({
      id: newId('trun'),
      ...rest,
      filters: asJson(db, attrs.filters),
      variables_sealed: variables.length ? encryptSecret(key, JSON.stringify(variables)) : null,
      variable_keys: asJson(
        db,
        variables.map((v) => v.key),
      ),
      status: testRunMachine.transition('pending', 'queue'),
      log_id: logId,
      status_timestamps: asJson(db, { 'queued-at': new Date().toISOString() }),
    })
    .returning('*');
  return row;
}

/**
 * Compare-and-set move of a test run from `from` (default: every state the event allows).
 * Returns the moved row, or undefined when it was no longer in one of those states.
 */
export async function moveTestRun(
  db: Db,
  id: string,
  event: TestRunEvent,
  changes: { [K in keyof TestRunRow]?: TestRunRow[K] | Knex.Raw } = {},
  from: readonly TestRunStatus[] = testRunMachine.sources(event),
): Promise<TestRunRow | undefined> {
  const to = testRunMachine.moves[event].to;
  let timestamps = stamp(db, TIMESTAMP_OF[to]!);
  if (event === 'force_cancel')
    timestamps = db.raw('? || jsonb_build_object(?::text, ?::text)', [
      timestamps,
      'force-canceled-at',
      new Date().toISOString(),
    ]);
  const [row] = await db<TestRunRow>('test_runs')
    .where({ id })
    .whereIn('status', from as TestRunStatus[])
    .update({ ...changes, status: to, status_timestamps: timestamps, updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/** The test-specific variables (HCL literals) of a test run. */
export const testRunVariables = (
  key: Buffer,
  run: Pick<TestRunRow, 'variables_sealed'>,
): { key: string; value: string }[] =>
  run.variables_sealed
    ? (JSON.parse(decryptSecret(key, run.variables_sealed)) as { key: string; value: string }[])
    : [];

/** The organization a test run's module belongs to, or null when there is no such test run. */
export async function organizationOfTestRun(db: Db, id: string): Promise<string | null> {
  const row = await db('test_runs as t')
    .join('registry_modules as m', 'm.id', 't.registry_module_id')
    .where('t.id', id)
    .first('m.organization_name');
  return row?.organization_name ?? null;
}

/** Test runs waiting for a worker, and running ones whose worker's lease has run out, keyed by id (for pageAfter). */
export const testRunsDue = (db: Db): Knex.QueryBuilder =>
  db('test_runs')
    .where((q) =>
      q
        .where('status', 'queued')
        .orWhere((r) =>
          r
            .where('status', 'running')
            .andWhere((l) => l.whereNull('lease_until').orWhere('lease_until', '<', db.fn.now())),
        ),
    )
    .select('id as key', 'id');
