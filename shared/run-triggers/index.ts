// The public face of the run-triggers feature (run triggers between workspaces), which server and workers call.
export { createRunTrigger, removeRunTrigger } from './commands.js';
export { findRunTrigger } from './repo.js';
export { isRunTriggerType, triggerReason } from './rules.js';
export { registerRunTriggers } from './firing.js';
