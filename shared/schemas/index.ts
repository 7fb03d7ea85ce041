import { foundationSchemas } from './foundation.js';
import { configurationVersionSchemas } from './configuration-versions.js';
import { runSchemas } from './runs.js';
import { runTaskSchemas } from './run-tasks.js';
import { notificationSchemas } from './notifications.js';
import { moduleTestSchemas } from './module-tests.js';
import { policySchemas } from './policies.js';
import { variableSchemas } from './variables.js';
import { stateVersionSchemas } from './state-versions.js';
import { signInSchemas } from './sign-in.js';
import { runTriggerSchemas } from './run-triggers.js';
import { projectSchemas } from './projects.js';
import { policyToolSchemas } from './policy-tools.js';
import { agentPoolSchemas } from './agent-pools.js';
import { dataRetentionPolicySchemas } from './data-retention-policies.js';
import { sshKeySchemas } from './ssh-keys.js';
import { vcsSchemas } from './vcs.js';
import { noCodeModuleSchemas } from './no-code-modules.js';

/** Every request body schema, by name; each later area adds its own map here. */
export const schemas = {
  ...foundationSchemas,
  ...configurationVersionSchemas,
  ...runSchemas,
  ...runTaskSchemas,
  ...notificationSchemas,
  ...moduleTestSchemas,
  ...policySchemas,
  ...variableSchemas,
  ...stateVersionSchemas,
  ...signInSchemas,
  ...runTriggerSchemas,
  ...projectSchemas,
  ...policyToolSchemas,
  ...agentPoolSchemas,
  ...dataRetentionPolicySchemas,
  ...sshKeySchemas,
  ...vcsSchemas,
  ...noCodeModuleSchemas,
} as const;
export type SchemaName = keyof typeof schemas;
