// The public face of single sign-on (OpenID Connect providers, accounts they sign in, teams from their groups).
export {
  callbackUrlOf,
  finishProviderSignIn,
  ProviderSignInRefused,
  providerNamed,
  startProviderSignIn,
  type ProviderSignedIn,
} from './sign-in.js';
export { deleteEndedSignInRequests } from './repo.js';
