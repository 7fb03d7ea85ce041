import type { Runtime } from '../runtime.js';
import type { Db } from '../platform/db.js';
import { Conflict, NotFound, Unprocessable } from '../platform/errors.js';
import { cancelRefusal, type TestSource } from './machine.js';
import { findCv } from '../configuration-versions/index.js';
import {
  insertTestRun,
  lockTestRun,
  moveTestRun,
  organizationOfModule,
  organizationOfTestRun,
  recordCancelRequest,
  type RegistryModuleRow,
  type TestRunRow,
} from './repo.js';
import { enqueueAfterCommit, jobs } from '../platform/queues.js';

export interface TestRunRequest {
  configurationVersionId: string;
  verbose: boolean;
  testDirectory: string;
  filters: string[];
  variables: { key: string; value: string }[];
  parallelism: number | null;
  source: TestSource;
  createdById: string | null;
}

/**
 * Inserts a queued test run inside `tx`. The configuration version must be a module test version
 * of the same organization (from this module or another) and uploaded.
 */
export async function insertQueuedTestRun(
  tx: Db,
  key: Buffer,
  module: RegistryModuleRow,
  req: TestRunRequest,
): Promise<TestRunRow> {
  const cv = await findCv(tx, req.configurationVersionId);
  const owner = cv?.registry_module_id ? await organizationOfModule(tx, cv.registry_module_id) : undefined;
  if (!cv || owner?.organization_name !== module.organization_name) {
    throw new NotFound(`configuration version ${req.configurationVersionId} not found`);
  }
  if (cv.status !== 'uploaded') {
    throw new Unprocessable(`configuration version ${cv.id} is ${cv.status}; upload its files first`, {
      relationship: 'configuration-version',
      id: true,
    });
  }
  return insertTestRun(tx, key, {
    registry_module_id: module.id,
    configuration_version_id: cv.id,
    source: req.source,
    verbose: req.verbose,
    test_directory: req.testDirectory,
    filters: req.filters,
    variables: req.variables,
    parallelism: req.parallelism,
    created_by_id: req.createdById,
  });
}

/** Creates a test run and queues its execution. */
export async function createTestRun(rt: Runtime, module: RegistryModuleRow, req: TestRunRequest): Promise<TestRunRow> {
  const run = await rt.db.transaction((tx) => insertQueuedTestRun(tx, rt.config.encryptionKey, module, req));
  await enqueueAfterCommit(rt.queues, jobs.testRun(run.id), rt.logger);
  return run;
}

/**
 * Cancel: records the request; the worker interrupts Terraform, which tears down what it created,
 * and ends the run `canceled`. Asking again while it tears down is accepted (the terraform CLI
 * does so on a second Ctrl-C). Force-cancel, only after a cancel, ends the run at once; the
 * worker sees that and kills Terraform.
 */
export async function cancelTestRun(
  db: Db,
  moduleId: string,
  id: string,
  kind: 'cancel' | 'force_cancel',
): Promise<void> {
  await db.transaction(async (tx) => {
    const run = await lockTestRun(tx, moduleId, id);
    if (!run) throw new NotFound('test run not found');
    const why = cancelRefusal(kind, { status: run.status, cancelRequested: run.cancel_requested_at !== null });
    if (why) throw new Conflict(why);
    if (kind === 'cancel') {
      if (!run.cancel_requested_at) await recordCancelRequest(tx, id);
      return;
    }
    await moveTestRun(
      tx,
      id,
      'force_cancel',
      { message: 'The test run was force-canceled; Terraform was stopped at once and may have left resources behind.' },
      ['running'],
    );
  });
}

/** The organization a test run's module belongs to (the worker's fair share is that organization's). */
export const organizationOfTestRunId = (db: Db, id: string) => organizationOfTestRun(db, id);
