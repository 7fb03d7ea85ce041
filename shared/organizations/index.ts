// The public face of the organizations feature (organizations and their settings), which server and workers call.
export { changeOrganization, createOrganization } from './commands.js';
export {
  deleteOrganization,
  findOrganization,
  type OrganizationRow,
  type OrganizationSettings,
  withholdsSecretsFromPlanAccess,
} from './repo.js';
