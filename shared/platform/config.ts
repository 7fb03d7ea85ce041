import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { Ajv } from 'ajv';
import { normalCidr } from './cidr.js';
import type { OrganizationCreation } from '../identity/permissions.rules.js';

/** Editions restrict features (docs/decisions.md, "Editions"). */
export type Edition = 'self-hosted' | 'free' | 'standard';

export interface Config {
  readonly env: 'development' | 'production' | 'test';
  readonly port: number;
  /** The web process's certificate and key files (PEM): it then serves https on its port itself (null: plain http). */
  readonly tls: { readonly certFile: string; readonly keyFile: string } | null;
  readonly baseUrl: string;
  readonly uploadUrl: string;
  /**
   * The API's base URL as runs' sandboxes reach it (RUN_API_URL, default BASE_URL): the service
   * URLs of a run's CLI configuration and the state download URLs a run token is given.
   */
  readonly runApiUrl: string;
  /**
   * Other host names configurations may name this service by (SERVICE_HOSTNAMES, comma-separated),
   * e.g. in module sources: a run's CLI configuration maps each to the service, as BASE_URL's host.
   */
  readonly serviceHostnames: readonly string[];
  readonly databaseUrl: string;
  /** Statements each database connection keeps prepared (0: none, as a transaction-pooling PgBouncer needs). */
  readonly databasePreparedStatements: number;
  /** Connections of this process's database pool (default: RUN_CONCURRENCY + 6, at least 10). */
  readonly databasePoolMax: number;
  /** Where the process LISTENs for notifications (a session: not through a transaction-pooling PgBouncer); default DATABASE_URL. */
  readonly databaseListenUrl: string;
  readonly redisUrl: string;
  /** Seed nodes (host:port) of a Redis Cluster; when set, it is used instead of REDIS_URL. */
  readonly redisClusterNodes: readonly string[];
  /** Password of the Redis Cluster's nodes (a single node's goes in REDIS_URL). */
  readonly redisPassword: string | null;
  readonly queuePrefix: string;
  readonly encryptionKey: Buffer;
  readonly siteAdminToken: string | null;
  readonly outboundAllowedCidrs: readonly string[];
  readonly edition: Edition;
  readonly logLevel: string;
  readonly smtpUrl: string | null;
  readonly mailFrom: string;
  readonly reconcileIntervalMs: number;
  readonly shutdownBudgetMs: number;
  /** Largest configuration archive accepted, in bytes. */
  readonly maxArchiveBytes: number;
  readonly uploadUrlTtlSeconds: number;
  readonly downloadUrlTtlSeconds: number;
  readonly logUrlTtlSeconds: number;
  /** Archive API-created configuration versions older than this many days (0: never). */
  readonly cvGcAfterDays: number;
  /** Remove finished runs' logs and events, settled notification deliveries and delivery attempts older than this many days (0: keep them). */
  readonly retentionDays: number;
  /** How often the sweep enforces the organizations' and workspaces' data retention policies (0: never). */
  readonly dataRetentionIntervalSeconds: number;
  /** State versions, and configuration versions, whose backing data one pass of the data retention policies deletes at most. */
  readonly dataRetentionBatchSize: number;
  readonly terraformBin: string;
  /** Operator CLI configuration for Terraform (e.g. a provider mirror). */
  readonly terraformCliConfig: string | null;
  /** A worker renews its lease on a running plan or apply; past it, the run counts as abandoned. */
  readonly runLeaseSeconds: number;
  /** Where a worker keeps the state an apply wrote when it cannot store it in the database. */
  readonly stateRecoveryDir: string;
  /** How long storing an apply's state is tried again while the database cannot be reached, before it is kept on disk. */
  readonly stateSaveRetrySeconds: number;
  readonly forceCancelCoolOffSeconds: number;
  /** Plans and applies one worker process runs at once. */
  readonly runConcurrency: number;
  /** A module test run still running after this long is interrupted and errored. */
  readonly testRunTimeoutSeconds: number;
  /** A run task result with no final callback this long after it was triggered is errored. */
  readonly runTaskDeadlineSeconds: number;
  /** Names the service in the run task request's User-Agent. */
  readonly runTaskAgentName: string;
  /** How often workspaces with assessments enabled are assessed. */
  readonly assessmentIntervalSeconds: number;
  /** The OPA binary policy checks run (a name on PATH or a path). */
  readonly opaPath: string;
  /** The Sentinel binary policy checks run (a name on PATH or a path). */
  readonly sentinelPath: string;
  /** One policy's evaluation is killed (and errored) past this. */
  readonly policyEvalTimeoutSeconds: number;
  /** How Terraform and policy runtimes are isolated: `bwrap` (bubblewrap) or `none` (unsafe, development only). */
  readonly runSandbox: 'bwrap' | 'none';
  /** The network a run's sandbox gets: `egress` (outbound, but not to this host or private ranges) or `isolated` (none). */
  readonly runNetwork: 'egress' | 'isolated';
  /** Blocked destinations a run's sandbox may reach all the same in `egress` mode. */
  readonly runNetworkAllowedCidrs: readonly string[];
  /** Host paths made visible read-only in every sandbox (e.g. a provider mirror). */
  readonly runSandboxReadonlyPaths: readonly string[];
  /** A worker running as root runs each sandbox as its own user id, from this base on. */
  readonly runSandboxUidBase: number;
  /** How the kernel schedules what runs in a sandbox: `idle` (SCHED_IDLE, only when nothing else wants the core) or `normal` (the worker's own priority). */
  readonly runCpuScheduling: 'idle' | 'normal';
  /** Wall-clock limits of a plan and an apply, and the grace between the interrupt and the kill. */
  readonly runPlanTimeoutSeconds: number;
  readonly runApplyTimeoutSeconds: number;
  readonly runTimeoutGraceSeconds: number;
  /** Memory of one sandbox's processes together (its cgroup), in MiB; without a cgroup, the address space of each process. */
  readonly runMemoryLimitMb: number;
  /** Processes and threads of one sandbox. */
  readonly runProcessLimit: number;
  /** Size of a run's working directory, in MiB; its /tmp and /dev/shm together are as large at most. */
  readonly runDiskLimitMb: number;
  /** Whether each sandbox gets a cgroup bounding it as a whole: `auto` (when the host allows), `required` (runs refused otherwise) or `off`. */
  readonly runCgroups: 'auto' | 'required' | 'off';
  /** The CPU weight of a sandbox's cgroup (cgroup v2 cpu.weight: 1-10000, 100 as any other). */
  readonly runCpuWeight: number;
  /** The most entries a configuration archive may unpack to. */
  readonly maxArchiveEntries: number;
  /** Run-pipeline slots of one worker process that one organization may hold at once. */
  readonly runSlotsPerOrganization: number;
  /** Speculative runs of one workspace that may wait to be planned at once. */
  readonly maxQueuedSpeculativeRuns: number;
  /** Request bodies (archives, policy code) one web process takes in at once, in all and per organization. */
  readonly maxConcurrentUploads: number;
  readonly maxConcurrentUploadsPerOrganization: number;
  /** Uploads one user, and one client address, may have under way at once across every web process (0: no limit). */
  readonly maxConcurrentUploadsPerUser: number;
  readonly maxConcurrentUploadsPerAddress: number;
  /** An upload whose client falls behind this many bytes a second by more than the grace is ended (0: no minimum). */
  readonly uploadMinBytesPerSecond: number;
  readonly uploadRateGraceSeconds: number;
  /** Who may create organizations: any user, or site admins only. */
  readonly organizationCreation: OrganizationCreation;
  /** Authenticated API requests one token may make per second (0: no limit). */
  readonly rateLimitPerSecond: number;
  /** Configuration versions one token may create per minute (0: no limit). */
  readonly rateLimitConfigurationVersionsPerMinute: number;
  /** Verifications (notification configurations, run tasks) sent to one destination host per minute, whoever asks (0: no limit). */
  readonly rateLimitVerificationsPerHostPerMinute: number;
  /** Verifications of one destination host waiting for their answer at once (0: no limit). */
  readonly maxConcurrentVerificationsPerHost: number;
  /** Invitations one token may send per minute (0: no limit). */
  readonly rateLimitInvitationsPerMinute: number;
  /** Invitations one organization may send per hour, whoever sends them (0: no limit). */
  readonly rateLimitInvitationsPerHour: number;
  /** Sign-in attempts (and password link uses) one client address may make per minute (0: no limit). */
  readonly rateLimitSignInPerMinute: number;
  /** Failed sign-ins naming one account per hour, from anywhere: past it the account is under attack (0: no limit; docs/security.md "Sign-in"). */
  readonly rateLimitSignInPerAccountPerHour: number;
  /** Failed sign-ins naming one account from one client address per hour (0: no limit). */
  readonly rateLimitSignInFailuresPerHour: number;
  /** Requests with a token (API, registry) or password (queue board) that fails to authenticate, per client address per minute (0: no limit). */
  readonly rateLimitAuthFailuresPerMinute: number;
  /**
   * Which proxies' X-Forwarded-For the service believes (Express's 'trust proxy'): false (none, the
   * default: the client address is the socket's peer), a hop count, or proxy addresses/CIDRs.
   */
  readonly trustProxy: false | number | readonly string[];
  /** How long a console session lasts from sign-in. */
  readonly sessionTtlSeconds: number;
  /** How long a site admin's password reset link stays usable. */
  readonly passwordResetTtlSeconds: number;
  /** How long an invitation's link stays usable to set a password. */
  readonly invitationTtlSeconds: number;
  /** Total time one verification request may take (the API waits this plus VERIFICATION_QUEUE_MARGIN_MS). */
  readonly verificationTimeoutSeconds: number;
  /** Time a verification request may take to connect (at most the total). */
  readonly verificationConnectTimeoutSeconds: number;
  /** Jobs of one organization a worker process runs at once, per queue (of OUTBOUND_QUEUE_CONCURRENCY). */
  readonly verificationSlotsPerOrganization: number;
  readonly taskDispatchSlotsPerOrganization: number;
  readonly deliverySlotsPerOrganization: number;
  /** A worker's lease on an outbound request it claimed (verification, run task request, notification); past it, another worker may take the request over. */
  readonly outboundLeaseSeconds: number;
  /** Largest JSON plan (`terraform show -json`) stored, in bytes; a larger one is not stored (the plan still finishes). */
  readonly maxPlanJsonBytes: number;
  /** Largest plan, apply or test log stored, in bytes; a longer log is cut there, with a last line saying so. */
  readonly maxLogBytes: number;
  /** Bearer token a Prometheus scrape must send (null: the web process serves no /metrics; see METRICS_PORT). */
  readonly metricsToken: string | null;
  /** Port of this process's own metrics listener (null: none). */
  readonly metricsPort: number | null;
  /** Address the metrics listener binds (an internal one; loopback by default). */
  readonly metricsHost: string;
  /** The OpenID Connect providers people may sign in with (OIDC_PROVIDERS_FILE or OIDC_PROVIDERS). */
  readonly oidcProviders: readonly OidcProvider[];
  /** Who may sign in with a password: everyone, or only site admins once sign-in goes through providers (break-glass). */
  readonly passwordSignIn: 'everyone' | 'site-admins';
}

