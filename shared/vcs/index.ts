// The public face of the vcs feature (VCS connections, as TFE's OAuth clients, and their tokens), which server and workers call.
export {
  changeClientProjects,
  changeOAuthClient,
  changeOAuthToken,
  createOAuthClient,
  type OAuthClientInput,
  removeOAuthClient,
  removeOAuthToken,
} from './commands.js';
export { findOAuthClient, findOAuthToken, type OAuthClientRow, type OAuthTokenRow } from './repo.js';
export { callbackUrl, connectPath, isServiceProvider, SERVICE_PROVIDERS, type ServiceProvider } from './rules.js';
