// The public face of the variables feature (workspace variables and variable sets), which server and workers call.
export { changeVariable, createVariable, removeVariable, type VariableInput, variablesInEffect } from './commands.js';
export {
  applyVariableSet,
  changeVariableSet,
  createVariableSet,
  removeVariableSet,
  unapplyVariableSet,
  type VarsetInput,
} from './sets.js';