/** An OpenID Connect provider, as the operator configures it. */
export interface OidcProvider {
  /** Its name in URLs (`/api/console/sso/<name>/start`): lower-case letters, digits and dashes. */
  readonly name: string;
  /** What the sign-in page calls it ("Sign in with <label>"). */
  readonly label: string;
  readonly issuer: string;
  readonly clientId: string;
  /** null: a public client (PKCE alone). */
  readonly clientSecret: string | null;
  readonly scopes: readonly string[];
  /** The ID token claim a new account's username comes from. */
  readonly usernameClaim: string;
  /** The claim that lists the person's groups (null: no team sync). */
  readonly groupsClaim: string | null;
  /** Whether a first sign-in may take over an existing account with the same, verified, email. */
  readonly linkByEmail: boolean;
  /** The organizations whose teams follow this provider's groups (none: its groups change no team). */
  readonly teamOrganizations: readonly string[];
}

/** Jobs one worker process runs at once on each queue that calls user-supplied URLs (verification, run-task-dispatch, notification-delivery). */
export const OUTBOUND_QUEUE_CONCURRENCY = 8;

/**
 * How long the API waits for a verification beyond the request's own timeout: the job's time in
 * the queue (its organization's share may be busy; it is tried again within a second).
 */
export const VERIFICATION_QUEUE_MARGIN_MS = 5_000;

