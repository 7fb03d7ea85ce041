// The public face of the module-tests feature (tests of registry modules and their runs), which server and workers call.
export { changeTestVariable, createTestVariable, removeTestVariable } from './commands.js';
export { TEST_SOURCES, type TestSource } from './machine.js';
export {
  findModule,
  findModuleByAddress,
  findTestRun,
  findTestVariable,
  type RegistryModuleRow,
  type TestRunRow,
  type TestVariableRow,
} from './repo.js';
export { cancelTestRun, createTestRun, organizationOfTestRunId } from './test-runs.js';
