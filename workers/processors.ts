import { JOB, type QueueName } from '../shared/platform/queues.js';
import type { QueueProcessors } from './context.js';
import { deliverMail, deliverNotification } from './notification-delivery.js';
import { expireTaskResult, runMaintenance, runReconciler } from './deadline-expiry.js';
import { dispatchTaskRequest } from './run-task-dispatch.js';
import { verify } from './verification.js';
import { runAssessment, runStep } from './run-pipeline.js';
import type { Runtime } from '../shared/runtime.js';
import { OUTBOUND_QUEUE_CONCURRENCY } from '../shared/platform/config.js';
import { runTestRun } from './test-runs.js';
import {
  archiveVersion,
  fetchConfiguration,
  pollGitServers,
  publishModuleVersions,
  sendCommitStatuses,
  syncHook,
} from './vcs.js';

/** Processors by queue and job name: every queue's, each typed by the payload of its job name. */
export const PROCESSORS: { readonly [Q in QueueName]: QueueProcessors<Q> } = {
  'notification-delivery': { [JOB.mailDelivery]: deliverMail, [JOB.notify]: deliverNotification },
  'deadline-expiry': {
    [JOB.reconcile]: runReconciler,
    [JOB.maintenance]: runMaintenance,
    [JOB.taskDeadline]: expireTaskResult,
  },
  'run-pipeline': { [JOB.runStep]: runStep, [JOB.assess]: runAssessment },
  'run-task-dispatch': { [JOB.taskDispatch]: dispatchTaskRequest },
  verification: { [JOB.verify]: verify },
  'test-run-execution': { [JOB.testRun]: runTestRun },
  vcs: {
    [JOB.vcsHookSync]: syncHook,
    [JOB.vcsFetch]: fetchConfiguration,
    [JOB.vcsArchive]: archiveVersion,
    [JOB.vcsModuleSync]: publishModuleVersions,
    [JOB.vcsPoll]: pollGitServers,
    [JOB.commitStatus]: sendCommitStatuses,
  },
};

/** Jobs one process runs at once per queue (Terraform runs are CPU-heavy: RUN_CONCURRENCY). */
export function concurrency(rt: Runtime, queue: QueueName): number {
  if (queue === 'run-pipeline' || queue === 'test-run-execution') return rt.config.runConcurrency;
  return queue === 'notification-delivery' ||
    queue === 'run-task-dispatch' ||
    queue === 'verification' ||
    queue === 'vcs'
    ? OUTBOUND_QUEUE_CONCURRENCY
    : 1;
}
