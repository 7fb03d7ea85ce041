// The public face of the registry feature (the private module registry and no-code modules), which server and workers call.
export {
  acceptModuleUpload,
  createModuleVersion,
  createRegistryModule,
  removeModules,
  removeModuleVersion,
  testModuleVersion,
} from './commands.js';
export { latestVersion, moduleStatus } from './machine.js';
export { type NoCodeModuleRow, noCodeModulesOfRegistryModules, variableOptionsOf } from './no-code.repo.js';
export {
  changeNoCodeModule,
  type NoCodeInput,
  offerNoCodeModule,
  type ProvisionedVariable,
  provisionWorkspace,
  removeNoCodeModule,
} from './no-code.js';
export { findModuleVersion, moduleVersionOwner, type ModuleVersionRow } from './repo.js';
