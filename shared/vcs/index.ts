// The public face of the vcs feature (VCS connections, as TFE's OAuth clients, and their tokens; the repositories workspaces follow, their webhooks, fetches and commit statuses), which server and workers call.
export {
  changeClientProjects,
  changeOAuthClient,
  changeOAuthToken,
  createOAuthClient,
  type OAuthClientInput,
  removeOAuthClient,
  removeOAuthToken,
} from './commands.js';
export { findOAuthClient, findOAuthToken, connectionOfToken, type OAuthClientRow, type OAuthTokenRow } from './repo.js';
export { callbackUrl, connectPath, isServiceProvider, SERVICE_PROVIDERS, type ServiceProvider } from './rules.js';
export { syncHooksAfter, vcsRepoSettings, type VcsRepoInput } from './repositories.js';
export { syncRepositoryHook } from './hooks.js';
export { receiveDelivery } from './deliveries.js';
export { archivesDue, fetchesDue } from './repositories.repo.js';
export { registerVcsArchiving } from './archive.js';
export { registerCommitStatuses, sendRunCommitStatuses } from './commit-statuses.js';
export { commitStatusesDue } from './commit-statuses.repo.js';
export { publishModuleFromRepository } from './modules.js';
export { POLL_INTERVAL_MS } from './rules.js';
