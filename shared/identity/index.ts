// The public face of the identity feature (users, teams, tokens, memberships, team access and sign-in), which server and workers call.
export {
  activeOrganizationsOf,
  findMembership,
  isActiveMemberOfAny,
  type MembershipRow,
  memberUserIds,
  insertMembership,
} from './memberships.repo.js';
export {
  acceptInvitation,
  changeTeamMembers,
  inviteMember,
  type MemberNames,
  removeMembership,
} from './memberships.js';
export { PasswordVerifier } from './passwords.js';
export {
  mayCreateOrganizations,
  type OrganizationCreation,
  permissionsOfTeamWorkspace,
  type TeamWorkspaceAccess,
  WORKSPACE_PERMISSION_FLAGS,
  WORKSPACE_PERMISSION_VALUES,
  type WorkspacePermissions,
} from './permissions.rules.js';
export { findLiveSession, touchSession } from './sign-in.repo.js';
export { signInAllowance } from './sign-in.rules.js';
export {
  authorizeTerraformLogin,
  exchangeAuthorizationCode,
  issueResetLink,
  requestPasswordReset,
  OAuthError,
  openSession,
  setPasswordWithLink,
  signIn,
  signOut,
  sweepSignIn,
  carriesCsrfToken,
  credentialDigest,
} from './sign-in.js';
export { ensureSiteAdmin } from './site-admin.js';
export { deleteTeamWorkspace, findTeamWorkspace, teamWorkspacesOf } from './team-workspaces.repo.js';
export { changeTeamWorkspace, grantTeamWorkspace, type TeamWorkspaceRequest } from './team-workspaces.js';
export { deleteTeam, findTeam, teamMembers, type TeamRow, addTeamMembers, insertTeam } from './teams.repo.js';
export { changeTeam, createTeam, type TeamColumns } from './teams.js';
export {
  deleteToken,
  findLiveTokenWithOwner,
  findToken,
  issueToken,
  type LiveTokenRow,
  runOfTaskAccessToken,
  singleToken,
  TEAM_TOKEN_SORTS,
  teamTokensOfOrganization,
  type TeamTokenSort,
  tokenLookupWith,
  type TokenRow,
  tokensOfTeam,
  tokensOfUser,
  touchToken,
  RUN_TOKEN_INSERT,
  type NewRunToken,
  newRunToken,
  revokeRunToken,
} from './tokens.repo.js';
export { issueDescribedTeamToken, replaceToken } from './tokens.js';
export { findUserByEmail, findUserById, type UserRow } from './users.repo.js';
export { createUser, createUserFromProvider, setUserSuspended, updateOwnAccount } from './users.js';
export { syncTeamsWithGroups, type TeamChanges } from './group-teams.js';
export {
  grantedRead,
  type GrantedRead,
  projectAccessMap,
  seesAllProjects,
  type OrganizationGrant,
  type ProjectAccess,
  workspaceAccessMap,
  type WorkspaceAccess,
  allows,
  grantedReadWhere,
} from './access.queries.js';
