import type { Config } from './platform/config.js';
import { RunLifecycle } from './runs/lifecycle.js';
import { registerRunTasks } from './run-tasks/stages.js';
import { registerNotifications } from './notifications/triggers.js';
import { registerPolicyChecks } from './policies/checks.js';
import { stageEvaluations } from './policies/stage-evaluations.js';
import { registerRunTriggers } from './run-triggers/firing.js';

/**
 * The run lifecycle of a process: run tasks, notifications, policy checks and run triggers wired
 * onto one RunLifecycle. Built once by each entry point (and by the tests' and benchmarks' runtimes) and
 * carried in its Runtime.
 */
export function createRunLifecycle(config: Config): RunLifecycle {
  const lifecycle = new RunLifecycle();
  registerRunTasks(lifecycle, config, stageEvaluations);
  registerNotifications(lifecycle, config);
  registerPolicyChecks(lifecycle);
  registerRunTriggers(lifecycle);
  return lifecycle;
}
