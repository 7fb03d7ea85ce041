// The public face of the workspaces feature (workspaces, their locks, tags, assessments and auto-destroy), which server and workers call.
export { sweepAutoDestroy } from './auto-destroy.js';
export {
  addWorkspaceTags,
  changeWorkspace,
  createWorkspace,
  deleteOrganizationTags,
  removeWorkspaceTags,
  safeDeleteWorkspace,
  type TagRef,
  tagWorkspaces,
} from './commands.js';
export { lockWorkspace, unlockWorkspace } from './locks.js';
export {
  deleteWorkspace,
  findWorkspace,
  findWorkspaceByName,
  type WorkspaceRow,
  type WorkspaceSettings,
} from './repo.js';
export { findTag } from './tags.repo.js';
