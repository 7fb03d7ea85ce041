import { hostname } from 'node:os';
import type { Runtime } from './runtime.js';
import { createRedis, type RedisConnection } from './platform/redis.js';
import { createMailer, type Mailer } from './platform/mailer.js';
import { createOutboundClient, type OutboundClient } from './platform/outbound.js';
import { createSandbox, sandboxSettings, type Sandbox } from './platform/sandbox/sandbox.js';
import { RunningPhases } from './platform/terraform/phases.js';
import { SpareShell } from './platform/terraform/phase-process.js';
import type { TerraformSettings } from './platform/terraform/runner.js';
import { deploymentWorkRoot } from './platform/terraform/work-root.js';
import { cliEngines } from './policies/engine.js';
import type { PolicyEngines } from './policies/engines.js';
import { TerraformPreambles } from './runs/engine.js';

/** What a worker process opens beyond the shared runtime: its own Redis connection, the sandbox, Terraform and outbound clients. */
export interface WorkerServices {
  /** The blocking connection BullMQ's workers take jobs on (never the runtime's producer connection). */
  connection: RedisConnection;
  mailer: Mailer;
  /** Identifies this process in rows it settles (host:pid). */
  workerId: string;
  terraform: TerraformSettings;
  /** Where Terraform and policy runtimes run (the same as terraform.sandbox). */
  sandbox: Sandbox;
  /** The OPA and Sentinel CLIs, run in the sandbox. */
  policyEngines: PolicyEngines;
  /** This process's running Terraform phases (stopped by its shutdown when the budget runs out). */
  phases: RunningPhases;
  /** The log preambles of this process's Terraform binaries (see TerraformPreambles). */
  preambles: TerraformPreambles;
  /** The shell kept started ahead of the next unsandboxed phase (see SpareShell). */
  spareShell: SpareShell;
  /** The SSRF-guarded client for user-supplied URLs (deliveries, run task requests). */
  outbound: OutboundClient;
  /** The same guard with the short verification timeouts (VERIFICATION_TIMEOUT_SECONDS, VERIFICATION_CONNECT_TIMEOUT_SECONDS). */
  verifier: OutboundClient;
}

/** Opens a worker process's services, once, from its runtime's configuration. */
export function openWorkerServices(rt: Runtime): WorkerServices {
  const connection = createRedis(rt.config, 'worker');
  connection.on('error', (err) => rt.logger.warn('redis error (worker)', { error: String(err) }));
  const sandbox = createSandbox(sandboxSettings(rt.config));
  return {
    connection,
    mailer: createMailer(rt.config, rt.logger),
    workerId: `${hostname()}:${process.pid}`,
    sandbox,
    policyEngines: cliEngines(rt.config, sandbox),
    phases: new RunningPhases(),
    preambles: new TerraformPreambles(),
    spareShell: new SpareShell(),
    terraform: {
      bin: rt.config.terraformBin,
      cliConfigFile: rt.config.terraformCliConfig,
      sandbox,
      maxArchiveEntries: rt.config.maxArchiveEntries,
      workRoot: deploymentWorkRoot(rt.config),
    },
    outbound: createOutboundClient({ allowedCidrs: rt.config.outboundAllowedCidrs }),
    verifier: createOutboundClient({
      allowedCidrs: rt.config.outboundAllowedCidrs,
      connectTimeoutMs: rt.config.verificationConnectTimeoutSeconds * 1000,
      totalTimeoutMs: rt.config.verificationTimeoutSeconds * 1000,
    }),
  };
}
