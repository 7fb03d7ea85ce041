// The policy engines' face for worker processes: evaluating a run's policies spawns the engines' CLIs.
export { cliEngines } from './engines.js';
export { evaluateRunPolicies, evaluateStagePolicies } from './evaluation.js';
