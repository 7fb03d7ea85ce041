import type { Config } from '../platform/config.js';
import { RunLifecycle } from './lifecycle.js';
import { runTaskParts } from '../run-tasks/stages.js';
import { notificationParts } from '../notifications/triggers.js';
import { policyParts } from '../policies/checks.js';
import { runTriggerParts } from '../run-triggers/firing.js';

/**
 * The run lifecycle of a process: run tasks, notifications, policy checks and run triggers wired
 * onto one RunLifecycle. Built once by each entry point (and by the tests' and benchmarks' runtimes) and
 * carried in its Runtime.
 */
export function createRunLifecycle(config: Config): RunLifecycle {
  const lifecycle = new RunLifecycle();
  runTaskParts(lifecycle, config);
  notificationParts(lifecycle, config);
  policyParts(lifecycle);
  runTriggerParts(lifecycle);
  return lifecycle;
}