/** How long the API waits for the outcome of a verification it asked for. */
export const verificationWaitMs = (config: Pick<Config, 'verificationTimeoutSeconds'>): number =>
  config.verificationTimeoutSeconds * 1000 + VERIFICATION_QUEUE_MARGIN_MS;

/**
 * The shortest SITE_ADMIN_TOKEN accepted: it opens everything, and unlike generated tokens it is
 * chosen by a person, so it must at least not be guessable by trying.
 */
export const SITE_ADMIN_TOKEN_MIN_LENGTH = 16;

const schema = {
  type: 'object',
  properties: {
    NODE_ENV: { enum: ['development', 'production', 'test'] },
    PORT: { type: 'string', pattern: '^[0-9]{1,5}$' },
    TLS_CERT_FILE: { type: 'string', minLength: 1 },
    TLS_KEY_FILE: { type: 'string', minLength: 1 },
    BASE_URL: { type: 'string', pattern: '^https?://[^\\s]+$' },
    UPLOAD_URL: { type: 'string', pattern: '^https?://[^\\s]+$' },
    RUN_API_URL: { type: 'string', pattern: '^https?://[^\\s]+$' },
    SERVICE_HOSTNAMES: { type: 'string', pattern: '^[A-Za-z0-9.:, -]*$' },
    DATABASE_URL: { type: 'string', pattern: '^postgres(ql)?://' },
    DATABASE_PREPARED_STATEMENTS: { type: 'string', pattern: '^[0-9]{1,5}$' },
    DATABASE_POOL_MAX: { type: 'string', pattern: '^[1-9][0-9]{0,3}$' },
    DATABASE_LISTEN_URL: { type: 'string', pattern: '^postgres(ql)?://' },
    REDIS_URL: { type: 'string', pattern: '^rediss?://' },
    REDIS_CLUSTER_NODES: { type: 'string', pattern: '^[^\\s,:]+:[0-9]{1,5}( *, *[^\\s,:]+:[0-9]{1,5})*$' },
    REDIS_PASSWORD: { type: 'string', minLength: 1 },
    QUEUE_PREFIX: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,40}$' },
    ENCRYPTION_KEY: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' },
    SITE_ADMIN_TOKEN: { type: 'string', minLength: SITE_ADMIN_TOKEN_MIN_LENGTH },
    OUTBOUND_ALLOWED_CIDRS: { type: 'string', pattern: '^[0-9a-fA-F:./, ]*$' },
    EDITION: { enum: ['self-hosted', 'free', 'standard'] },
    LOG_LEVEL: { enum: ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly'] },
    SMTP_URL: { type: 'string', pattern: '^smtps?://' },
    MAIL_FROM: { type: 'string', minLength: 3 },
    RECONCILE_INTERVAL_MS: { type: 'string', pattern: '^[0-9]{3,9}$' },
    SHUTDOWN_BUDGET_MS: { type: 'string', pattern: '^[0-9]{1,9}$' },
    MAX_ARCHIVE_BYTES: { type: 'string', pattern: '^[0-9]{1,12}$' },
    UPLOAD_URL_TTL_SECONDS: { type: 'string', pattern: '^[0-9]{1,7}$' },
    DOWNLOAD_URL_TTL_SECONDS: { type: 'string', pattern: '^[0-9]{1,7}$' },
    LOG_URL_TTL_SECONDS: { type: 'string', pattern: '^[0-9]{1,7}$' },
    CV_GC_AFTER_DAYS: { type: 'string', pattern: '^[0-9]{1,5}$' },
    RETENTION_DAYS: { type: 'string', pattern: '^[0-9]{1,5}$' },
    DATA_RETENTION_INTERVAL_SECONDS: { type: 'string', pattern: '^[0-9]{1,7}$' },
    DATA_RETENTION_BATCH_SIZE: { type: 'string', pattern: '^[1-9][0-9]{0,4}$' },
    TERRAFORM_BIN: { type: 'string', minLength: 1 },
    TERRAFORM_CLI_CONFIG: { type: 'string', minLength: 1 },
    RUN_LEASE_SECONDS: { type: 'string', pattern: '^[0-9]{1,5}$' },
    STATE_RECOVERY_DIR: { type: 'string', minLength: 1 },
    STATE_SAVE_RETRY_SECONDS: { type: 'string', pattern: '^[0-9]{1,4}$' },
    FORCE_CANCEL_COOLOFF_SECONDS: { type: 'string', pattern: '^[0-9]{1,6}$' },
    RUN_CONCURRENCY: { type: 'string', pattern: '^[1-9][0-9]{0,2}$' },
    TEST_RUN_TIMEOUT_SECONDS: { type: 'string', pattern: '^[1-9][0-9]{0,5}$' },
    RUN_TASK_DEADLINE_SECONDS: { type: 'string', pattern: '^[1-9][0-9]{0,5}$' },
    RUN_TASK_AGENT_NAME: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,40}$' },
    ASSESSMENT_INTERVAL_SECONDS: { type: 'string', pattern: '^[1-9][0-9]{0,6}$' },
    OPA_PATH: { type: 'string', minLength: 1 },
    SENTINEL_PATH: { type: 'string', minLength: 1 },
    POLICY_EVAL_TIMEOUT_SECONDS: { type: 'string', pattern: '^[1-9][0-9]{0,4}$' },
    RUN_SANDBOX: { enum: ['bwrap', 'none'] },
    RUN_NETWORK: { enum: ['egress', 'isolated'] },
    RUN_NETWORK_ALLOWED_CIDRS: { type: 'string', pattern: '^[0-9a-fA-F:./, ]*$' },
    RUN_SANDBOX_READONLY_PATHS: { type: 'string', pattern: '^(/[^:]*[^:/][^:]*)(:/[^:]*[^:/][^:]*)*$' },
    RUN_SANDBOX_UID_BASE: { type: 'string', pattern: '^[1-9][0-9]{3,9}$' },
    RUN_CPU_SCHEDULING: { enum: ['idle', 'normal'] },
    RUN_PLAN_TIMEOUT_SECONDS: { type: 'string', pattern: '^[1-9][0-9]{0,5}$' },
    RUN_APPLY_TIMEOUT_SECONDS: { type: 'string', pattern: '^[1-9][0-9]{0,5}$' },
    RUN_TIMEOUT_GRACE_SECONDS: { type: 'string', pattern: '^[0-9]{1,4}$' },
    RUN_MEMORY_LIMIT_MB: { type: 'string', pattern: '^[1-9][0-9]{1,6}$' },
    RUN_PROCESS_LIMIT: { type: 'string', pattern: '^[1-9][0-9]{1,5}$' },
    RUN_DISK_LIMIT_MB: { type: 'string', pattern: '^[1-9][0-9]{0,7}$' },
    RUN_CGROUPS: { enum: ['auto', 'required', 'off'] },
    RUN_CPU_WEIGHT: { type: 'string', pattern: '^([1-9][0-9]{0,3}|10000)$' },
    MAX_ARCHIVE_ENTRIES: { type: 'string', pattern: '^[1-9][0-9]{0,7}$' },
    RUN_SLOTS_PER_ORGANIZATION: { type: 'string', pattern: '^[1-9][0-9]{0,2}$' },
    MAX_QUEUED_SPECULATIVE_RUNS: { type: 'string', pattern: '^[1-9][0-9]{0,4}$' },
    MAX_CONCURRENT_UPLOADS: { type: 'string', pattern: '^[1-9][0-9]{0,3}$' },
    MAX_CONCURRENT_UPLOADS_PER_ORGANIZATION: { type: 'string', pattern: '^[1-9][0-9]{0,3}$' },
    MAX_CONCURRENT_UPLOADS_PER_USER: { type: 'string', pattern: '^[0-9]{1,4}$' },
    MAX_CONCURRENT_UPLOADS_PER_ADDRESS: { type: 'string', pattern: '^[0-9]{1,4}$' },
    UPLOAD_MIN_BYTES_PER_SECOND: { type: 'string', pattern: '^[0-9]{1,9}$' },
    UPLOAD_RATE_GRACE_SECONDS: { type: 'string', pattern: '^[1-9][0-9]{0,4}$' },
    ORGANIZATION_CREATION: { enum: ['anyone', 'site-admins'] },
    RATE_LIMIT_PER_SECOND: { type: 'string', pattern: '^[0-9]{1,7}$' },
    RATE_LIMIT_CONFIGURATION_VERSIONS_PER_MINUTE: { type: 'string', pattern: '^[0-9]{1,7}$' },
    RATE_LIMIT_VERIFICATIONS_PER_HOST_PER_MINUTE: { type: 'string', pattern: '^[0-9]{1,7}$' },
    MAX_CONCURRENT_VERIFICATIONS_PER_HOST: { type: 'string', pattern: '^[0-9]{1,4}$' },
    RATE_LIMIT_INVITATIONS_PER_MINUTE: { type: 'string', pattern: '^[0-9]{1,7}$' },
    RATE_LIMIT_INVITATIONS_PER_HOUR: { type: 'string', pattern: '^[0-9]{1,7}$' },
    RATE_LIMIT_SIGN_IN_PER_MINUTE: { type: 'string', pattern: '^[0-9]{1,7}$' },
    RATE_LIMIT_SIGN_IN_PER_ACCOUNT_PER_HOUR: { type: 'string', pattern: '^[0-9]{1,7}$' },
    RATE_LIMIT_SIGN_IN_FAILURES_PER_HOUR: { type: 'string', pattern: '^[0-9]{1,7}$' },
    RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: { type: 'string', pattern: '^[0-9]{1,7}$' },
    TRUST_PROXY: { type: 'string', maxLength: 4000 },
    SESSION_TTL_SECONDS: { type: 'string', pattern: '^[1-9][0-9]{0,7}$' },
    PASSWORD_RESET_TTL_SECONDS: { type: 'string', pattern: '^[1-9][0-9]{0,7}$' },
    INVITATION_TTL_SECONDS: { type: 'string', pattern: '^[1-9][0-9]{0,7}$' },
    VERIFICATION_TIMEOUT_SECONDS: { type: 'string', pattern: '^[1-9][0-9]{0,1}$' },
    VERIFICATION_CONNECT_TIMEOUT_SECONDS: { type: 'string', pattern: '^[1-9][0-9]{0,1}$' },
    VERIFICATION_SLOTS_PER_ORGANIZATION: { type: 'string', pattern: '^[1-9][0-9]{0,2}$' },
    TASK_DISPATCH_SLOTS_PER_ORGANIZATION: { type: 'string', pattern: '^[1-9][0-9]{0,2}$' },
    DELIVERY_SLOTS_PER_ORGANIZATION: { type: 'string', pattern: '^[1-9][0-9]{0,2}$' },
    OUTBOUND_LEASE_SECONDS: { type: 'string', pattern: '^[1-9][0-9]{0,4}$' },
    MAX_PLAN_JSON_BYTES: { type: 'string', pattern: '^[1-9][0-9]{0,11}$' },
    MAX_LOG_BYTES: { type: 'string', pattern: '^[1-9][0-9]{0,11}$' },
    METRICS_TOKEN: { type: 'string', minLength: 16 },
    METRICS_PORT: { type: 'string', pattern: '^[0-9]{1,5}$' },
    METRICS_HOST: { type: 'string', pattern: '^[0-9A-Za-z.:_-]{1,255}$' },
    OIDC_PROVIDERS: { type: 'string', minLength: 2 },
    OIDC_PROVIDERS_FILE: { type: 'string', minLength: 1 },
    PASSWORD_SIGN_IN: { enum: ['everyone', 'site-admins'] },
  },
} as const;

