/** VCS connections (TFE's OAuth clients): the providers, what each needs, and the keys a token may carry (pure). */

/** TFE's service-provider values and the names it shows for them. */
export const SERVICE_PROVIDERS = {
  ado_server: 'Azure DevOps Server',
  ado_services: 'Azure DevOps Services',
  bitbucket_data_center: 'Bitbucket Data Center',
  bitbucket_hosted: 'Bitbucket Cloud',
  bitbucket_server: 'Bitbucket Server',
  bitbucket_server_legacy: 'Bitbucket Server (Legacy)',
  github: 'GitHub',
  github_enterprise: 'GitHub Enterprise',
  gitlab_hosted: 'GitLab',
  gitlab_community_edition: 'GitLab Community Edition',
  gitlab_enterprise_edition: 'GitLab Enterprise Edition',
  // Not one of TFE's: any git server reached over http(s) (Gitea, Forgejo, a plain git server),
  // whose webhook is set up by hand with the connection's secret.
  git: 'Git server',
} as const;

export type ServiceProvider = keyof typeof SERVICE_PROVIDERS;

export const isServiceProvider = (value: string): value is ServiceProvider => Object.hasOwn(SERVICE_PROVIDERS, value);

/**
 * The family a provider belongs to: GitHub's and GitLab's APIs and webhook formats, or any other
 * git server's (reached by git alone; GitHub-shaped webhooks with an HMAC signature).
 */
export type ProviderFamily = 'github' | 'gitlab' | 'generic';

export const providerFamily = (provider: string): ProviderFamily =>
  provider.startsWith('github') ? 'github' : provider.startsWith('gitlab') ? 'gitlab' : 'generic';

/** Bitbucket Server and Data Center connect with a consumer key and an RSA key pair instead of a client secret. */
const KEY_PAIR_PROVIDERS: readonly ServiceProvider[] = [
  'bitbucket_server',
  'bitbucket_data_center',
  'bitbucket_server_legacy',
];

/** What a connection looks like once a request's changes are applied, as its rules see it. */
export interface ConnectionShape {
  serviceProvider: ServiceProvider;
  /** The consumer key a request gives (undefined when it gives none). */
  key: string | null | undefined;
  hasPrivateKey: boolean;
  hasSecret: boolean;
}

/** A rule a connection breaks: the attribute and what is wrong with it. */
export interface ConnectionProblem {
  attribute: 'key' | 'private-key' | 'secret';
  message: string;
}

/**
 * The first rule a connection breaks, or null: a key pair provider's consumer key, once given, may
 * not be emptied (TFE takes such a connection without one, to be completed); only Azure DevOps
 * Server takes a private key; a git server's connection needs its webhook's secret.
 */
export function connectionProblem(c: ConnectionShape): ConnectionProblem | null {
  if (KEY_PAIR_PROVIDERS.includes(c.serviceProvider) && c.key !== undefined && !c.key)
    return {
      attribute: 'key',
      message: 'The Consumer Key for BitBucket Server must be present. Please add a value for `key`.',
    };
  if (c.serviceProvider === 'git' && !c.hasSecret)
    return { attribute: 'secret', message: "a git server's connection needs the secret its webhook signs with" };
  if (c.hasPrivateKey && c.serviceProvider !== 'ado_server')
    return { attribute: 'private-key', message: 'Private key is only supported for Azure DevOps Server' };
  return null;
}

/** Terraform Cloud's callback URL and connect path of a connection, under the service's base URL. */
export const callbackUrl = (baseUrl: string, callbackId: string): string => `${baseUrl}/auth/${callbackId}/callback`;
export const connectPath = (callbackId: string, organizationName: string): string =>
  `/auth/${callbackId}?organization_id=${encodeURIComponent(organizationName)}`;

const PRIVATE_KEY_BLOCK =
  /^-----BEGIN ((OPENSSH|RSA|EC|DSA) )?PRIVATE KEY-----\n[\s\S]+\n-----END ((OPENSSH|RSA|EC|DSA) )?PRIVATE KEY-----$/;

/**
 * Whether a token's SSH key is a private key block (git fetches submodules over SSH with it). A
 * token's key must be one: unlike an organization's SSH keys, nothing else is taken.
 */
export const isPrivateKeyBlock = (value: string): boolean =>
  PRIVATE_KEY_BLOCK.test(value.replace(/\r\n?/g, '\n').trim());

/** What a commit status says, in the states the providers' APIs share. */
export type CommitState = 'pending' | 'success' | 'failure' | 'error';

/**
 * The module a repository publishes, from its name as the registry requires it
 * (`terraform-<provider>-<name>`), or null when it is not named so.
 */
export function moduleOfRepository(identifier: string): { provider: string; name: string } | null {
  const match = /^terraform-([a-z0-9]+)-([A-Za-z0-9_-]+)$/.exec(identifier.split('/').pop() ?? '');
  return match ? { provider: match[1], name: match[2] } : null;
}

/** The module version a tag publishes (`v1.2.3` or `1.2.3`), or null for any other tag. */
export const versionOfTag = (tag: string): string | null => /^v?(\d+\.\d+\.\d+)$/.exec(tag)?.[1] ?? null;

/** How often the repositories of git servers are looked at (they send no webhook the service can count on). */
export const POLL_INTERVAL_MS = 60_000;
