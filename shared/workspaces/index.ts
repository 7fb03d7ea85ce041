// The public face of the workspaces feature (workspaces and their tags), which server and workers call.
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
export {
  deleteWorkspace,
  findWorkspace,
  findWorkspaceByName,
  type WorkspaceRow,
  type WorkspaceSettings,
  lockWorkspaceRow,
  followDefaultExecution,
  setLock,
  clearLock,
  holdingRun,
  updateWorkspace,
} from './repo.js';
export { findTag } from './tags.repo.js';
export { visibleWorkspacesByIds } from './queries.js';