/** Raised when the environment is invalid; the message names every bad variable. */
export class ConfigError extends Error {}

function devEncryptionKey(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const key = randomBytes(32).toString('hex');
  writeFileSync(file, key + '\n', { mode: 0o600 });
  return key;
}

/** Express's names for address ranges it knows ('trust proxy'). */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One trusted proxy entry: an address, an address/prefix, or one of Express's range names. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const slash = entry.indexOf('/');
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (!family) return false;
  if (slash < 0) return true;
  const prefix = entry.slice(slash + 1);
  return /^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: unset, "false" or "0": trust no proxy; a hop count; or comma-separated addresses,
 * CIDRs and range names. A string answer is the problem with the value.
 */
function parseTrustProxy(value: string | undefined): { trust: Config['trustProxy'] } | { problem: string } {
  const text = (value ?? '').trim();
  if (text === '' || text === 'false' || text === '0') return { trust: false };
  if (/^[0-9]{1,2}$/.test(text)) return { trust: Number(text) };
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.filter((e) => !isProxyEntry(e));
  if (bad.length || !entries.length)
    return {
      problem: `not a hop count nor proxy addresses/CIDRs (${bad.join(', ') || text}); "true" (trust every hop) is not accepted`,
    };
  return { trust: Object.freeze(entries) };
}

