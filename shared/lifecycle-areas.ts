import type { Config } from './platform/config.js';
import { RunLifecycle } from './runs/lifecycle.js';
import { registerRunTasks } from './run-tasks/index.js';
import { registerNotifications } from './notifications/index.js';
import { registerPolicyChecks, stageEvaluations } from './policies/index.js';
import { registerRunTriggers } from './run-triggers/index.js';
import { registerCommitStatuses, registerVcsArchiving } from './vcs/index.js';

/**
 * The run lifecycle of a process: run tasks, notifications, policy checks, run triggers, commit statuses and the archiving of fetched versions wired
 * onto one RunLifecycle. Built once by each entry point (and by the tests' and benchmarks' runtimes) and
 * carried in its Runtime.
 */
export function createRunLifecycle(config: Config): RunLifecycle {
  const lifecycle = new RunLifecycle();
  registerRunTasks(lifecycle, config, stageEvaluations);
  registerNotifications(lifecycle, config);
  registerPolicyChecks(lifecycle);
  registerRunTriggers(lifecycle);
  registerCommitStatuses(lifecycle, config);
  registerVcsArchiving(lifecycle);
  return lifecycle;
}
