import { type Config, SERVICE_PATHS, serviceHostname } from '../platform/config.js';

/** What a run's Terraform gets to reach this API as the run: CLI configuration blocks and environment variables. */
export interface RunServiceAccess {
  /** The host name configurations name this service by (BASE_URL's host, with its port if any). */
  hostname: string;
  /** `host` and `credentials` blocks for the run's CLI configuration file. */
  cliConfig: string;
  /** `TF_TOKEN_<host>`, when the host name can be written as a variable name (not with a port). */
  env: Record<string, string>;
}

/** A string literal of the CLI configuration's syntax. */
const literal = (s: string) => JSON.stringify(s);

/**
 * The environment variable Terraform reads a host's token from (`TF_TOKEN_` and the host name with
 * dots as `_` and hyphens as `__`), or null for a host name it cannot express (one with a port).
 */
export function tokenVariable(hostname: string): string | null {
  if (!/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/.test(hostname)) return null;
  return `TF_TOKEN_${hostname.replace(/-/g, '__').replace(/\./g, '_')}`;
}

/**
 * How a run's Terraform finds this service and authenticates to it with the run's token. The
 * configuration names the service by BASE_URL's host (and by any of SERVICE_HOSTNAMES, e.g. in
 * module sources); a `host` block maps each name to the service URLs under RUN_API_URL (where the
 * sandbox reaches the API, and which may be plain HTTP: service discovery itself needs HTTPS), and
 * a `credentials` block gives the token (also as `TF_TOKEN_<host>` when the host has no port).
 */
export function runServiceAccess(
  config: Pick<Config, 'baseUrl' | 'runApiUrl'> & Partial<Pick<Config, 'serviceHostnames'>>,
  token: string,
): RunServiceAccess {
  const hostname = serviceHostname(config);
  const services = Object.entries(SERVICE_PATHS)
    .map(([id, path]) => `    ${literal(id)} = ${literal(`${config.runApiUrl}${path}`)}`)
    .join('\n');
  const names = [
    hostname,
    ...(config.serviceHostnames ?? []).map((h) => h.toLowerCase()).filter((h) => h !== hostname),
  ];
  const cliConfig = names
    .map(
      (name) =>
        `\nhost ${literal(name)} {\n  services = {\n${services}\n  }\n}\n\ncredentials ${literal(name)} {\n  token = ${literal(token)}\n}\n`,
    )
    .join('');
  const env: Record<string, string> = {};
  for (const name of names) {
    const variable = tokenVariable(name);
    if (variable) env[variable] = token;
  }
  return { hostname, cliConfig, env };
}
