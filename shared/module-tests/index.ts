// The public face of the module-tests feature (tests of registry modules and their runs), which server and workers call.
export { changeTestVariable, createTestVariable, removeTestVariable, testVariableValue } from './commands.js';
export { TEST_SOURCES, type TestSource } from './machine.js';
export {
  findModule,
  findModuleByAddress,
  findTestRun,
  findTestVariable,
  type RegistryModuleRow,
  type TestRunRow,
  type TestVariableRow,
  deleteModule,
  insertModule,
  testRunsDue,
} from './repo.js';
export {
  cancelTestRun,
  createTestRun,
  insertQueuedTestRun,
  organizationOfTestRunId,
  type TestRunRequest,
} from './test-runs.js';
