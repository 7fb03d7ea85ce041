// The public face of the projects feature (projects and team access to them), which server and workers call.
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
  findTeamProject,
  type ProjectRow,
  type ProjectSettings,
  type TagBinding,
  type TeamProjectRow,
  teamProjectsOf,
} from './repo.js';
