// The public face of the agent-pools feature (agent pools and the workspaces allowed to use them), which server and workers call.
export {
  type AgentPoolInput,
  changeAgentPool,
  createAgentPool,
  removeAgentPool,
  resolveExecution,
} from './commands.js';
export { type AgentPoolRow, findAgentPool } from './repo.js';
