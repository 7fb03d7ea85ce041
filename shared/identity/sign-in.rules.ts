import { createHash } from 'node:crypto';

/** The rules of a password a person sets: at least this many characters (code points). */
export const PASSWORD_MIN_LENGTH = 10;
/** Longer passwords are refused (hashing is memory-hard; nobody types more). */
export const PASSWORD_MAX_LENGTH = 1024;

/** What is wrong with a new password, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `password must be at least ${PASSWORD_MIN_LENGTH} characters long`;
  if (length > PASSWORD_MAX_LENGTH) return `password must be at most ${PASSWORD_MAX_LENGTH} characters long`;
  return null;
}

/** The one OAuth client this service knows: the Terraform CLI's `terraform login`. */
/**
 * While an account is under attack (its failed sign-ins from anywhere reached their hourly budget),
 * each client address may fail on it only this many times per hour (instead of its usual budget).
 */
export const UNDER_ATTACK_FAILURES_PER_ADDRESS = 3;

/** Failed sign-ins counted in the current hour (a limit of 0: no limit). */
export interface SignInFailures {
  /** Failures naming this account from this client address, and that budget. */
  fromAddress: number;
  addressLimit: number;
  /** Failures naming this account from anywhere, and that budget. */
  onAccount: number;
  accountLimit: number;
}

/**
 * How many failures naming an account a client address is allowed this hour (null: no limit). Only
 * failures count, and only this address's own failures can use its allowance up: the account-wide
 * count merely lowers every address's allowance while the account is under attack, so others'
 * failures never stop an owner who has not failed (much) from this address.
 */
export function signInAllowance(f: Omit<SignInFailures, 'fromAddress'>): number | null {
  if (f.addressLimit <= 0) return null;
  const underAttack = f.accountLimit > 0 && f.onAccount >= f.accountLimit;
  return underAttack ? Math.min(f.addressLimit, UNDER_ATTACK_FAILURES_PER_ADDRESS) : f.addressLimit;
}

export const TERRAFORM_CLIENT_ID = 'terraform-cli';
/** The local ports `terraform login` listens on for the redirect (it tries them in turn). */
export const TERRAFORM_LOGIN_PORTS: readonly [number, number] = [10000, 10010];

/**
 * Whether a redirect URI is one the Terraform CLI listens on: plain HTTP on the loopback host
 * (`localhost` or `127.0.0.1`), one of its ports, path `/login`, no query, fragment or credentials.
 */
export function isTerraformRedirectUri(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || url.username || url.password || url.search || url.hash) return false;
  if (url.hostname !== 'localhost' && url.hostname !== '127.0.0.1') return false;
  const port = Number(url.port);
  return (
    Number.isInteger(port) &&
    port >= TERRAFORM_LOGIN_PORTS[0] &&
    port <= TERRAFORM_LOGIN_PORTS[1] &&
    url.pathname === '/login'
  );
}

/** PKCE (RFC 7636) verifiers and S256 challenges: 43 to 128 characters of the unreserved set. */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

export const isPkceValue = (value: string): boolean => PKCE_VALUE.test(value);

/** The S256 challenge of a verifier: base64url(SHA-256(verifier)), unpadded. */
export const s256Challenge = (verifier: string): string =>
  createHash('sha256').update(verifier, 'ascii').digest('base64url');

/** Where the CLI's browser is sent back to: the redirect URI with the code and the client's state. */
export function redirectWithCode(redirectUri: string, code: string, state: string | null): string {
  const url = new URL(redirectUri);
  url.searchParams.set('code', code);
  if (state !== null) url.searchParams.set('state', state);
  return url.toString();
}

/** The console page a one-time password link opens: an invitation's or a site admin's reset. */
export const passwordLinkUrl = (baseUrl: string, purpose: 'invitation' | 'reset', secret: string): string =>
  `${baseUrl}/app/${purpose === 'reset' ? 'reset-password' : 'accept-invitation'}?token=${encodeURIComponent(secret)}`;
