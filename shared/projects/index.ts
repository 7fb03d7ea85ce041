// The public face of the projects feature (projects, team access to them, and the variable and policy sets applied to them), which server and workers call.
export {
  changeProject,
  changeTeamProject,
  createProject,
  grantTeamProject,
  removeProject,
  type TeamProjectRequest,
} from './commands.js';
export {
  defaultProjectOf,
  deleteTeamProject,
  findProject,
  projectIdsIn,
  findTeamProject,
  type ProjectRow,
  type ProjectSettings,
  type TagBinding,
  type TeamProjectRow,
  teamProjectsOf,
  insertProject,
} from './repo.js';
export { applyToProjects, assertProjects, removeFromProjects } from './sets.js';
export {
  applySetToProjects,
  projectIdsBySet,
  type ProjectSetKind,
  setsOfProject,
  setsOfWorkspaceProject,
} from './sets.repo.js';