const providerSchema = {
  type: 'array',
  maxItems: 20,
  items: {
    type: 'object',
    required: ['name', 'issuer', 'clientId'],
    additionalProperties: false,
    properties: {
      name: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,39}$' },
      label: { type: 'string', minLength: 1, maxLength: 100 },
      issuer: { type: 'string', pattern: '^https?://[^\\s]+$' },
      clientId: { type: 'string', minLength: 1, maxLength: 500 },
      clientSecret: { type: 'string', minLength: 1, maxLength: 2000 },
      clientSecretFile: { type: 'string', minLength: 1 },
      scopes: { type: 'array', maxItems: 20, items: { type: 'string', pattern: '^[!#-\\[\\]-~]+$' } },
      usernameClaim: { type: 'string', minLength: 1, maxLength: 100 },
      groupsClaim: { oneOf: [{ type: 'null' }, { type: 'string', minLength: 1, maxLength: 100 }] },
      linkByEmail: { type: 'boolean' },
      teamOrganizations: { type: 'array', maxItems: 1000, items: { type: 'string', minLength: 1 } },
    },
  },
} as const;

/**
 * The OIDC providers of OIDC_PROVIDERS_FILE (a JSON file) or OIDC_PROVIDERS (the same JSON inline):
 * a list of {name, label, issuer, clientId, clientSecret or clientSecretFile, scopes, usernameClaim,
 * groupsClaim, linkByEmail, teamOrganizations}. Plain http is accepted only for an issuer on loopback (tests, a local IdP).
 */
