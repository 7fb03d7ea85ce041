import { UnrecoverableError, type Job } from 'bullmq';
import type { Runtime } from '../shared/runtime.js';
import type { Mailer } from '../shared/mail.js';
import type { TerraformSettings } from '../shared/terraform/runner.js';
import type { OutboundClient } from '../shared/http/outbound.js';
import type { Sandbox } from '../shared/sandbox/sandbox.js';
import type { OrganizationSlots } from './organization-slots.js';
import type { RunningPhases } from '../shared/terraform/phases.js';

/** Collaborators of job processors. */
export interface WorkerDeps extends Runtime {
  mailer: Mailer;
  /** Identifies this process in rows it settles (host:pid). */
  workerId: string;
  terraform: TerraformSettings;
  /** Where Terraform and policy runtimes run (the same as terraform.sandbox). */
  sandbox: Sandbox;
  /** This process's Terraform slots, shared fairly between organizations. */
  slots: OrganizationSlots;
  /** This process's running Terraform phases (stopped by its shutdown when the budget runs out). */
  phases: RunningPhases;
  /** The one SSRF-guarded client for user-supplied URLs. */
  outbound: OutboundClient;
}

/** One handler per job name; job data is `unknown` until the handler validates it. `token` is the job's lock token. */
export type Processor = (job: Job<unknown>, deps: WorkerDeps, token?: string) => Promise<void>;

/** Reads a string id from job data, or fails the job permanently (BullMQ does not retry it). */
export function idFrom(data: unknown, key: string): string {
  const value = (data as Record<string, unknown> | null)?.[key];
  if (typeof value !== 'string' || !/^[A-Za-z0-9-]{1,100}$/.test(value)) throw new UnrecoverableError(`job data lacks a valid ${key}`);
  return value;
}
