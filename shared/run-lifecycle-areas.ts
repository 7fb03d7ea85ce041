import type { Config } from './config.js';
import { RunLifecycle } from './run-lifecycle.js';
import { runTaskParts } from './run-tasks/stages.js';
import { notificationParts } from './notifications/triggers.js';
import { policyParts } from './policy/checks.js';

/**
 * The run lifecycle of a process: run tasks, notifications and policy checks wired onto one
 * RunLifecycle. Built once by each entry point (and by the tests' and benchmarks' runtimes) and
 * carried in its Runtime.
 */
export function createRunLifecycle(config: Config): RunLifecycle {
  const lifecycle = new RunLifecycle();
  runTaskParts(lifecycle, config);
  notificationParts(lifecycle, config);
  policyParts(lifecycle);
  return lifecycle;
}