function parseOidcProviders(env: Record<string, string>): { providers: OidcProvider[] } | { problem: string } {
  let text = env.OIDC_PROVIDERS;
  if (env.OIDC_PROVIDERS_FILE) {
    try {
      text = readFileSync(resolve(env.OIDC_PROVIDERS_FILE), 'utf8');
    } catch (err) {
      return { problem: `OIDC_PROVIDERS_FILE cannot be read: ${(err as Error).message}` };
    }
  }
  if (!text) return { providers: [] };
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    return { problem: 'OIDC providers: not JSON' };
  }
  const validate = new Ajv({ allErrors: true }).compile(providerSchema);
  if (!validate(list))
    return {
      problem: `OIDC providers: ${(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).join(', ')}`,
    };
  const providers: OidcProvider[] = [];
  for (const p of list as Record<string, unknown>[]) {
    const issuer = new URL(String(p.issuer));
    if (issuer.protocol === 'http:' && !['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname))
      return { problem: `OIDC provider ${String(p.name)}: the issuer must be https (http only on loopback)` };
    let secret = typeof p.clientSecret === 'string' ? p.clientSecret : null;
    if (typeof p.clientSecretFile === 'string') {
      try {
        secret = readFileSync(resolve(p.clientSecretFile), 'utf8').trim();
      } catch (err) {
        return {
          problem: `OIDC provider ${String(p.name)}: clientSecretFile cannot be read: ${(err as Error).message}`,
        };
      }
    }
    providers.push(
      Object.freeze({
        name: String(p.name),
        label: typeof p.label === 'string' ? p.label : String(p.name),
        issuer: String(p.issuer),
        clientId: String(p.clientId),
        clientSecret: secret,
        scopes: Object.freeze(Array.isArray(p.scopes) ? (p.scopes as string[]) : ['openid', 'profile', 'email']),
        usernameClaim: typeof p.usernameClaim === 'string' ? p.usernameClaim : 'preferred_username',
        groupsClaim: p.groupsClaim === null ? null : typeof p.groupsClaim === 'string' ? p.groupsClaim : 'groups',
        linkByEmail: p.linkByEmail === true,
        teamOrganizations: Object.freeze(Array.isArray(p.teamOrganizations) ? (p.teamOrganizations as string[]) : []),
      }),
    );
  }
  if (new Set(providers.map((p) => p.name)).size !== providers.length)
    return { problem: 'OIDC providers: two providers have the same name' };
  return { providers };
}

/** Reads, validates and freezes configuration from an environment map. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset so `FOO= npm start` behaves like no FOO at all.
  const env: Record<string, string> = {};
  for (const key of Object.keys(schema.properties)) {
    const value = source[key];
    if (value !== undefined && value !== '') env[key] = value;
  }
  const validate = new Ajv({ allErrors: true }).compile(schema);
  const problems: string[] = [];
  if (!validate(env)) {
    for (const e of validate.errors ?? []) problems.push(`${e.instancePath.slice(1)} ${e.message}`);
  }
  const mode = (env.NODE_ENV ?? 'development') as Config['env'];
  if (mode === 'production' && !env.ENCRYPTION_KEY) problems.push('ENCRYPTION_KEY is required in production');
  for (const cidr of (env.RUN_NETWORK_ALLOWED_CIDRS ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean)) {
    if (!normalCidr(cidr)) problems.push(`RUN_NETWORK_ALLOWED_CIDRS: ${cidr} is not a CIDR`);
  }
  const trustProxy = parseTrustProxy(env.TRUST_PROXY);
  if ('problem' in trustProxy) problems.push(`TRUST_PROXY: ${trustProxy.problem}`);
  if (!env.TLS_CERT_FILE !== !env.TLS_KEY_FILE)
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE go together: set both (https) or neither (http)');
  const oidc = parseOidcProviders(env);
  if ('problem' in oidc) problems.push(oidc.problem);
  if (problems.length) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);

  const port = Number(env.PORT ?? '8080');
  const tls =
    env.TLS_CERT_FILE && env.TLS_KEY_FILE
      ? Object.freeze({ certFile: resolve(env.TLS_CERT_FILE), keyFile: resolve(env.TLS_KEY_FILE) })
      : null;
  const baseUrl = (env.BASE_URL ?? `${tls ? 'https' : 'http'}://127.0.0.1:${port}`).replace(/\/+$/, '');
  const keyHex = env.ENCRYPTION_KEY ?? devEncryptionKey(resolve('.data', 'encryption.key'));
  const runConcurrency = Number(env.RUN_CONCURRENCY ?? '2');
  const verificationTimeoutSeconds = Number(env.VERIFICATION_TIMEOUT_SECONDS ?? '10');
  // By default one organization holds at most half of a process's slots on each outbound queue.
  const outboundShare = String(Math.max(1, Math.floor(OUTBOUND_QUEUE_CONCURRENCY / 2)));
  const list = (text: string | undefined, sep: string) =>
    Object.freeze(
      (text ?? '')
        .split(sep)
        .map((s) => s.trim())
        .filter(Boolean),
    );
  return Object.freeze({
    env: mode,
    port,
    tls,
    baseUrl,
    uploadUrl: (env.UPLOAD_URL ?? baseUrl).replace(/\/+$/, ''),
    runApiUrl: (env.RUN_API_URL ?? baseUrl).replace(/\/+$/, ''),
    serviceHostnames: list(env.SERVICE_HOSTNAMES, ','),
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/rls',
    databasePreparedStatements: Number(env.DATABASE_PREPARED_STATEMENTS ?? '200'),
    // Each concurrent plan or apply holds a connection at times; headroom for the API and other queues.
    databasePoolMax: Number(env.DATABASE_POOL_MAX ?? String(Math.max(10, runConcurrency + 6))),
    databaseListenUrl: env.DATABASE_LISTEN_URL ?? env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/rls',
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    redisClusterNodes: list(env.REDIS_CLUSTER_NODES, ','),
    redisPassword: env.REDIS_PASSWORD ?? null,
    queuePrefix: env.QUEUE_PREFIX ?? 'rls',
    encryptionKey: Buffer.from(keyHex, 'hex'),
    siteAdminToken: env.SITE_ADMIN_TOKEN ?? null,
    outboundAllowedCidrs: Object.freeze(
      (env.OUTBOUND_ALLOWED_CIDRS ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
    edition: (env.EDITION ?? 'self-hosted') as Edition,
    logLevel: env.LOG_LEVEL ?? 'info',
    smtpUrl: env.SMTP_URL ?? null,
    mailFrom: env.MAIL_FROM ?? 'Run Lifecycle Service <noreply@localhost>',
    reconcileIntervalMs: Number(env.RECONCILE_INTERVAL_MS ?? '30000'),
    shutdownBudgetMs: Number(env.SHUTDOWN_BUDGET_MS ?? '10000'),
    maxArchiveBytes: Number(env.MAX_ARCHIVE_BYTES ?? String(100 * 1024 * 1024)),
    uploadUrlTtlSeconds: Number(env.UPLOAD_URL_TTL_SECONDS ?? '3600'),
    downloadUrlTtlSeconds: Number(env.DOWNLOAD_URL_TTL_SECONDS ?? '300'),
    logUrlTtlSeconds: Number(env.LOG_URL_TTL_SECONDS ?? '3600'),
    cvGcAfterDays: Number(env.CV_GC_AFTER_DAYS ?? '0'),
    retentionDays: Number(env.RETENTION_DAYS ?? '0'),
    dataRetentionIntervalSeconds: Number(env.DATA_RETENTION_INTERVAL_SECONDS ?? '3600'),
    dataRetentionBatchSize: Number(env.DATA_RETENTION_BATCH_SIZE ?? '100'),
    terraformBin: env.TERRAFORM_BIN ?? 'terraform',
    terraformCliConfig: env.TERRAFORM_CLI_CONFIG ?? null,
    runLeaseSeconds: Math.max(3, Number(env.RUN_LEASE_SECONDS ?? '60')),
    stateRecoveryDir: resolve(env.STATE_RECOVERY_DIR ?? join('.data', 'state-recovery')),
    stateSaveRetrySeconds: Number(env.STATE_SAVE_RETRY_SECONDS ?? '30'),
    forceCancelCoolOffSeconds: Number(env.FORCE_CANCEL_COOLOFF_SECONDS ?? '10'),
    runConcurrency,
    testRunTimeoutSeconds: Number(env.TEST_RUN_TIMEOUT_SECONDS ?? '3600'),
    runTaskDeadlineSeconds: Number(env.RUN_TASK_DEADLINE_SECONDS ?? '600'),
    runTaskAgentName: env.RUN_TASK_AGENT_NAME ?? 'RLS',
    assessmentIntervalSeconds: Number(env.ASSESSMENT_INTERVAL_SECONDS ?? '86400'),
    opaPath: env.OPA_PATH ?? 'opa',
    sentinelPath: env.SENTINEL_PATH ?? 'sentinel',
    policyEvalTimeoutSeconds: Number(env.POLICY_EVAL_TIMEOUT_SECONDS ?? '60'),
    runSandbox: (env.RUN_SANDBOX ?? 'bwrap') as Config['runSandbox'],
    runNetwork: (env.RUN_NETWORK ?? 'egress') as Config['runNetwork'],
    runNetworkAllowedCidrs: list(env.RUN_NETWORK_ALLOWED_CIDRS, ','),
    runSandboxReadonlyPaths: list(env.RUN_SANDBOX_READONLY_PATHS, ':'),
    runSandboxUidBase: Number(env.RUN_SANDBOX_UID_BASE ?? '600000'),
    runCpuScheduling: (env.RUN_CPU_SCHEDULING ?? 'idle') as Config['runCpuScheduling'],
    runPlanTimeoutSeconds: Number(env.RUN_PLAN_TIMEOUT_SECONDS ?? '7200'),
    runApplyTimeoutSeconds: Number(env.RUN_APPLY_TIMEOUT_SECONDS ?? '7200'),
    runTimeoutGraceSeconds: Number(env.RUN_TIMEOUT_GRACE_SECONDS ?? '30'),
    runMemoryLimitMb: Number(env.RUN_MEMORY_LIMIT_MB ?? '4096'),
    runProcessLimit: Number(env.RUN_PROCESS_LIMIT ?? '1024'),
    runDiskLimitMb: Number(env.RUN_DISK_LIMIT_MB ?? '10240'),
    runCgroups: (env.RUN_CGROUPS ?? 'auto') as Config['runCgroups'],
    runCpuWeight: Number(env.RUN_CPU_WEIGHT ?? '100'),
    maxArchiveEntries: Number(env.MAX_ARCHIVE_ENTRIES ?? '50000'),
    runSlotsPerOrganization: Number(
      env.RUN_SLOTS_PER_ORGANIZATION ?? String(Math.max(1, Math.ceil(runConcurrency / 2))),
    ),
    maxQueuedSpeculativeRuns: Number(env.MAX_QUEUED_SPECULATIVE_RUNS ?? '20'),
    maxConcurrentUploads: Number(env.MAX_CONCURRENT_UPLOADS ?? '16'),
    maxConcurrentUploadsPerOrganization: Number(env.MAX_CONCURRENT_UPLOADS_PER_ORGANIZATION ?? '4'),
    maxConcurrentUploadsPerUser: Number(env.MAX_CONCURRENT_UPLOADS_PER_USER ?? '4'),
    maxConcurrentUploadsPerAddress: Number(env.MAX_CONCURRENT_UPLOADS_PER_ADDRESS ?? '8'),
    uploadMinBytesPerSecond: Number(env.UPLOAD_MIN_BYTES_PER_SECOND ?? '1024'),
    uploadRateGraceSeconds: Number(env.UPLOAD_RATE_GRACE_SECONDS ?? '10'),
    organizationCreation: (env.ORGANIZATION_CREATION ?? 'anyone') as Config['organizationCreation'],
    rateLimitPerSecond: Number(env.RATE_LIMIT_PER_SECOND ?? '30'),
    rateLimitConfigurationVersionsPerMinute: Number(env.RATE_LIMIT_CONFIGURATION_VERSIONS_PER_MINUTE ?? '60'),
    rateLimitVerificationsPerHostPerMinute: Number(env.RATE_LIMIT_VERIFICATIONS_PER_HOST_PER_MINUTE ?? '120'),
    maxConcurrentVerificationsPerHost: Number(env.MAX_CONCURRENT_VERIFICATIONS_PER_HOST ?? '10'),
    rateLimitInvitationsPerMinute: Number(env.RATE_LIMIT_INVITATIONS_PER_MINUTE ?? '20'),
    rateLimitInvitationsPerHour: Number(env.RATE_LIMIT_INVITATIONS_PER_HOUR ?? '100'),
    rateLimitSignInPerMinute: Number(env.RATE_LIMIT_SIGN_IN_PER_MINUTE ?? '10'),
    rateLimitSignInPerAccountPerHour: Number(env.RATE_LIMIT_SIGN_IN_PER_ACCOUNT_PER_HOUR ?? '100'),
    rateLimitSignInFailuresPerHour: Number(env.RATE_LIMIT_SIGN_IN_FAILURES_PER_HOUR ?? '10'),
    rateLimitAuthFailuresPerMinute: Number(env.RATE_LIMIT_AUTH_FAILURES_PER_MINUTE ?? '20'),
    trustProxy: 'trust' in trustProxy ? trustProxy.trust : false,
    sessionTtlSeconds: Number(env.SESSION_TTL_SECONDS ?? String(12 * 3600)),
    passwordResetTtlSeconds: Number(env.PASSWORD_RESET_TTL_SECONDS ?? String(24 * 3600)),
    invitationTtlSeconds: Number(env.INVITATION_TTL_SECONDS ?? String(7 * 24 * 3600)),
    verificationTimeoutSeconds,
    verificationConnectTimeoutSeconds: Math.min(
      verificationTimeoutSeconds,
      Number(env.VERIFICATION_CONNECT_TIMEOUT_SECONDS ?? '3'),
    ),
    verificationSlotsPerOrganization: Number(env.VERIFICATION_SLOTS_PER_ORGANIZATION ?? outboundShare),
    taskDispatchSlotsPerOrganization: Number(env.TASK_DISPATCH_SLOTS_PER_ORGANIZATION ?? outboundShare),
    deliverySlotsPerOrganization: Number(env.DELIVERY_SLOTS_PER_ORGANIZATION ?? outboundShare),
    outboundLeaseSeconds: Number(env.OUTBOUND_LEASE_SECONDS ?? '30'),
    maxPlanJsonBytes: Number(env.MAX_PLAN_JSON_BYTES ?? String(64 * 1024 * 1024)),
    maxLogBytes: Number(env.MAX_LOG_BYTES ?? String(64 * 1024 * 1024)),
    metricsToken: env.METRICS_TOKEN ?? null,
    metricsPort: env.METRICS_PORT === undefined ? null : Number(env.METRICS_PORT),
    metricsHost: env.METRICS_HOST ?? '127.0.0.1',
    oidcProviders: Object.freeze('providers' in oidc ? oidc.providers : []),
    passwordSignIn: (env.PASSWORD_SIGN_IN ?? 'everyone') as Config['passwordSignIn'],
  });
}

// How the service is addressed: by its host name, and by the service discovery document.

/**
 * The services this API offers, by Terraform's service discovery ids, as paths under its base URL
 * (`/.well-known/terraform.json` answers them). The `remote` backend asks for `tfe.v2.1`, the
 * `cloud` block for `tfe.v2`, a `remote` backend forced local (TF_FORCE_LOCAL_BACKEND) for
 * `state.v2`, and module sources on this host for `modules.v1`.
 */
export const SERVICE_PATHS: Readonly<Record<string, string>> = Object.freeze({
  'tfe.v2': '/api/v2/',
  'tfe.v2.1': '/api/v2/',
  'tfe.v2.2': '/api/v2/',
  'modules.v1': '/api/registry/v1/modules/',
  'state.v2': '/api/v2/',
});

/** The host name configurations name this service by: BASE_URL's host, with its port if any. */
export const serviceHostname = (config: Pick<Config, 'baseUrl'>): string => new URL(config.baseUrl).host.toLowerCase();

/**
 * The `login.v1` service of discovery: how `terraform login` obtains a token (OAuth 2.0
 * authorization code with PKCE; the consent page is the console's, the CLI listens on one of the
 * ports for the redirect).
 */
export const LOGIN_SERVICE = Object.freeze({
  client: 'terraform-cli',
  grant_types: ['authz_code'],
  authz: '/app/oauth/authorize',
  token: '/oauth/token',
  ports: [10000, 10010],
});
