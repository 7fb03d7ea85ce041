// The public face of the variables feature (workspace variables and variable sets), which server and workers call.
export {
  changeVariable,
  createVariable,
  removeVariable,
  type VariableInput,
  variablesInEffect,
  effectiveVariables,
  resolveEffectiveVariables,
  variablesLogLines,
  type EffectiveVariables,
} from './commands.js';
export {
  applyVariableSet,
  changeVariableSet,
  createVariableSet,
  removeVariableSet,
  unapplyVariableSet,
  type VarsetInput,
} from './sets.js';
export { openValue, storedValue, reachingVariablesFrom, setReachOf, type ResolvableVariable } from './repo.js';
