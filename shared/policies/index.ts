// The public face of the policies feature (policies, policy sets, their versions, parameters, tool versions and checks), which server and workers call.
export { overridableNow } from './checks.machine.js';
export { checksOfRun, type PolicyCheckRow } from './checks.repo.js';
export { overridePolicyCheck } from './checks.js';
export { stageOverridableNow } from './evaluations.machine.js';
export {
  excludedIdsBySet,
  findPolicy,
  findPolicySet,
  policyCode,
  policyIdsBySet,
  type PolicyRow,
  type PolicySetRow,
  setIdsByPolicy,
  storePolicyCode,
  updatePolicy,
  workspaceIdsBySet,
} from './repo.js';
export {
  MAX_POLICY_CODE_BYTES,
  POLICY_KINDS,
  type PolicyKind,
  policyPath,
  type Problem,
  settlePolicy,
} from './rules.js';
export { findParameter, parametersOf } from './set-parameters.repo.js';
export { changeParameter, createParameter, type ParameterInput, removeParameter } from './set-parameters.js';
export {
  findPolicySetVersion,
  policySetVersionOrganization,
  type PolicySetVersionSummary,
} from './set-versions.repo.js';
export { acceptPolicySetVersionUpload, createPolicySetVersion } from './set-versions.js';
export {
  changePolicySet,
  changeSetMembers,
  createPolicy,
  createPolicySet,
  globalHasNoWorkspaces,
  removePolicy,
  removePolicySet,
  type SetMembership,
} from './sets.js';
export { overrideTaskStage } from './stage-evaluations.js';
export { defaultBuild } from './tool-versions.rules.js';
export {
  changeToolVersion,
  createToolVersion,
  removeToolVersion,
  type ToolVersionInput,
  toolVersionOf,
} from './tool-versions.js';
export { runsWithQueuedEvaluations } from './evaluations.repo.js';
export { registerPolicyChecks } from './checks.js';
export { stageEvaluations } from './stage-evaluations.js';
