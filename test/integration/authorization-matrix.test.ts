import { createServer } from 'node:http';
import { expect } from 'chai';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createApp } from '../../server/app.js';
import { BOARD_PATH } from '../../server/board.js';
import { CONSOLE_PATH } from '../../server/console.js';
import { routeTable } from '../../server/route-table.js';
import { insertPolicyCheck } from '../../shared/policies/checks.repo.js';
import { insertPolicyEvaluation, insertSetOutcomes } from '../../shared/policies/evaluations.repo.js';
import { insertStateVersion, parseState } from '../../shared/state/repo.js';
import { doc, readResponse } from '../helpers/api.js';
import { harness } from '../helpers/harness.js';
import { spawnWorkers, workersReady, type WorkerProcess } from '../helpers/processes.js';
import {
  createOrg,
  createTeam,
  createUser,
  joinOrg,
  putArchive,
  tarGz,
  uniq,
  type TestUser,
} from '../helpers/fixtures.js';
import { givePassword, linkToken, signIn, type Session } from '../helpers/console.js';

/*
 * Authorization matrix: every route of the application × every kind of caller, with the status
 * the service documents (docs/decisions.md, "Identity and access": 404 for what a caller may not
 * see or do, 401 without a valid token). The list of routes comes from the Express application
 * itself, so a route added without an entry here (or exempted below) fails this test, and so does
 * an entry that no longer matches a route.
 */

/** The callers. Members reach the workspace under test (`ws`) through a team of their own. */
const WHO = [
  'anonymous',
  'outsider',
  'read',
  'plan',
  'write',
  'admin',
  'teamToken',
  'orgToken',
  'owner',
  'siteAdmin',
  'readSession',
] as const;
type Who = (typeof WHO)[number];
/** The callers with a token (or none); `readSession` is the read member again, signed in to the console. */
const TOKEN_WHO = WHO.filter((w): w is Exclude<Who, 'readSession'> => w !== 'readSession');
// anonymous: no Authorization header.
// outsider:  the owner of another organization.
// read/plan/write/admin: organization members whose only access is that level on the workspace (team-workspace access).
// teamToken: the token of a team without organization permissions that has write access to the workspace.
// orgToken:  the organization's token (every organization permission, not an owner).
// owner:     a member of the owners team (the positive control for owner-only routes).
// siteAdmin: the site admin token (counts as an owner of every organization).
// readSession: the read member through the console's session cookie (no Authorization header; the
//            X-CSRF-Token header and this service's Origin on every request). Unless a class or
//            entry says otherwise it must get exactly what the read member's token gets.

/** 'ok' is any 2xx; a number is that exact status. */
type Want = number | 'ok';
type Expectations = Record<Exclude<Who, 'readSession'>, Want> & { readSession?: Want };

const denyAll = (anonymous: Want = 401): Expectations =>
  Object.fromEntries(TOKEN_WHO.map((w) => [w, w === 'anonymous' ? anonymous : 404])) as Expectations;
const allow = (...who: Who[]): Expectations => ({ ...denyAll(), ...Object.fromEntries(who.map((w) => [w, 'ok'])) });
const WORKSPACE_ADMINS: Who[] = ['admin', 'orgToken', 'owner', 'siteAdmin'];
const ORG_MANAGERS: Who[] = ['orgToken', 'owner', 'siteAdmin'];

/** Access classes: who may call a route of the class (everyone else: 404, anonymous: 401). */
const CLASSES = {
  /** No credentials at all (health, discovery, ping). */
  public: Object.fromEntries(WHO.map((w) => [w, 'ok'])) as Expectations,
  /** The console's session only: no API token authenticates these (401), the session cookie does. */
  'console-session': { ...(Object.fromEntries(TOKEN_WHO.map((w) => [w, 401])) as Expectations), readSession: 'ok' },
  /** Any valid token (lists filtered to what the caller may see). */
  authenticated: allow('outsider', 'read', 'plan', 'write', 'admin', 'teamToken', 'orgToken', 'owner', 'siteAdmin'),
  /** User tokens only: team and organization tokens get 404. */
  'user-token': allow('outsider', 'read', 'plan', 'write', 'admin', 'owner', 'siteAdmin'),
  /** The target user (the read member) and the site admin. */
  'self-user': allow('read', 'siteAdmin'),
  /** The site admin only. */
  'site-admin': allow('siteAdmin'),
  /** Anyone with a grant in the organization (member, its team and organization tokens). */
  'org-member': allow('read', 'plan', 'write', 'admin', 'teamToken', 'orgToken', 'owner', 'siteAdmin'),
  /** Owners (the owners team) only; not even the organization token. */
  'org-owner-only': allow('owner', 'siteAdmin'),
  /** Organization permission manage-teams (the organization token has every permission). */
  'manage-teams': allow(...ORG_MANAGERS),
  /** Organization permission manage-membership. */
  'manage-membership': allow(...ORG_MANAGERS),
  /** Organization permission manage-workspaces. */
  'manage-workspaces': allow(...ORG_MANAGERS),
  /** Organization permission manage-policies. */
  'manage-policies': allow(...ORG_MANAGERS),
  /** Organization permission manage-run-tasks. */
  'manage-run-tasks': allow(...ORG_MANAGERS),
  /** Organization permission manage-modules. */
  'manage-modules': allow(...ORG_MANAGERS),
  /** Organization permission manage-var-sets. */
  'manage-var-sets': allow(...ORG_MANAGERS),
  /** Organization permission manage-projects. */
  'manage-projects': allow(...ORG_MANAGERS),
  /** Organization permission manage-agent-pools. */
  'manage-agent-pools': allow(...ORG_MANAGERS),
  /** Organization permission manage-vcs-settings (SSH keys); the organization token is refused with 403, as in TFE. */
  'manage-vcs-settings': { ...allow('owner', 'siteAdmin'), orgToken: 403 },
  /** Seeing SSH keys: manage-vcs-settings, or admin access to a workspace (the admin member); the organization token gets 403. */
  'ssh-key-read': { ...allow('admin', 'owner', 'siteAdmin'), orgToken: 403 },
  /** Seeing VCS connections: manage-vcs-settings, or admin access to a workspace (the admin member). */
  'vcs-read': allow('admin', 'orgToken', 'owner', 'siteAdmin'),
  /** Organization permission manage-vcs-settings, for VCS connections (the organization token has it). */
  'vcs-manage': allow(...ORG_MANAGERS),
  /** Read access to the world's project: the read member's team holds read project access on it. */
  'project-read': allow('read', 'orgToken', 'owner', 'siteAdmin'),
  /** Organization permission manage-policy-overrides. */
  'manage-policy-overrides': allow(...ORG_MANAGERS),
  /** Read access to the workspace, or more. */
  'workspace-read': allow('read', 'plan', 'write', 'admin', 'teamToken', 'orgToken', 'owner', 'siteAdmin'),
  /** Plan access to the workspace, or more. */
  'workspace-plan': allow('plan', 'write', 'admin', 'teamToken', 'orgToken', 'owner', 'siteAdmin'),
  /** Write access to the workspace, or more. */
  'workspace-write': allow('write', 'admin', 'teamToken', 'orgToken', 'owner', 'siteAdmin'),
  /** Admin access to the workspace (workspace admins, manage-workspaces, owners). */
  'workspace-admin': allow(...WORKSPACE_ADMINS),
  /** A run task result's own access token only (no API token works). */
  'task-token': Object.fromEntries(TOKEN_WHO.map((w) => [w, 401])) as Expectations,
  /** Bull Board: HTTP Basic with a site admin's token as the password; anything else 401. */
  'site-admin-basic': { ...(Object.fromEntries(TOKEN_WHO.map((w) => [w, 401])) as Expectations), siteAdmin: 'ok' },
} satisfies Record<string, Expectations>;
type AccessClass = keyof typeof CLASSES;

interface Call {
  path: string;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  /** Send the caller's token as HTTP Basic password instead of a bearer token. */
  basic?: boolean;
}

interface Entry {
  access: AccessClass;
  /** Per-principal differences from the class, each with its reason in a comment. */
  except?: Partial<Expectations>;
  /** The request for one caller; `allowed` says whether it is expected to succeed (then build a fresh target if it destroys one). */
  call: (w: World, who: Who, allowed: boolean) => Call | Promise<Call>;
  /** Further cases of the same route whose rule differs by body or target (named). */
  variants?: Record<string, Omit<Entry, 'variants'>>;
}

/** Routes that are deliberately not in the matrix: their URL is the credential. */
const EXEMPT: Record<string, string> = {
  // Signed upload/download URLs: an HMAC-signed grant in the path, no Authorization header
  // (expiry, tampering and reuse are covered by configuration-versions and object-store tests).
  'PUT /v1/object/:token': 'signed object URL',
  'GET /v1/object/:token': 'signed object URL',
  // Signed log URLs (runs-logs tests).
  'GET /v1/logs/:token': 'signed log URL',
  // Prometheus scrapes: the scrape token (METRICS_TOKEN), not an API token; refusals of no token and
  // of an API token are tested in operations-metrics.
  'GET /metrics': 'metrics scrape token',
  // A redirect to the console, whatever the caller (console tests).
  'GET /': 'redirect to the web console',
  // Single sign-on: redirects to and from an identity provider, which this run configures none of
  // (the sso tests sign in through a real provider, and try forged states and tokens there).
  'GET /api/console/sso/:provider/start': 'redirect to an identity provider',
  'GET /api/console/sso/:provider/callback': "an identity provider's redirect back",
  // Providers' webhook deliveries: the provider's signature over the body, not an API token
  // (forged and unknown deliveries are refused in vcs-workflow).
  'POST /webhooks/vcs/:hookId': 'provider-signed webhook',
};

// ---------------------------------------------------------------------------------------------
// The fixture world.

interface World {
  org: { name: string; owner: TestUser };
  other: { name: string; owner: TestUser };
  tokens: Record<Exclude<Who, 'anonymous'>, string>;
  /** The read member's console session (the readSession caller), and the password it signed in with. */
  session: Session;
  readPassword: string;
  users: Record<'read' | 'plan' | 'write' | 'admin', TestUser>;
  /** Team ids whose grants every workspace of the world gets: level -> team. */
  grants: [string, 'read' | 'plan' | 'write' | 'admin'][];
  ciTeam: string;
  ws: { id: string; name: string };
  cv: string;
  run: string;
  plan: string;
  apply: string;
  sv: string;
  svOutput: string;
  assessment: string;
  secretTeam: string;
  readGrant: string;
  spareGrant: string;
  readToken: string;
  readMembership: string;
  task: string;
  wsTask: string;
  taskStage: string;
  policyEvaluation: string;
  policySetOutcome: string;
  taskResult: string;
  notification: string;
  delivery: string;
  policy: string;
  policySet: string;
  policySetVersion: string;
  policyCheck: string;
  module: { id: string; name: string; tests: string; self: string };
  testCv: string;
  testRun: string;
  testVar: string;
  wsVar: string;
  varset: string;
  varsetVar: string;
  runTrigger: string;
  /** A project (no workspaces) on which the read member's team has read access, and that access. */
  project: string;
  agentPool: string;
  sshKey: string;
  /** A VCS connection (GitHub, with a token) and its token. */
  oauthClient: string;
  oauthToken: string;
  /** The world's module offered for no-code provisioning. */
  noCodeModule: string;
  readProjectGrant: string;
  policySetParameter: string;
  toolVersions: Record<'opa' | 'sentinel', string>;
  archive: Buffer;
}

const db = () => harness().rt.db;

async function call(
  method: string,
  path: string,
  token: string | null,
  opts: Omit<Call, 'path'> = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; text: string; body: any }> {
  const headers: Record<string, string> = { Accept: 'application/vnd.api+json', ...opts.headers };
  if (token !== null)
    headers.Authorization = opts.basic ? `Basic ${Buffer.from(`x:${token}`).toString('base64')}` : `Bearer ${token}`;
  let body: string | undefined;
  if (opts.raw !== undefined || opts.body !== undefined) {
    headers['Content-Type'] ??= 'application/vnd.api+json';
    body = opts.raw ?? JSON.stringify(opts.body);
  }
  const res = await fetch(`${harness().baseUrl}${path.startsWith('/') ? '' : '/'}${path}`, {
    method,
    headers,
    body,
    redirect: 'manual',
  });
  return readResponse(res);
}

/** An API call as the organization owner that must succeed; returns the body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function must(method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const res = await call(method, `/api/v2${path}`, token ?? world.org.owner.token, body === undefined ? {} : { body });
  expect(res.status, `${method} ${path}: ${res.text}`).to.be.within(200, 299);
  return res.body;
}

const rel = (type: string, id: string) => ({ data: { type, id } });

let world: World;

async function grant(teamId: string, workspaceId: string, access: string): Promise<string> {
  return (
    await must(
      'POST',
      '/team-workspaces',
      doc('team-workspaces', { access }, { workspace: rel('workspaces', workspaceId), team: rel('teams', teamId) }),
    )
  ).data.id;
}

/** A new member of the organization on a team of their own. */
async function memberTeam(org: World['org']): Promise<{ user: TestUser; teamId: string }> {
  const user = await createUser();
  await joinOrg(org, user);
  const teamId = await createTeam(org, { visibility: 'organization' });
  await must('POST', `/teams/${teamId}/relationships/users`, { data: [{ type: 'users', id: user.username }] });
  return { user, teamId };
}

/** A new workspace that every member team reaches as it reaches the world's workspace. */
/** A state version document with its state inline (serial `serial`, a fixed lineage). */
function matrixState(serial: number) {
  const state = Buffer.from(
    JSON.stringify({
      version: 4,
      serial,
      lineage: 'matrix-push',
      terraform_version: '1.11.4',
      outputs: {},
      resources: [],
    }),
  );
  return {
    data: {
      type: 'state-versions',
      attributes: {
        serial,
        lineage: 'matrix-push',
        md5: createHash('md5').update(state).digest('hex'),
        state: state.toString('base64'),
      },
    },
  };
}

async function freshWorkspace(attrs: Record<string, unknown> = {}): Promise<{ id: string; name: string }> {
  const name = uniq('ws');
  const id = (await must('POST', `/organizations/${world.org.name}/workspaces`, doc('workspaces', { name, ...attrs })))
    .data.id;
  await Promise.all(world.grants.map(([team, level]) => grant(team, id, level)));
  return { id, name };
}

let uploads: Promise<unknown> = Promise.resolve();

/** An uploaded configuration version of a workspace (no run queued). Uploads go one at a time: an organization takes only a few request bodies at once. */
async function uploadedCv(workspaceId: string, attrs: Record<string, unknown> = {}): Promise<string> {
  const cv = (
    await must(
      'POST',
      `/workspaces/${workspaceId}/configuration-versions`,
      doc('configuration-versions', { 'auto-queue-runs': false, ...attrs }),
    )
  ).data;
  const put = uploads.then(() => putArchive(cv.attributes['upload-url'], world.archive));
  uploads = put.catch(() => undefined);
  const res = await put;
  expect(res.status, res.text).to.equal(200);
  return cv.id;
}

async function newRun(workspaceId: string, attrs: Record<string, unknown> = {}): Promise<string> {
  await uploadedCv(workspaceId);
  return (await must('POST', '/runs', doc('runs', attrs, { workspace: rel('workspaces', workspaceId) }))).data.id;
}

/** A state version of a fresh workspace that another has followed (backing-data actions leave the current one alone); soft deleted when asked. */
async function formerStateVersion(softDeleted = false): Promise<string> {
  const ws = await freshWorkspace();
  const ids: string[] = [];
  for (const serial of [1, 2]) {
    const state = Buffer.from(
      JSON.stringify({
        version: 4,
        serial,
        lineage: 'matrix-former',
        terraform_version: '1.9.0',
        outputs: {},
        resources: [],
      }),
    );
    const objectId = await storeObject(state);
    ids.push(
      (
        await db().transaction((tx) =>
          insertStateVersion(tx, harness().config.encryptionKey, {
            workspaceId: ws.id,
            runId: null,
            objectId,
            size: state.length,
            state: parseState(state),
          }),
        )
      ).id,
    );
  }
  const former = ids[0];
  if (softDeleted) await must('POST', `/state-versions/${former}/actions/soft_delete_backing_data`);
  return former;
}

async function storeObject(bytes: Buffer, contentType = 'application/json'): Promise<string> {
  return db().transaction(async (tx) => (await harness().rt.store.put(tx, bytes, { contentType })).id);
}

async function newTeam(attrs: Record<string, unknown> = {}): Promise<string> {
  return createTeam(world.org, { visibility: 'organization', ...attrs });
}

/** A route on a team's token: for a caller who may, a fresh secret team that has one; otherwise the world's. */
async function teamWithToken(w: World, _who: Who, allowed: boolean): Promise<{ path: string }> {
  if (!allowed) return { path: `/api/v2/teams/${w.secretTeam}/authentication-token` };
  const team = await newTeam({ visibility: 'secret' });
  await must('POST', `/teams/${team}/authentication-token`);
  return { path: `/api/v2/teams/${team}/authentication-token` };
}

/** A run task endpoint for the verification worker to check: every request answers 200. */
let endpoint: { url: string; close(): Promise<void> };

async function insertTask(): Promise<string> {
  return (
    await must(
      'POST',
      `/organizations/${world.org.name}/tasks`,
      doc('tasks', { name: uniq('task'), url: endpoint.url, category: 'task' }),
    )
  ).data.id;
}

async function newNotification(workspaceId = world.ws.id): Promise<string> {
  return (await must('POST', `/workspaces/${workspaceId}/notification-configurations`, notificationDoc())).data.id;
}

const notificationDoc = () =>
  doc('notification-configurations', {
    name: uniq('nc'),
    'destination-type': 'email',
    enabled: false,
    triggers: ['run:created'],
  });

/** A delivered notification of the world's configuration (deliveries are written by run moves). */
async function newDelivery(): Promise<string> {
  const id = `nd-${randomBytes(8).toString('hex')}`;
  await db()('notification_deliveries').insert({
    id,
    configuration_id: world.notification,
    run_id: world.run,
    event_key: id,
    trigger: 'run:created',
    payload: '{}',
    status: 'delivered',
  });
  return id;
}

async function newPolicy(): Promise<string> {
  return (
    await must(
      'POST',
      `/organizations/${world.org.name}/policies`,
      doc('policies', { name: uniq('pol'), kind: 'opa', query: 'data.x.deny', 'enforcement-level': 'advisory' }),
    )
  ).data.id;
}

async function newPolicySet(): Promise<string> {
  return (
    await must(
      'POST',
      `/organizations/${world.org.name}/policy-sets`,
      doc('policy-sets', { name: uniq('set'), kind: 'opa' }),
    )
  ).data.id;
}

async function newModule(): Promise<{ id: string; name: string; tests: string; self: string }> {
  const name = uniq('mod').replace(/-/g, '');
  const created = await must(
    'POST',
    `/organizations/${world.org.name}/registry-modules`,
    doc('registry-modules', { name, provider: 'null', 'registry-name': 'private', namespace: world.org.name }),
  );
  const o = world.org.name;
  return {
    id: created.data.id,
    name,
    tests: `/organizations/${o}/tests/registry-modules/private/${o}/${name}/null`,
    self: `/organizations/${o}/registry-modules/private/${o}/${name}/null`,
  };
}

let versionCount = 0;
/** A new (pending) version of the world's module; its version number. */
async function newModuleVersion(): Promise<string> {
  const version = `2.0.${++versionCount}`;
  await must('POST', `${world.module.self}/versions`, doc('registry-module-versions', { version }));
  return version;
}

const envKey = () => uniq('k').replace(/-/g, '_');

async function newWorkspaceVar(): Promise<string> {
  return (
    await must('POST', `/workspaces/${world.ws.id}/vars`, doc('vars', { key: envKey(), value: 'v', category: 'env' }))
  ).data.id;
}

/** A variable set applied to the world's workspace (what its members see). */
async function newVarset(): Promise<string> {
  return (
    await must(
      'POST',
      `/organizations/${world.org.name}/varsets`,
      doc('varsets', { name: uniq('vs') }, { workspaces: { data: [{ type: 'workspaces', id: world.ws.id }] } }),
    )
  ).data.id;
}

async function newVarsetVar(set = world.varset): Promise<string> {
  return (
    await must(
      'POST',
      `/varsets/${set}/relationships/vars`,
      doc('vars', { key: envKey(), value: 'v', category: 'env' }),
    )
  ).data.id;
}

/** A run trigger of the world's workspace from a fresh source every member can read. */
async function newRunTrigger(): Promise<string> {
  return (
    await must(
      'POST',
      `/workspaces/${world.ws.id}/run-triggers`,
      doc('run-triggers', {}, { sourceable: rel('workspaces', (await freshWorkspace()).id) }),
    )
  ).data.id;
}

const DONT_DELETE = { data: { type: 'data-retention-policy-dont-deletes' } };
const LEGACY_POLICY = doc('data-retention-policies', { 'delete-older-than-n-days': 3650 });
const policyPath = (holder: string): Call => ({ path: `/api/v2${holder}/relationships/data-retention-policy` });

/** The data retention policy route of `holder` (an organization's or a workspace's path), once it has a policy. */
async function withPolicy(holder: string): Promise<Call> {
  await must('POST', `${holder}/relationships/data-retention-policy`, DONT_DELETE);
  return policyPath(holder);
}

async function newAgentPool(): Promise<string> {
  return (
    await must('POST', `/organizations/${world.org.name}/agent-pools`, doc('agent-pools', { name: uniq('pool') }))
  ).data.id;
}

/** A no-code module of a registry module of the world's organization. */
async function newNoCodeModule(registryModuleId: string): Promise<string> {
  return (
    await must(
      'POST',
      `/organizations/${world.org.name}/no-code-modules`,
      doc('no-code-modules', {}, { 'registry-module': rel('registry-modules', registryModuleId) }),
    )
  ).data.id;
}

/** An SSH key's document: a new Ed25519 private key in PKCS#8 form. */
const sshKeyDoc = () =>
  doc('ssh-keys', {
    name: uniq('key'),
    value: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }),
  });

/** A new SSH key of the world's organization. */
async function newSshKey(): Promise<string> {
  return (await must('POST', `/organizations/${world.org.name}/ssh-keys`, sshKeyDoc())).data.id;
}

/** A VCS connection's document: GitHub with a token string (which becomes its OAuth token). */
const oauthClientDoc = () =>
  doc('oauth-clients', {
    'service-provider': 'github',
    'http-url': 'https://github.com',
    'api-url': 'https://api.github.com',
    'oauth-token-string': uniq('ghp'),
  });

/** A new VCS connection of the world's organization, and its token. */
async function newOAuthClient(): Promise<{ client: string; token: string }> {
  const created = (await must('POST', `/organizations/${world.org.name}/oauth-clients`, oauthClientDoc())).data;
  return { client: created.id, token: created.relationships['oauth-tokens'].data[0].id };
}

async function newProject(): Promise<string> {
  return (await must('POST', `/organizations/${world.org.name}/projects`, doc('projects', { name: uniq('prj') }))).data
    .id;
}

async function projectGrant(teamId: string, projectId: string, access: string): Promise<string> {
  return (
    await must(
      'POST',
      '/team-projects',
      doc('team-projects', { access }, { project: rel('projects', projectId), team: rel('teams', teamId) }),
    )
  ).data.id;
}

async function newPolicySetParameter(): Promise<string> {
  return (
    await must(
      'POST',
      `/policy-sets/${world.policySet}/parameters`,
      doc('vars', { key: envKey(), value: 'v', category: 'policy-set' }),
    )
  ).data.id;
}

/** A policy runtime version, registered by the site admin. */
async function newToolVersion(tool: 'opa' | 'sentinel'): Promise<string> {
  const attrs = {
    version: `0.0.${Date.now()}${++versionCount}`,
    url: 'https://example.test/tool',
    sha: 'ab'.repeat(32),
  };
  return (await must('POST', `/admin/${tool}-versions`, doc(`${tool}-versions`, attrs), harness().adminToken)).data.id;
}

async function buildWorld(): Promise<World> {
  const w = { archive: await tarGz({ 'main.tf': 'output "ok" { value = true }\n' }) } as World;
  world = w;
  w.org = await createOrg();
  w.other = await createOrg();
  const levels = ['read', 'plan', 'write', 'admin'] as const;
  const members = await Promise.all(levels.map(() => memberTeam(w.org)));
  w.users = Object.fromEntries(levels.map((l, i) => [l, members[i].user])) as World['users'];
  w.ciTeam = await newTeam();
  w.grants = [
    ...levels.map((l, i) => [members[i].teamId, l] as [string, (typeof levels)[number]]),
    [w.ciTeam, 'write'],
  ];
  const teamToken = (await must('POST', `/teams/${w.ciTeam}/authentication-token`)).data.attributes.token;
  const orgToken = (await must('POST', `/organizations/${w.org.name}/authentication-token`)).data.attributes.token;
  w.tokens = {
    outsider: w.other.owner.token,
    read: w.users.read.token,
    plan: w.users.plan.token,
    write: w.users.write.token,
    admin: w.users.admin.token,
    teamToken,
    orgToken,
    owner: w.org.owner.token,
    siteAdmin: harness().adminToken,
    // Fixture calls made "as" the session caller use the same user's token.
    readSession: w.users.read.token,
  };
  w.readPassword = await givePassword(w.users.read);
  w.session = await signIn(w.users.read.username, w.readPassword);
  w.ws = await freshWorkspace();
  w.readGrant = (await must('GET', `/team-workspaces?filter[workspace][id]=${w.ws.id}`)).data.find(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    (g: any) => g.relationships.team.data.id === members[0].teamId,
  ).id;
  w.secretTeam = await createTeam(w.org, { visibility: 'secret' });
  w.spareGrant = await grant(w.secretTeam, w.ws.id, 'read');
  w.readToken = (
    await must(
      'POST',
      `/users/${w.users.read.id}/authentication-tokens`,
      doc('authentication-tokens', { description: 'matrix' }),
      w.users.read.token,
    )
  ).data.id;
  w.readMembership = (
    await db()('organization_memberships')
      .where({ organization_name: w.org.name, user_id: w.users.read.id })
      .first('id')
  ).id;

  // Run tasks: definitions are inserted (creating one calls the endpoint through a worker).
  w.task = await insertTask();
  w.wsTask = (
    await must(
      'POST',
      `/workspaces/${w.ws.id}/tasks`,
      doc(
        'workspace-tasks',
        { 'enforcement-level': 'advisory', stages: ['post_plan'] },
        { task: rel('tasks', w.task) },
      ),
    )
  ).data.id;

  w.cv = await uploadedCv(w.ws.id);
  w.run = (await must('POST', '/runs', doc('runs', {}, { workspace: rel('workspaces', w.ws.id) }))).data.id;
  w.plan = (await db()('plans').where({ run_id: w.run }).first('id')).id;
  w.apply = (await db()('applies').where({ run_id: w.run }).first('id')).id;
  const jsonPlan = await storeObject(
    Buffer.from(
      JSON.stringify({
        format_version: '1.2',
        terraform_version: '1.9.0',
        planned_values: {},
        resource_changes: [],
        output_changes: {},
        configuration: {},
      }),
    ),
  );
  await db()('plans').where({ id: w.plan }).update({ json_object_id: jsonPlan });
  const stage = await db()('task_stages').where({ run_id: w.run }).first('id');
  w.taskStage = stage.id;
  w.taskResult = (await db()('task_results').where({ task_stage_id: stage.id }).first('id')).id;

  const state = Buffer.from(
    JSON.stringify({
      version: 4,
      serial: 1,
      lineage: 'matrix',
      terraform_version: '1.9.0',
      outputs: { plain: { value: 'x', type: 'string' } },
      resources: [],
    }),
  );
  const svObject = await storeObject(state);
  const sv = await db().transaction((tx) =>
    insertStateVersion(tx, harness().config.encryptionKey, {
      workspaceId: w.ws.id,
      runId: null,
      objectId: svObject,
      size: state.length,
      state: parseState(state),
    }),
  );
  w.sv = sv.id;
  w.svOutput = (await db()('state_version_outputs').where({ state_version_id: sv.id }).first('id')).id;
  w.assessment = `asmtres-${randomBytes(8).toString('hex')}`;
  await db()('assessment_results').insert({ id: w.assessment, workspace_id: w.ws.id, succeeded: true });

  w.notification = await newNotification();
  w.delivery = await newDelivery();

  w.policy = await newPolicy();
  w.policySet = await newPolicySet();
  w.policySetVersion = (await must('POST', `/policy-sets/${w.policySet}/versions`, undefined)).data.id;
  w.policyCheck = (await insertPolicyCheck(db(), w.run, 'organization', [w.policySet])).id;
  w.policyEvaluation = (
    await insertPolicyEvaluation(db(), {
      run_id: w.run,
      task_stage_id: w.taskStage,
      policy_kind: 'opa',
      policy_set_ids: [w.policySet],
    })
  ).id;
  await insertSetOutcomes(db(), w.policyEvaluation, [
    {
      policy_set_id: w.policySet,
      policy_set_name: 'matrix',
      policy_set_description: null,
      overridable: true,
      error: null,
      outcomes: [],
      result_count: { 'advisory-failed': 0, 'mandatory-failed': 0, passed: 0, errored: 0 },
    },
  ]);
  w.policySetOutcome = (
    await db()('policy_set_outcomes').where({ policy_evaluation_id: w.policyEvaluation }).first('id')
  ).id;

  w.module = await newModule();
  const testCv = (await must('POST', `${w.module.tests}/test-runs/configuration-versions`, undefined)).data;
  expect((await putArchive(testCv.attributes['upload-url'], w.archive)).status).to.equal(200);
  w.testCv = testCv.id;
  w.testRun =
    (await db()('test_runs').where({ configuration_version_id: w.testCv }).first('id'))?.id ??
    (
      await must(
        'POST',
        `${w.module.tests}/test-runs`,
        doc('test-runs', {}, { 'configuration-version': rel('configuration-versions', w.testCv) }),
      )
    ).data.id;
  w.testVar = (
    await must('POST', `${w.module.tests}/vars`, doc('vars', { key: 'k', value: 'v', category: 'env' }))
  ).data.id;
  // A published version (1.0.0) of the world's module.
  const published = (
    await must('POST', `${w.module.self}/versions`, doc('registry-module-versions', { version: '1.0.0' }))
  ).data;
  expect((await putArchive(published.links.upload, w.archive)).status).to.equal(200);

  w.wsVar = await newWorkspaceVar();
  w.varset = await newVarset();
  w.varsetVar = await newVarsetVar(w.varset);
  w.runTrigger = await newRunTrigger();
  w.project = await newProject();
  w.agentPool = await newAgentPool();
  w.sshKey = await newSshKey();
  ({ client: w.oauthClient, token: w.oauthToken } = await newOAuthClient());
  w.noCodeModule = await newNoCodeModule(w.module.id);
  w.readProjectGrant = await projectGrant(members[0].teamId, w.project, 'read');
  w.policySetParameter = await newPolicySetParameter();
  w.toolVersions = { opa: await newToolVersion('opa'), sentinel: await newToolVersion('sentinel') };
  return w;
}

/** A fresh reset link's token for a user (made by the site admin). */
async function resetToken(userId: string): Promise<string> {
  return linkToken(
    (await must('POST', `/admin/users/${userId}/actions/reset-password`, undefined, harness().adminToken)).data
      .attributes['reset-url'],
  );
}

const MATRIX_REDIRECT = 'http://localhost:10000/login';
const MATRIX_VERIFIER = 'matrix-verifier-'.padEnd(50, 'v');
const consentBody = () => ({
  client_id: 'terraform-cli',
  redirect_uri: MATRIX_REDIRECT,
  state: 'matrix',
  code_challenge: createHash('sha256').update(MATRIX_VERIFIER).digest('base64url'),
  code_challenge_method: 'S256',
  response_type: 'code',
});

/** A fresh authorization code: the read member consents through the console session. */
async function consentCode(w: World): Promise<string> {
  const res = await call('POST', '/api/console/oauth/authorize', null, {
    body: consentBody(),
    headers: { ...sessionHeaders(w.session), 'Content-Type': 'application/json' },
  });
  expect(res.status, res.text).to.equal(200);
  return new URL(res.body.redirect).searchParams.get('code')!;
}

// ---------------------------------------------------------------------------------------------
// The matrix: one entry per route, keyed "METHOD /full/path" as Express knows it.

const o = () => world.org.name;

const MATRIX: Record<string, Entry> = {
  // Outside the API router: public, or their own credential.
  'GET /healthz': { access: 'public', call: () => ({ path: '/healthz' }) },
  'GET /readyz': { access: 'public', call: () => ({ path: '/readyz' }) },
  'GET /.well-known/terraform.json': { access: 'public', call: () => ({ path: '/.well-known/terraform.json' }) },
  // The site's icon (the console's), for pages that name none.
  'GET /favicon.ico': { access: 'public', call: () => ({ path: '/favicon.ico' }) },
  // The console's pages and assets hold no data (they read it through the API): public.
  [`ALL ${CONSOLE_PATH}`]: {
    access: 'public',
    call: () => ({ path: `${CONSOLE_PATH}/organizations`, headers: { Accept: 'text/html' } }),
  },
  [`ALL ${BOARD_PATH}`]: {
    access: 'site-admin-basic',
    call: () => ({ path: `${BOARD_PATH}/`, basic: true, headers: { Accept: 'text/html' } }),
  },
  // Mounted before authentication.
  'GET /api/v2/ping': { access: 'public', call: () => ({ path: '/api/v2/ping' }) },
  'GET /api/v2/openapi.json': { access: 'public', call: () => ({ path: '/api/v2/openapi.json' }) },
  'PATCH /api/v2/task-results/:id/callback': {
    access: 'task-token',
    except: { anonymous: 401 },
    call: (w) => ({
      path: `/api/v2/task-results/${w.taskResult}/callback`,
      body: doc('task-results', { status: 'running' }),
    }),
  },

  // The console's sign-in API and terraform login (docs/security.md, "Sign-in"). Sign-in, password
  // links and the token endpoint carry their own credential in the body (anyone may try, the
  // credential decides); the others need the console's session, and no API token stands in for it.
  'POST /api/console/session': {
    access: 'public',
    call: (w) => ({
      path: '/api/console/session',
      body: { username: w.users.read.username, password: w.readPassword },
      headers: { 'Content-Type': 'application/json' },
    }),
  },
  'GET /api/console/session': { access: 'console-session', call: () => ({ path: '/api/console/session' }) },
  'DELETE /api/console/session': {
    // A success ends the session: the session caller signs in afresh for it.
    access: 'console-session',
    call: async (w, who) => {
      if (who !== 'readSession') return { path: '/api/console/session' };
      return {
        path: '/api/console/session',
        headers: sessionHeaders(await signIn(w.users.read.username, w.readPassword)),
      };
    },
  },
  'POST /api/console/password': {
    // Each caller sets the password of a fresh user with that user's reset link.
    access: 'public',
    call: async () => ({
      path: '/api/console/password',
      body: { token: await resetToken((await createUser()).id), password: 'matrix-password' },
      headers: { 'Content-Type': 'application/json' },
    }),
  },
  'GET /api/console/sso': { access: 'public', call: () => ({ path: '/api/console/sso' }) },
  'POST /api/console/password-reset': {
    // The same answer for every caller and every address: whether an account exists is not told.
    access: 'public',
    call: () => ({
      path: '/api/console/password-reset',
      body: { email: `${uniq('nobody')}@example.test` },
      headers: { 'Content-Type': 'application/json' },
    }),
  },
  'POST /api/console/oauth/authorize': {
    access: 'console-session',
    call: () => ({
      path: '/api/console/oauth/authorize',
      body: consentBody(),
      headers: { 'Content-Type': 'application/json' },
    }),
  },
  'POST /oauth/token': {
    // Each caller exchanges a fresh code the read member consented to.
    access: 'public',
    call: async (w) => {
      const code = await consentCode(w);
      const form = new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: MATRIX_REDIRECT,
        client_id: 'terraform-cli',
        code_verifier: MATRIX_VERIFIER,
      });
      return {
        path: '/oauth/token',
        raw: form.toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      };
    },
  },

  // Organizations.
  'POST /api/v2/organizations': {
    access: 'user-token',
    call: () => ({
      path: '/api/v2/organizations',
      body: doc('organizations', { name: uniq('org'), email: 'm@example.test' }),
    }),
  },
  'GET /api/v2/organizations': { access: 'authenticated', call: () => ({ path: '/api/v2/organizations' }) },
  'GET /api/v2/organizations/:org': { access: 'org-member', call: () => ({ path: `/api/v2/organizations/${o()}` }) },
  'PATCH /api/v2/organizations/:org': {
    access: 'org-owner-only',
    call: () => ({
      path: `/api/v2/organizations/${o()}`,
      body: doc('organizations', { email: `${uniq('m')}@example.test` }),
    }),
  },
  'DELETE /api/v2/organizations/:org': {
    access: 'org-owner-only',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/organizations/${allowed ? (await createOrg(w.org.owner)).name : o()}`,
    }),
  },
  'GET /api/v2/organizations/:org/entitlement-set': {
    access: 'org-member',
    call: () => ({ path: `/api/v2/organizations/${o()}/entitlement-set` }),
  },
  'POST /api/v2/organizations/:org/authentication-token': {
    // A success replaces the organization token: a fresh organization for those.
    access: 'org-owner-only',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/organizations/${allowed ? (await createOrg(w.org.owner)).name : o()}/authentication-token`,
    }),
  },
  'GET /api/v2/organizations/:org/authentication-token': {
    access: 'org-owner-only',
    call: () => ({ path: `/api/v2/organizations/${o()}/authentication-token` }),
  },
  'DELETE /api/v2/organizations/:org/authentication-token': {
    access: 'org-owner-only',
    call: async (w, _who, allowed) => {
      if (!allowed) return { path: `/api/v2/organizations/${o()}/authentication-token` };
      const fresh = (await createOrg(w.org.owner)).name;
      await must('POST', `/organizations/${fresh}/authentication-token`);
      return { path: `/api/v2/organizations/${fresh}/authentication-token` };
    },
  },

  // Users and their tokens. The target user is the read member.
  'GET /api/v2/account/details': { access: 'user-token', call: () => ({ path: '/api/v2/account/details' }) },
  // Each user caller updates their own account, with nothing to change.
  'PATCH /api/v2/account/update': {
    access: 'user-token',
    call: () => ({ path: '/api/v2/account/update', body: { data: { type: 'users' } } }),
  },
  'GET /api/v2/users/:id': {
    // Users sharing an organization with the target, and that organization's tokens, see it.
    access: 'org-member',
    call: (w) => ({ path: `/api/v2/users/${w.users.read.id}` }),
  },
  // The site admin's opa versions.
  'GET /api/v2/admin/opa-versions': { access: 'site-admin', call: () => ({ path: '/api/v2/admin/opa-versions' }) },
  'POST /api/v2/admin/opa-versions': {
    access: 'site-admin',
    call: () => ({
      path: '/api/v2/admin/opa-versions',
      body: doc('opa-versions', {
        version: `0.0.${Date.now()}${++versionCount}`,
        url: 'https://example.test/tool',
        sha: 'ab'.repeat(32),
      }),
    }),
  },
  'GET /api/v2/admin/opa-versions/:id': {
    access: 'site-admin',
    call: (w) => ({ path: `/api/v2/admin/opa-versions/${w.toolVersions.opa}` }),
  },
  'PATCH /api/v2/admin/opa-versions/:id': {
    access: 'site-admin',
    call: (w) => ({
      path: `/api/v2/admin/opa-versions/${w.toolVersions.opa}`,
      body: doc('opa-versions', { beta: true }),
    }),
  },
  'DELETE /api/v2/admin/opa-versions/:id': {
    access: 'site-admin',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/admin/opa-versions/${allowed ? await newToolVersion('opa') : w.toolVersions.opa}`,
    }),
  },
  // The site admin's sentinel versions.
  'GET /api/v2/admin/sentinel-versions': {
    access: 'site-admin',
    call: () => ({ path: '/api/v2/admin/sentinel-versions' }),
  },
  'POST /api/v2/admin/sentinel-versions': {
    access: 'site-admin',
    call: () => ({
      path: '/api/v2/admin/sentinel-versions',
      body: doc('sentinel-versions', {
        version: `0.0.${Date.now()}${++versionCount}`,
        url: 'https://example.test/tool',
        sha: 'ab'.repeat(32),
      }),
    }),
  },
  'GET /api/v2/admin/sentinel-versions/:id': {
    access: 'site-admin',
    call: (w) => ({ path: `/api/v2/admin/sentinel-versions/${w.toolVersions.sentinel}` }),
  },
  'PATCH /api/v2/admin/sentinel-versions/:id': {
    access: 'site-admin',
    call: (w) => ({
      path: `/api/v2/admin/sentinel-versions/${w.toolVersions.sentinel}`,
      body: doc('sentinel-versions', { beta: true }),
    }),
  },
  'DELETE /api/v2/admin/sentinel-versions/:id': {
    access: 'site-admin',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/admin/sentinel-versions/${allowed ? await newToolVersion('sentinel') : w.toolVersions.sentinel}`,
    }),
  },
  'GET /api/v2/admin/users': { access: 'site-admin', call: () => ({ path: '/api/v2/admin/users?q=u' }) },
  'POST /api/v2/admin/users/:id/actions/reset-password': {
    access: 'site-admin',
    call: (w) => ({ path: `/api/v2/admin/users/${w.users.plan.id}/actions/reset-password` }),
  },
  'POST /api/v2/admin/users/:id/actions/suspend': {
    access: 'site-admin',
    // A user of its own: suspending one the other cases act as would lock them out.
    call: async () => ({ path: `/api/v2/admin/users/${(await createUser()).id}/actions/suspend` }),
  },
  'POST /api/v2/admin/users/:id/actions/unsuspend': {
    access: 'site-admin',
    call: (w) => ({ path: `/api/v2/admin/users/${w.users.plan.id}/actions/unsuspend` }),
  },
  'GET /api/v2/admin/organizations': {
    access: 'site-admin',
    call: () => ({ path: '/api/v2/admin/organizations?q=o' }),
  },
  'POST /api/v2/admin/users': {
    access: 'site-admin',
    call: () => ({
      path: '/api/v2/admin/users',
      body: doc('users', { username: uniq('u'), email: `${uniq('u')}@example.test` }),
    }),
  },
  'POST /api/v2/users/:id/authentication-tokens': {
    access: 'self-user',
    call: (w) => ({
      path: `/api/v2/users/${w.users.read.id}/authentication-tokens`,
      body: doc('authentication-tokens', { description: 'm' }),
    }),
  },
  'GET /api/v2/users/:id/authentication-tokens': {
    access: 'self-user',
    call: (w) => ({ path: `/api/v2/users/${w.users.read.id}/authentication-tokens` }),
  },
  'GET /api/v2/authentication-tokens/:id': {
    access: 'self-user',
    call: (w) => ({ path: `/api/v2/authentication-tokens/${w.readToken}` }),
  },
  'DELETE /api/v2/authentication-tokens/:id': {
    access: 'self-user',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/authentication-tokens/${allowed ? (await must('POST', `/users/${w.users.read.id}/authentication-tokens`, doc('authentication-tokens', { description: 'm' }), w.users.read.token)).data.id : w.readToken}`,
    }),
  },

  // Organization memberships.
  'POST /api/v2/organizations/:org/organization-memberships': {
    access: 'manage-membership',
    call: () => ({
      path: `/api/v2/organizations/${o()}/organization-memberships`,
      body: doc('organization-memberships', { email: `${uniq('inv')}@example.test` }),
    }),
  },
  'GET /api/v2/organizations/:org/organization-memberships': {
    access: 'org-member',
    call: () => ({ path: `/api/v2/organizations/${o()}/organization-memberships` }),
  },
  // The caller's own memberships: any user (the list holds only their own), no team or organization token.
  'GET /api/v2/organization-memberships': {
    access: 'user-token',
    call: () => ({ path: '/api/v2/organization-memberships' }),
  },
  'GET /api/v2/organization-memberships/:id': {
    // The read member's own membership: anyone in the organization sees it.
    access: 'org-member',
    call: (w) => ({ path: `/api/v2/organization-memberships/${w.readMembership}` }),
  },
  'DELETE /api/v2/organization-memberships/:id': {
    access: 'manage-membership',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/organization-memberships/${allowed ? (await must('POST', `/organizations/${o()}/organization-memberships`, doc('organization-memberships', { email: `${uniq('inv')}@example.test` }))).data.id : w.readMembership}`,
    }),
  },
  'POST /api/v2/organization-memberships/:id/actions/accept': {
    // Only the invited user: the read member, invited into a third organization.
    access: 'self-user',
    except: { siteAdmin: 404 },
    call: async (w) => {
      const third = await createOrg(w.other.owner);
      const invite = await must(
        'POST',
        `/organizations/${third.name}/organization-memberships`,
        doc('organization-memberships', { email: w.users.read.email }),
        w.other.owner.token,
      );
      return { path: `/api/v2/organization-memberships/${invite.data.id}/actions/accept` };
    },
  },

  // Teams. The target is a secret team nobody under test belongs to.
  'POST /api/v2/organizations/:org/teams': {
    access: 'manage-teams',
    call: () => ({ path: `/api/v2/organizations/${o()}/teams`, body: doc('teams', { name: uniq('team') }) }),
  },
  'GET /api/v2/organizations/:org/teams': {
    access: 'org-member',
    call: () => ({ path: `/api/v2/organizations/${o()}/teams` }),
  },
  'GET /api/v2/teams/:id': {
    // A secret team is visible to its members and to manage-teams / access-secret-teams.
    access: 'manage-teams',
    call: (w) => ({ path: `/api/v2/teams/${w.secretTeam}` }),
  },
  'PATCH /api/v2/teams/:id': {
    access: 'manage-teams',
    call: (w) => ({ path: `/api/v2/teams/${w.secretTeam}`, body: doc('teams', { visibility: 'secret' }) }),
  },
  'DELETE /api/v2/teams/:id': {
    access: 'manage-teams',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/teams/${allowed ? await newTeam({ visibility: 'secret' }) : w.secretTeam}`,
    }),
  },
  'POST /api/v2/teams/:id/authentication-token': {
    // A team has one token: a fresh team for each success.
    access: 'manage-teams',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/teams/${allowed ? await newTeam({ visibility: 'secret' }) : w.secretTeam}/authentication-token`,
    }),
  },
  'GET /api/v2/teams/:id/authentication-token': {
    access: 'manage-teams',
    call: teamWithToken,
  },
  'POST /api/v2/teams/:id/authentication-tokens': {
    // A described token, whose description each success takes.
    access: 'manage-teams',
    call: (w) => ({
      path: `/api/v2/teams/${w.secretTeam}/authentication-tokens`,
      body: doc('authentication-tokens', { description: uniq('matrix') }),
    }),
  },
  'GET /api/v2/teams/:id/authentication-tokens': {
    access: 'manage-teams',
    call: (w) => ({ path: `/api/v2/teams/${w.secretTeam}/authentication-tokens` }),
  },
  'GET /api/v2/organizations/:org/team-tokens': {
    access: 'manage-teams',
    call: () => ({ path: `/api/v2/organizations/${o()}/team-tokens` }),
  },
  'DELETE /api/v2/teams/:id/authentication-token': {
    access: 'manage-teams',
    call: teamWithToken,
  },
  'POST /api/v2/teams/:id/relationships/users': {
    access: 'manage-membership',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/teams/${allowed ? await newTeam({ visibility: 'secret' }) : w.secretTeam}/relationships/users`,
      body: { data: [{ type: 'users', id: w.users.read.username }] },
    }),
  },
  'DELETE /api/v2/teams/:id/relationships/users': {
    access: 'manage-membership',
    call: async (w, _who, allowed) => {
      const team = allowed ? await newTeam({ visibility: 'secret' }) : w.secretTeam;
      if (allowed)
        await must('POST', `/teams/${team}/relationships/users`, {
          data: [{ type: 'users', id: w.users.read.username }],
        });
      return {
        path: `/api/v2/teams/${team}/relationships/users`,
        body: { data: [{ type: 'users', id: w.users.read.username }] },
      };
    },
  },
  'POST /api/v2/teams/:id/relationships/organization-memberships': {
    access: 'manage-membership',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/teams/${allowed ? await newTeam({ visibility: 'secret' }) : w.secretTeam}/relationships/organization-memberships`,
      body: { data: [{ type: 'organization-memberships', id: w.readMembership }] },
    }),
  },
  'DELETE /api/v2/teams/:id/relationships/organization-memberships': {
    access: 'manage-membership',
    call: async (w, _who, allowed) => {
      const team = allowed ? await newTeam({ visibility: 'secret' }) : w.secretTeam;
      const body = { data: [{ type: 'organization-memberships', id: w.readMembership }] };
      if (allowed) await must('POST', `/teams/${team}/relationships/organization-memberships`, body);
      return { path: `/api/v2/teams/${team}/relationships/organization-memberships`, body };
    },
  },

  // Team access to workspaces: workspace admin access.
  'POST /api/v2/team-workspaces': {
    access: 'workspace-admin',
    call: async (w) => ({
      path: '/api/v2/team-workspaces',
      body: doc(
        'team-workspaces',
        { access: 'read' },
        { workspace: rel('workspaces', w.ws.id), team: rel('teams', await newTeam()) },
      ),
    }),
  },
  'GET /api/v2/team-workspaces': {
    access: 'workspace-admin',
    call: (w) => ({ path: `/api/v2/team-workspaces?filter[workspace][id]=${w.ws.id}` }),
  },
  'GET /api/v2/team-workspaces/:id': {
    access: 'workspace-admin',
    call: (w) => ({ path: `/api/v2/team-workspaces/${w.readGrant}` }),
  },
  'PATCH /api/v2/team-workspaces/:id': {
    access: 'workspace-admin',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/team-workspaces/${allowed ? await grant(await newTeam(), w.ws.id, 'read') : w.spareGrant}`,
      body: doc('team-workspaces', { access: 'plan' }),
    }),
  },
  'DELETE /api/v2/team-workspaces/:id': {
    access: 'workspace-admin',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/team-workspaces/${allowed ? await grant(await newTeam(), w.ws.id, 'read') : w.spareGrant}`,
    }),
  },

  // Workspaces.
  'POST /api/v2/organizations/:org/workspaces': {
    access: 'manage-workspaces',
    call: () => ({ path: `/api/v2/organizations/${o()}/workspaces`, body: doc('workspaces', { name: uniq('ws') }) }),
  },
  'GET /api/v2/organizations/:org/workspaces': {
    access: 'org-member',
    call: () => ({ path: `/api/v2/organizations/${o()}/workspaces` }),
  },
  'GET /api/v2/organizations/:org/workspaces/:name': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/organizations/${o()}/workspaces/${w.ws.name}` }),
  },
  'PATCH /api/v2/organizations/:org/workspaces/:name': {
    access: 'workspace-admin',
    call: (w) => ({
      path: `/api/v2/organizations/${o()}/workspaces/${w.ws.name}`,
      body: doc('workspaces', { description: uniq('d') }),
    }),
  },
  'DELETE /api/v2/organizations/:org/workspaces/:name': {
    access: 'workspace-admin',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/organizations/${o()}/workspaces/${allowed ? (await freshWorkspace()).name : w.ws.name}`,
    }),
  },
  'GET /api/v2/workspaces/:id': { access: 'workspace-read', call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}` }) },
  'POST /api/v2/workspaces/:id/actions/lock': {
    access: 'workspace-write',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/workspaces/${allowed ? (await freshWorkspace()).id : w.ws.id}/actions/lock`,
      body: { reason: 'matrix' },
    }),
  },
  'POST /api/v2/workspaces/:id/actions/unlock': {
    // The holder unlocks: each allowed caller locks a fresh workspace first.
    access: 'workspace-write',
    call: async (w, who, allowed) => {
      if (!allowed) return { path: `/api/v2/workspaces/${w.ws.id}/actions/unlock` };
      const ws = await freshWorkspace();
      await must('POST', `/workspaces/${ws.id}/actions/lock`, {}, w.tokens[who as Exclude<Who, 'anonymous'>]);
      return { path: `/api/v2/workspaces/${ws.id}/actions/unlock` };
    },
  },
  'POST /api/v2/workspaces/:id/actions/force-unlock': {
    access: 'workspace-admin',
    call: async (w, _who, allowed) => {
      if (!allowed) return { path: `/api/v2/workspaces/${w.ws.id}/actions/force-unlock` };
      const ws = await freshWorkspace();
      await must('POST', `/workspaces/${ws.id}/actions/lock`, {});
      return { path: `/api/v2/workspaces/${ws.id}/actions/force-unlock` };
    },
  },
  'PATCH /api/v2/workspaces/:id': {
    access: 'workspace-admin',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}`, body: doc('workspaces', { description: uniq('d') }) }),
  },
  'DELETE /api/v2/workspaces/:id': {
    access: 'workspace-admin',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/workspaces/${allowed ? (await freshWorkspace()).id : w.ws.id}`,
    }),
  },
  'POST /api/v2/workspaces/:id/actions/safe-delete': {
    access: 'workspace-admin',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/workspaces/${allowed ? (await freshWorkspace()).id : w.ws.id}/actions/safe-delete`,
    }),
  },
  'POST /api/v2/organizations/:org/workspaces/:name/actions/safe-delete': {
    access: 'workspace-admin',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/organizations/${o()}/workspaces/${allowed ? (await freshWorkspace()).name : w.ws.name}/actions/safe-delete`,
    }),
  },

  // Configuration versions.
  'GET /api/v2/workspaces/:id/configuration-versions': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/configuration-versions` }),
  },
  'POST /api/v2/workspaces/:id/configuration-versions': {
    // Plan access gets speculative versions only (authorization-fixes); organization tokens may not create versions (contract).
    access: 'workspace-plan',
    except: { orgToken: 403 },
    call: (w) => ({
      path: `/api/v2/workspaces/${w.ws.id}/configuration-versions`,
      body: doc('configuration-versions', { speculative: true }),
    }),
    variants: {
      'a version that can become current (write access)': {
        access: 'workspace-write',
        except: { orgToken: 403 },
        call: (w) => ({
          path: `/api/v2/workspaces/${w.ws.id}/configuration-versions`,
          body: doc('configuration-versions', { speculative: false }),
        }),
      },
    },
  },
  'GET /api/v2/configuration-versions/:id': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/configuration-versions/${w.cv}` }),
    // A module test version follows the module's tests: owners only.
    variants: {
      'module test version': {
        access: 'org-owner-only',
        call: (w) => ({ path: `/api/v2/configuration-versions/${w.testCv}` }),
      },
    },
  },
  'GET /api/v2/configuration-versions/:id/ingress-attributes': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/configuration-versions/${w.cv}/ingress-attributes` }),
  },
  'POST /api/v2/configuration-versions/:id/actions/archive': {
    access: 'workspace-write',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/configuration-versions/${allowed ? await uploadedCv(w.ws.id, { provisional: true }) : w.cv}/actions/archive`,
    }),
  },
  'GET /api/v2/configuration-versions/:id/download': {
    access: 'workspace-read',
    except: downloads(),
    call: (w) => ({ path: `/api/v2/configuration-versions/${w.cv}/download` }),
  },
  'GET /api/v2/runs/:id/configuration-version/download': {
    access: 'workspace-read',
    except: downloads(),
    call: (w) => ({ path: `/api/v2/runs/${w.run}/configuration-version/download` }),
  },
  'POST /api/v2/configuration-versions/:id/actions/soft_delete_backing_data': {
    access: 'workspace-admin',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/configuration-versions/${allowed ? await uploadedCv(w.ws.id, { provisional: true }) : w.cv}/actions/soft_delete_backing_data`,
    }),
  },
  'POST /api/v2/configuration-versions/:id/actions/restore_backing_data': {
    access: 'workspace-admin',
    call: async (w, _who, allowed) => {
      if (!allowed) return { path: `/api/v2/configuration-versions/${w.cv}/actions/restore_backing_data` };
      const cv = await uploadedCv(w.ws.id, { provisional: true });
      await must('POST', `/configuration-versions/${cv}/actions/soft_delete_backing_data`);
      return { path: `/api/v2/configuration-versions/${cv}/actions/restore_backing_data` };
    },
  },
  'POST /api/v2/configuration-versions/:id/actions/permanently_delete_backing_data': {
    // Permanent deletion follows a soft delete.
    access: 'workspace-admin',
    call: async (w, _who, allowed) => {
      if (!allowed) return { path: `/api/v2/configuration-versions/${w.cv}/actions/permanently_delete_backing_data` };
      const cv = await uploadedCv(w.ws.id, { provisional: true });
      await must('POST', `/configuration-versions/${cv}/actions/soft_delete_backing_data`);
      return { path: `/api/v2/configuration-versions/${cv}/actions/permanently_delete_backing_data` };
    },
  },

  // Runs, plans, applies.
  'POST /api/v2/runs': {
    // A plan-only run needs plan access; a run that can apply needs write.
    access: 'workspace-plan',
    call: async (w, _who, allowed) => ({
      path: '/api/v2/runs',
      body: doc('runs', { 'plan-only': true }, await runTarget(w, allowed)),
    }),
    variants: {
      'a run that can apply': {
        access: 'workspace-write',
        call: async (w, _who, allowed) => ({
          path: '/api/v2/runs',
          body: doc('runs', {}, await runTarget(w, allowed)),
        }),
      },
    },
  },
  'GET /api/v2/runs/:id': { access: 'workspace-read', call: (w) => ({ path: `/api/v2/runs/${w.run}` }) },
  'GET /api/v2/runs/:id/run-events': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/runs/${w.run}/run-events` }),
  },
  'GET /api/v2/runs/:id/commit-statuses': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/runs/${w.run}/commit-statuses` }),
  },
  'GET /api/v2/run-events/:id': {
    access: 'workspace-read',
    call: async (w) => ({
      path: `/api/v2/run-events/${(await db()('run_events').where({ run_id: w.run }).first('id')).id}`,
    }),
  },
  // Comments: whoever may read the run may read and post them (the run's can-comment).
  'GET /api/v2/runs/:id/comments': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/runs/${w.run}/comments` }),
  },
  'POST /api/v2/runs/:id/comments': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/runs/${w.run}/comments`, body: doc('comments', { body: 'a comment' }) }),
  },
  'GET /api/v2/comments/:id': {
    access: 'workspace-read',
    call: async (w) => ({
      path: `/api/v2/comments/${(await must('POST', `/runs/${w.run}/comments`, doc('comments', { body: 'to read' }))).data.id}`,
    }),
  },
  'POST /api/v2/runs/:id/actions/apply': {
    access: 'workspace-write',
    call: async (w, _who, allowed) => ({ path: `/api/v2/runs/${allowed ? await plannedRun() : w.run}/actions/apply` }),
  },
  'POST /api/v2/runs/:id/actions/discard': {
    access: 'workspace-write',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/runs/${allowed ? await plannedRun() : w.run}/actions/discard`,
    }),
  },
  'POST /api/v2/runs/:id/actions/cancel': {
    // Stopping a run needs the access that creates it: write for a run that can apply.
    access: 'workspace-write',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/runs/${allowed ? await newRun((await freshWorkspace()).id) : w.run}/actions/cancel`,
    }),
    variants: {
      'a plan-only run (plan access)': {
        access: 'workspace-plan',
        call: async (w, _who, allowed) => ({
          path: `/api/v2/runs/${allowed ? await newRun((await freshWorkspace()).id, { 'plan-only': true }) : w.run}/actions/cancel`,
        }),
      },
    },
  },
  'POST /api/v2/runs/:id/actions/force-cancel': {
    access: 'workspace-write',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/runs/${allowed ? await cancelRequestedRun() : w.run}/actions/force-cancel`,
    }),
  },
  'POST /api/v2/runs/:id/actions/force-execute': {
    access: 'workspace-write',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/runs/${allowed ? await runWaitingBehindPlanned() : w.run}/actions/force-execute`,
    }),
  },
  'GET /api/v2/workspaces/:id/runs': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/runs` }),
  },
  'GET /api/v2/organizations/:org/runs': {
    access: 'org-member',
    call: () => ({ path: `/api/v2/organizations/${o()}/runs` }),
  },
  'GET /api/v2/organizations/:org/runs/queue': {
    access: 'org-member',
    call: () => ({ path: `/api/v2/organizations/${o()}/runs/queue` }),
  },
  'GET /api/v2/organizations/:org/capacity': {
    access: 'org-member',
    call: () => ({ path: `/api/v2/organizations/${o()}/capacity` }),
  },
  'GET /api/v2/plans/:id': { access: 'workspace-read', call: (w) => ({ path: `/api/v2/plans/${w.plan}` }) },
  'GET /api/v2/plans/:id/json-output': {
    access: 'workspace-admin',
    call: (w) => ({ path: `/api/v2/plans/${w.plan}/json-output` }),
  },
  'GET /api/v2/plans/:id/json-output-redacted': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/plans/${w.plan}/json-output-redacted` }),
  },
  'GET /api/v2/applies/:id': { access: 'workspace-read', call: (w) => ({ path: `/api/v2/applies/${w.apply}` }) },

  // State and assessments. Read and plan access see metadata (no download, no sensitive values).
  'GET /api/v2/workspaces/:id/current-state-version': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/current-state-version` }),
  },
  'GET /api/v2/workspaces/:id/current-state-version-outputs': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/current-state-version-outputs` }),
  },
  'GET /api/v2/state-versions/:id': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/state-versions/${w.sv}` }),
  },
  'GET /api/v2/state-version-outputs/:id': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/state-version-outputs/${w.svOutput}` }),
  },
  'POST /api/v2/state-versions/:id/actions/soft_delete_backing_data': {
    access: 'workspace-admin',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/state-versions/${allowed ? await formerStateVersion() : w.sv}/actions/soft_delete_backing_data`,
    }),
  },
  'POST /api/v2/state-versions/:id/actions/restore_backing_data': {
    access: 'workspace-admin',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/state-versions/${allowed ? await formerStateVersion(true) : w.sv}/actions/restore_backing_data`,
    }),
  },
  'POST /api/v2/state-versions/:id/actions/permanently_delete_backing_data': {
    access: 'workspace-admin',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/state-versions/${allowed ? await formerStateVersion(true) : w.sv}/actions/permanently_delete_backing_data`,
    }),
  },
  'GET /api/v2/state-versions/:id/outputs': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/state-versions/${w.sv}/outputs` }),
  },
  'GET /api/v2/workspaces/:id/state-versions': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/state-versions` }),
  },
  'GET /api/v2/workspaces/:id/resources': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/resources` }),
  },
  'GET /api/v2/state-versions': {
    access: 'workspace-read',
    call: (w) => ({
      path: `/api/v2/state-versions?filter[workspace][name]=${w.ws.name}&filter[organization][name]=${o()}`,
    }),
  },
  'POST /api/v2/workspaces/:id/state-versions': {
    // Write access and the lock: each allowed caller locks a fresh workspace first.
    access: 'workspace-write',
    call: async (w, who, allowed) => {
      if (!allowed) return { path: `/api/v2/workspaces/${w.ws.id}/state-versions`, body: matrixState(1) };
      const ws = await freshWorkspace();
      await must('POST', `/workspaces/${ws.id}/actions/lock`, {}, w.tokens[who as Exclude<Who, 'anonymous'>]);
      return { path: `/api/v2/workspaces/${ws.id}/state-versions`, body: matrixState(1) };
    },
  },
  'POST /api/v2/workspaces/:id/actions/rollback': {
    // Write access and the lock: each allowed caller locks a fresh workspace and stores a state to roll back to.
    access: 'workspace-write',
    call: async (w, who, allowed) => {
      if (!allowed)
        return {
          path: `/api/v2/workspaces/${w.ws.id}/actions/rollback`,
          body: { data: { type: 'state-versions', id: w.sv } },
        };
      const token = w.tokens[who as Exclude<Who, 'anonymous'>];
      const ws = await freshWorkspace();
      await must('POST', `/workspaces/${ws.id}/actions/lock`, {}, token);
      const sv = (await must('POST', `/workspaces/${ws.id}/state-versions`, matrixState(1), token)).data.id;
      return {
        path: `/api/v2/workspaces/${ws.id}/actions/rollback`,
        body: { data: { type: 'state-versions', id: sv } },
      };
    },
  },
  'GET /api/v2/workspaces/:id/relationships/remote-state-consumers': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/relationships/remote-state-consumers` }),
  },
  'POST /api/v2/workspaces/:id/relationships/remote-state-consumers': {
    access: 'workspace-admin',
    call: async (w) => ({
      path: `/api/v2/workspaces/${w.ws.id}/relationships/remote-state-consumers`,
      body: { data: [{ type: 'workspaces', id: (await freshWorkspace()).id }] },
    }),
  },
  'PATCH /api/v2/workspaces/:id/relationships/remote-state-consumers': {
    access: 'workspace-admin',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/relationships/remote-state-consumers`, body: { data: [] } }),
  },
  'DELETE /api/v2/workspaces/:id/relationships/remote-state-consumers': {
    access: 'workspace-admin',
    call: (w) => ({
      path: `/api/v2/workspaces/${w.ws.id}/relationships/remote-state-consumers`,
      body: { data: [{ type: 'workspaces', id: w.ws.id }] },
    }),
  },
  // Tags: read with the workspace, changed by its admins; the organization's list by any member.
  'GET /api/v2/workspaces/:id/relationships/tags': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/relationships/tags` }),
  },
  'POST /api/v2/workspaces/:id/relationships/tags': {
    access: 'workspace-admin',
    call: (w) => ({
      path: `/api/v2/workspaces/${w.ws.id}/relationships/tags`,
      body: { data: [{ type: 'tags', attributes: { name: 'matrix' } }] },
    }),
  },
  'DELETE /api/v2/workspaces/:id/relationships/tags': {
    access: 'workspace-admin',
    call: (w) => ({
      path: `/api/v2/workspaces/${w.ws.id}/relationships/tags`,
      body: { data: [{ type: 'tags', attributes: { name: 'matrix' } }] },
    }),
  },
  'GET /api/v2/organizations/:org/tags': {
    access: 'org-member',
    call: () => ({ path: `/api/v2/organizations/${o()}/tags` }),
  },
  'DELETE /api/v2/organizations/:org/tags': {
    access: 'manage-workspaces',
    call: async (w, _who, allowed) => {
      if (!allowed)
        return { path: `/api/v2/organizations/${o()}/tags`, body: { data: [{ type: 'tags', id: 'tag-none' }] } };
      // A name of its own: another caller's entry may delete its tag meanwhile.
      const name = uniq('doomed');
      await must('POST', `/workspaces/${w.ws.id}/relationships/tags`, {
        data: [{ type: 'tags', attributes: { name } }],
      });
      const tags = await must('GET', `/workspaces/${w.ws.id}/relationships/tags`);
      const doomed = tags.data.find((t: { attributes: { name: string } }) => t.attributes.name === name);
      return { path: `/api/v2/organizations/${o()}/tags`, body: { data: [{ type: 'tags', id: doomed.id }] } };
    },
  },
  'POST /api/v2/tags/:id/relationships/workspaces': {
    access: 'manage-workspaces',
    call: async (w) => {
      await must('POST', `/workspaces/${w.ws.id}/relationships/tags`, {
        data: [{ type: 'tags', attributes: { name: 'shared' } }],
      });
      const tags = await must('GET', `/workspaces/${w.ws.id}/relationships/tags`);
      const shared = tags.data.find((t: { attributes: { name: string } }) => t.attributes.name === 'shared');
      return {
        path: `/api/v2/tags/${shared.id}/relationships/workspaces`,
        body: { data: [{ type: 'workspaces', id: w.ws.id }] },
      };
    },
  },
  'GET /api/v2/workspaces/:id/current-assessment-result': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/current-assessment-result` }),
  },
  'GET /api/v2/assessment-results/:id': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/assessment-results/${w.assessment}` }),
  },

  // Run tasks.
  'POST /api/v2/organizations/:org/tasks': {
    access: 'manage-run-tasks',
    call: () => ({
      path: `/api/v2/organizations/${o()}/tasks`,
      body: doc('tasks', { name: uniq('task'), url: endpoint.url, category: 'task' }),
    }),
  },
  'GET /api/v2/organizations/:org/tasks': {
    access: 'org-member',
    call: () => ({ path: `/api/v2/organizations/${o()}/tasks` }),
  },
  'GET /api/v2/tasks/:id': { access: 'org-member', call: (w) => ({ path: `/api/v2/tasks/${w.task}` }) },
  'PATCH /api/v2/tasks/:id': {
    access: 'manage-run-tasks',
    call: (w) => ({ path: `/api/v2/tasks/${w.task}`, body: doc('tasks', { description: uniq('d') }) }),
  },
  'DELETE /api/v2/tasks/:id': {
    access: 'manage-run-tasks',
    call: async (w, _who, allowed) => ({ path: `/api/v2/tasks/${allowed ? await insertTask() : w.task}` }),
  },
  'POST /api/v2/workspaces/:id/tasks': {
    access: 'workspace-admin',
    call: async (w) => ({
      path: `/api/v2/workspaces/${w.ws.id}/tasks`,
      body: doc(
        'workspace-tasks',
        { 'enforcement-level': 'advisory', stages: ['post_plan'] },
        { task: rel('tasks', await insertTask()) },
      ),
    }),
  },
  'GET /api/v2/workspaces/:id/tasks': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/tasks` }),
  },
  'GET /api/v2/workspaces/:id/tasks/:wstask': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/tasks/${w.wsTask}` }),
  },
  'PATCH /api/v2/workspaces/:id/tasks/:wstask': {
    access: 'workspace-admin',
    call: (w) => ({
      path: `/api/v2/workspaces/${w.ws.id}/tasks/${w.wsTask}`,
      body: doc('workspace-tasks', { 'enforcement-level': 'advisory' }),
    }),
  },
  'DELETE /api/v2/workspaces/:id/tasks/:wstask': {
    access: 'workspace-admin',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/workspaces/${w.ws.id}/tasks/${allowed ? (await must('POST', `/workspaces/${w.ws.id}/tasks`, doc('workspace-tasks', { 'enforcement-level': 'advisory', stages: ['post_plan'] }, { task: rel('tasks', await insertTask()) }))).data.id : w.wsTask}`,
    }),
  },
  'GET /api/v2/runs/:id/task-stages': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/runs/${w.run}/task-stages` }),
  },
  'GET /api/v2/task-stages/:id': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/task-stages/${w.taskStage}` }),
  },
  'POST /api/v2/task-stages/:id/actions/override': {
    // manage-policy-overrides, on a workspace the caller sees, for a stage awaiting an override.
    access: 'manage-policy-overrides',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/task-stages/${allowed ? await awaitingStage() : w.taskStage}/actions/override`,
      body: {},
    }),
    variants: {
      'a stage not awaiting an override': {
        // Whoever may override gets 409 (transition not allowed); task failures are never overridable.
        access: 'manage-policy-overrides',
        except: { orgToken: 409, owner: 409, siteAdmin: 409 },
        call: (w) => ({ path: `/api/v2/task-stages/${w.taskStage}/actions/override`, body: {} }),
      },
    },
  },
  'GET /api/v2/task-stages/:id/policy-evaluations': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/task-stages/${w.taskStage}/policy-evaluations` }),
  },
  'GET /api/v2/policy-evaluations/:id/policy-set-outcomes': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/policy-evaluations/${w.policyEvaluation}/policy-set-outcomes` }),
  },
  'GET /api/v2/policy-set-outcomes/:id': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/policy-set-outcomes/${w.policySetOutcome}` }),
  },
  'GET /api/v2/task-results/:id': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/task-results/${w.taskResult}` }),
  },

  // Notification configurations: workspace admins.
  'POST /api/v2/workspaces/:id/notification-configurations': {
    access: 'workspace-admin',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/notification-configurations`, body: notificationDoc() }),
  },
  'GET /api/v2/workspaces/:id/notification-configurations': {
    access: 'workspace-admin',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/notification-configurations` }),
  },
  'GET /api/v2/notification-configurations/:id': {
    access: 'workspace-admin',
    call: (w) => ({ path: `/api/v2/notification-configurations/${w.notification}` }),
  },
  'PATCH /api/v2/notification-configurations/:id': {
    access: 'workspace-admin',
    call: (w) => ({
      path: `/api/v2/notification-configurations/${w.notification}`,
      body: doc('notification-configurations', { name: uniq('nc') }),
    }),
  },
  'DELETE /api/v2/notification-configurations/:id': {
    access: 'workspace-admin',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/notification-configurations/${allowed ? await newNotification() : w.notification}`,
    }),
  },
  'POST /api/v2/notification-configurations/:id/actions/verify': {
    access: 'workspace-admin',
    call: (w) => ({ path: `/api/v2/notification-configurations/${w.notification}/actions/verify` }),
  },
  'GET /api/v2/notification-configurations/:id/deliveries': {
    access: 'workspace-admin',
    call: (w) => ({ path: `/api/v2/notification-configurations/${w.notification}/deliveries` }),
  },
  'POST /api/v2/notification-deliveries/:id/actions/resend': {
    // A resend makes the delivery pending again: a fresh delivered one for each success.
    access: 'workspace-admin',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/notification-deliveries/${allowed ? await newDelivery() : w.delivery}/actions/resend`,
    }),
  },

  // Private registry modules and their tests: tests are for owners (and their team token) only.
  'POST /api/v2/organizations/:org/registry-modules': {
    access: 'manage-modules',
    call: () => ({
      path: `/api/v2/organizations/${o()}/registry-modules`,
      body: doc('registry-modules', {
        name: uniq('mod').replace(/-/g, ''),
        provider: 'null',
        'registry-name': 'private',
        namespace: o(),
      }),
    }),
  },
  'POST /api/v2/organizations/:org/registry-modules/vcs': {
    access: 'manage-modules',
    call: (w) => ({
      path: `/api/v2/organizations/${o()}/registry-modules/vcs`,
      body: doc('registry-modules', {
        'vcs-repo': {
          identifier: `acme/terraform-null-${uniq('mod').replace(/-/g, '')}`,
          'oauth-token-id': w.oauthToken,
        },
      }),
    }),
  },
  // The older creation from a repository: the organization is the token's.
  'POST /api/v2/registry-modules': {
    access: 'manage-modules',
    call: (w) => ({
      path: '/api/v2/registry-modules',
      body: doc('registry-modules', {
        'vcs-repo': {
          identifier: `acme/terraform-null-${uniq('mod').replace(/-/g, '')}`,
          'oauth-token-id': w.oauthToken,
        },
      }),
    }),
  },
  'GET /api/v2/organizations/:org/registry-modules': {
    access: 'org-member',
    call: () => ({ path: `/api/v2/organizations/${o()}/registry-modules` }),
  },
  'GET /api/v2/organizations/:org/registry-modules/:registry/:namespace/:name/:provider': {
    access: 'org-member',
    call: (w) => ({ path: `/api/v2${w.module.self}` }),
  },
  'DELETE /api/v2/organizations/:org/registry-modules/:registry/:namespace/:name/:provider': {
    access: 'manage-modules',
    call: async (w, _who, allowed) => ({ path: `/api/v2${allowed ? (await newModule()).self : w.module.self}` }),
  },
  'DELETE /api/v2/organizations/:org/registry-modules/:registry/:namespace/:name': {
    access: 'manage-modules',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/organizations/${o()}/registry-modules/private/${o()}/${allowed ? (await newModule()).name : w.module.name}`,
    }),
  },
  'POST /api/v2/organizations/:org/registry-modules/:registry/:namespace/:name/:provider/versions': {
    access: 'manage-modules',
    call: (w) => ({
      path: `/api/v2${w.module.self}/versions`,
      body: doc('registry-module-versions', { version: `3.0.${++versionCount}` }),
    }),
  },
  'GET /api/v2/organizations/:org/registry-modules/:registry/:namespace/:name/:provider/version': {
    access: 'org-member',
    call: (w) => ({ path: `/api/v2${w.module.self}/version?module_version=1.0.0` }),
  },
  'GET /api/v2/organizations/:org/registry-modules/:registry/:namespace/:name/:provider/:version': {
    access: 'org-member',
    call: (w) => ({ path: `/api/v2${w.module.self}/1.0.0` }),
  },
  'DELETE /api/v2/organizations/:org/registry-modules/:registry/:namespace/:name/:provider/:version': {
    access: 'manage-modules',
    call: async (w, _who, allowed) => ({
      path: `/api/v2${w.module.self}/${allowed ? await newModuleVersion() : '1.0.0'}`,
    }),
  },
  'POST /api/v2/registry-modules/:org/:name/:provider/versions': {
    access: 'manage-modules',
    call: (w) => ({
      path: `/api/v2/registry-modules/${o()}/${w.module.name}/null/versions`,
      body: doc('registry-module-versions', { version: `4.0.${++versionCount}` }),
    }),
  },
  'GET /api/v2/registry-modules/:id': {
    access: 'org-member',
    call: (w) => ({ path: `/api/v2/registry-modules/${w.module.id}` }),
  },
  'POST /api/v2/registry-modules/actions/delete/:org/:name': {
    access: 'manage-modules',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/registry-modules/actions/delete/${o()}/${allowed ? (await newModule()).name : w.module.name}`,
    }),
  },
  'POST /api/v2/registry-modules/actions/delete/:org/:name/:provider': {
    access: 'manage-modules',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/registry-modules/actions/delete/${o()}/${allowed ? (await newModule()).name : w.module.name}/null`,
    }),
  },
  'POST /api/v2/registry-modules/actions/delete/:org/:name/:provider/:version': {
    access: 'manage-modules',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/registry-modules/actions/delete/${o()}/${w.module.name}/null/${allowed ? await newModuleVersion() : '1.0.0'}`,
    }),
  },
  'POST /api/v2/organizations/:org/tests/registry-modules/:registry/:namespace/:name/:provider/versions/:version/test-runs':
    {
      access: 'org-owner-only',
      call: (w) => ({ path: `/api/v2${w.module.tests}/versions/1.0.0/test-runs`, body: doc('test-runs', {}) }),
    },
  // The registry protocol Terraform speaks (a run's own token is covered by the registry CLI tests).
  'GET /api/registry/v1/modules/:namespace/:name/:provider/versions': {
    access: 'org-member',
    call: (w) => ({ path: `/api/registry/v1/modules/${o()}/${w.module.name}/null/versions` }),
  },
  'GET /api/registry/v1/modules/:namespace/:name/:provider/:version/download': {
    access: 'org-member',
    call: (w) => ({ path: `/api/registry/v1/modules/${o()}/${w.module.name}/null/1.0.0/download` }),
  },
  'GET /api/registry/v1/modules/:namespace/:name/:provider': {
    access: 'org-member',
    call: (w) => ({ path: `/api/registry/v1/modules/${o()}/${w.module.name}/null` }),
  },
  'GET /api/registry/v1/modules/:namespace/:name/:provider/:version': {
    access: 'org-member',
    call: (w) => ({ path: `/api/registry/v1/modules/${o()}/${w.module.name}/null/1.0.0` }),
  },
  'POST /api/v2/organizations/:org/tests/registry-modules/:registry/:namespace/:name/:provider/test-runs/configuration-versions':
    {
      access: 'org-owner-only',
      call: (w) => ({
        path: `/api/v2${w.module.tests}/test-runs/configuration-versions`,
        headers: { 'X-Terraform-Integration': 'cloud' },
      }),
    },
  'POST /api/v2/organizations/:org/tests/registry-modules/:registry/:namespace/:name/:provider/test-runs': {
    access: 'org-owner-only',
    call: (w) => ({
      path: `/api/v2${w.module.tests}/test-runs`,
      body: doc('test-runs', {}, { 'configuration-version': rel('configuration-versions', w.testCv) }),
    }),
  },
  'GET /api/v2/organizations/:org/tests/registry-modules/:registry/:namespace/:name/:provider/test-runs': {
    access: 'org-owner-only',
    call: (w) => ({ path: `/api/v2${w.module.tests}/test-runs` }),
  },
  'GET /api/v2/organizations/:org/tests/registry-modules/:registry/:namespace/:name/:provider/test-runs/:id': {
    access: 'org-owner-only',
    call: (w) => ({ path: `/api/v2${w.module.tests}/test-runs/${w.testRun}` }),
  },
  'POST /api/v2/organizations/:org/tests/registry-modules/:registry/:namespace/:name/:provider/test-runs/:id/cancel': {
    access: 'org-owner-only',
    call: async (w, _who, allowed) => ({
      path: `/api/v2${w.module.tests}/test-runs/${allowed ? await runningTestRun(false) : w.testRun}/cancel`,
    }),
  },
  'POST /api/v2/organizations/:org/tests/registry-modules/:registry/:namespace/:name/:provider/test-runs/:id/force-cancel':
    {
      access: 'org-owner-only',
      call: async (w, _who, allowed) => ({
        path: `/api/v2${w.module.tests}/test-runs/${allowed ? await runningTestRun(true) : w.testRun}/force-cancel`,
      }),
    },
  'POST /api/v2/organizations/:org/tests/registry-modules/:registry/:namespace/:name/:provider/vars': {
    access: 'org-owner-only',
    call: (w) => ({
      path: `/api/v2${w.module.tests}/vars`,
      body: doc('vars', { key: uniq('k').replace(/-/g, '_'), value: 'v', category: 'env' }),
    }),
  },
  'GET /api/v2/organizations/:org/tests/registry-modules/:registry/:namespace/:name/:provider/vars': {
    access: 'org-owner-only',
    call: (w) => ({ path: `/api/v2${w.module.tests}/vars` }),
  },
  'GET /api/v2/organizations/:org/tests/registry-modules/:registry/:namespace/:name/:provider/vars/:id': {
    access: 'org-owner-only',
    call: (w) => ({ path: `/api/v2${w.module.tests}/vars/${w.testVar}` }),
  },
  'PATCH /api/v2/organizations/:org/tests/registry-modules/:registry/:namespace/:name/:provider/vars/:id': {
    access: 'org-owner-only',
    call: (w) => ({ path: `/api/v2${w.module.tests}/vars/${w.testVar}`, body: doc('vars', { value: 'w' }) }),
  },
  'DELETE /api/v2/organizations/:org/tests/registry-modules/:registry/:namespace/:name/:provider/vars/:id': {
    access: 'org-owner-only',
    call: async (w, _who, allowed) => ({
      path: `/api/v2${w.module.tests}/vars/${allowed ? (await must('POST', `${w.module.tests}/vars`, doc('vars', { key: uniq('k').replace(/-/g, '_'), value: 'v', category: 'env' }))).data.id : w.testVar}`,
    }),
  },

  // Policy checks.
  'GET /api/v2/runs/:id/policy-checks': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/runs/${w.run}/policy-checks` }),
  },
  'GET /api/v2/policy-checks/:id': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/policy-checks/${w.policyCheck}` }),
  },
  'GET /api/v2/policy-checks/:id/output': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/policy-checks/${w.policyCheck}/output` }),
  },
  'POST /api/v2/policy-checks/:id/actions/override': {
    // manage-policy-overrides, on a workspace the caller sees.
    access: 'manage-policy-overrides',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/policy-checks/${allowed ? await softFailedCheck() : w.policyCheck}/actions/override`,
    }),
  },

  // Policies and policy sets: any member reads them, manage-policies changes them.
  'PUT /api/v2/policies/:id/upload': {
    access: 'manage-policies',
    call: (w) => ({
      path: `/api/v2/policies/${w.policy}/upload`,
      raw: 'package x\n\ndeny[msg] { false; msg := "no" }\n',
      headers: { 'Content-Type': 'application/octet-stream', Accept: 'application/json' },
    }),
  },
  'POST /api/v2/organizations/:org/policies': {
    access: 'manage-policies',
    call: () => ({
      path: `/api/v2/organizations/${o()}/policies`,
      body: doc('policies', { name: uniq('pol'), kind: 'opa', query: 'data.x.deny', 'enforcement-level': 'advisory' }),
    }),
  },
  'GET /api/v2/organizations/:org/policies': {
    access: 'org-member',
    call: () => ({ path: `/api/v2/organizations/${o()}/policies` }),
  },
  'GET /api/v2/policies/:id': { access: 'org-member', call: (w) => ({ path: `/api/v2/policies/${w.policy}` }) },
  'PATCH /api/v2/policies/:id': {
    access: 'manage-policies',
    call: (w) => ({ path: `/api/v2/policies/${w.policy}`, body: doc('policies', { description: uniq('d') }) }),
  },
  'DELETE /api/v2/policies/:id': {
    access: 'manage-policies',
    call: async (w, _who, allowed) => ({ path: `/api/v2/policies/${allowed ? await newPolicy() : w.policy}` }),
  },
  'GET /api/v2/policies/:id/download': {
    access: 'org-member',
    call: (w) => ({ path: `/api/v2/policies/${w.policy}/download` }),
  },
  'POST /api/v2/organizations/:org/policy-sets': {
    access: 'manage-policies',
    call: () => ({
      path: `/api/v2/organizations/${o()}/policy-sets`,
      body: doc('policy-sets', { name: uniq('set'), kind: 'opa' }),
    }),
  },
  'GET /api/v2/organizations/:org/policy-sets': {
    access: 'org-member',
    call: () => ({ path: `/api/v2/organizations/${o()}/policy-sets` }),
  },
  'GET /api/v2/policy-sets/:id': {
    access: 'org-member',
    call: (w) => ({ path: `/api/v2/policy-sets/${w.policySet}` }),
  },
  'PATCH /api/v2/policy-sets/:id': {
    access: 'manage-policies',
    call: (w) => ({ path: `/api/v2/policy-sets/${w.policySet}`, body: doc('policy-sets', { description: uniq('d') }) }),
  },
  'DELETE /api/v2/policy-sets/:id': {
    access: 'manage-policies',
    call: async (w, _who, allowed) => ({ path: `/api/v2/policy-sets/${allowed ? await newPolicySet() : w.policySet}` }),
  },
  // Policy set parameters: members read them, manage-policies changes them.
  'GET /api/v2/policy-sets/:id/parameters': {
    access: 'org-member',
    call: (w) => ({ path: `/api/v2/policy-sets/${w.policySet}/parameters` }),
  },
  'POST /api/v2/policy-sets/:id/parameters': {
    access: 'manage-policies',
    call: (w) => ({
      path: `/api/v2/policy-sets/${w.policySet}/parameters`,
      body: doc('vars', { key: envKey(), value: 'v', category: 'policy-set' }),
    }),
  },
  'GET /api/v2/policy-sets/:id/parameters/:param_id': {
    access: 'org-member',
    call: (w) => ({ path: `/api/v2/policy-sets/${w.policySet}/parameters/${w.policySetParameter}` }),
  },
  'PATCH /api/v2/policy-sets/:id/parameters/:param_id': {
    access: 'manage-policies',
    call: (w) => ({
      path: `/api/v2/policy-sets/${w.policySet}/parameters/${w.policySetParameter}`,
      body: doc('vars', { value: uniq('v') }),
    }),
  },
  'DELETE /api/v2/policy-sets/:id/parameters/:param_id': {
    access: 'manage-policies',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/policy-sets/${w.policySet}/parameters/${allowed ? await newPolicySetParameter() : w.policySetParameter}`,
    }),
  },
  'POST /api/v2/policy-sets/:id/versions': {
    access: 'manage-policies',
    call: (w) => ({ path: `/api/v2/policy-sets/${w.policySet}/versions` }),
  },
  'GET /api/v2/policy-set-versions/:id': {
    access: 'org-member',
    call: (w) => ({ path: `/api/v2/policy-set-versions/${w.policySetVersion}` }),
  },
  'POST /api/v2/policy-sets/:id/relationships/policies': {
    access: 'manage-policies',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/policy-sets/${allowed ? await newPolicySet() : w.policySet}/relationships/policies`,
      body: { data: [{ type: 'policies', id: w.policy }] },
    }),
  },
  'DELETE /api/v2/policy-sets/:id/relationships/policies': {
    access: 'manage-policies',
    call: async (w, _who, allowed) => {
      const set = allowed ? await newPolicySet() : w.policySet;
      const body = { data: [{ type: 'policies', id: w.policy }] };
      if (allowed) await must('POST', `/policy-sets/${set}/relationships/policies`, body);
      return { path: `/api/v2/policy-sets/${set}/relationships/policies`, body };
    },
  },
  'POST /api/v2/policy-sets/:id/relationships/workspaces': {
    access: 'manage-policies',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/policy-sets/${allowed ? await newPolicySet() : w.policySet}/relationships/workspaces`,
      body: { data: [{ type: 'workspaces', id: w.ws.id }] },
    }),
  },
  'DELETE /api/v2/policy-sets/:id/relationships/workspaces': {
    access: 'manage-policies',
    call: async (w, _who, allowed) => {
      const set = allowed ? await newPolicySet() : w.policySet;
      const body = { data: [{ type: 'workspaces', id: w.ws.id }] };
      if (allowed) await must('POST', `/policy-sets/${set}/relationships/workspaces`, body);
      return { path: `/api/v2/policy-sets/${set}/relationships/workspaces`, body };
    },
  },
  'POST /api/v2/policy-sets/:id/relationships/workspace-exclusions': {
    access: 'manage-policies',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/policy-sets/${allowed ? await newPolicySet() : w.policySet}/relationships/workspace-exclusions`,
      body: { data: [{ type: 'workspaces', id: w.ws.id }] },
    }),
  },
  'DELETE /api/v2/policy-sets/:id/relationships/workspace-exclusions': {
    access: 'manage-policies',
    call: async (w, _who, allowed) => {
      const set = allowed ? await newPolicySet() : w.policySet;
      const body = { data: [{ type: 'workspaces', id: w.ws.id }] };
      if (allowed) await must('POST', `/policy-sets/${set}/relationships/workspace-exclusions`, body);
      return { path: `/api/v2/policy-sets/${set}/relationships/workspace-exclusions`, body };
    },
  },

  // Run triggers: they belong to the workspace that gets the runs; creating one also needs read access to the source.
  'POST /api/v2/workspaces/:id/run-triggers': {
    access: 'workspace-admin',
    call: async (w) => ({
      path: `/api/v2/workspaces/${w.ws.id}/run-triggers`,
      body: doc('run-triggers', {}, { sourceable: rel('workspaces', (await freshWorkspace()).id) }),
    }),
  },
  'GET /api/v2/workspaces/:id/run-triggers': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/run-triggers?filter[run-trigger][type]=inbound` }),
  },
  'GET /api/v2/run-triggers/:id': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/run-triggers/${w.runTrigger}` }),
  },
  'DELETE /api/v2/run-triggers/:id': {
    access: 'workspace-admin',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/run-triggers/${allowed ? await newRunTrigger() : w.runTrigger}`,
    }),
  },

  // Workspace variables: read access lists them, write access changes them.
  'GET /api/v2/workspaces/:id/vars': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/vars` }),
  },
  'GET /api/v2/workspaces/:id/all-vars': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/all-vars` }),
  },
  'POST /api/v2/workspaces/:id/vars': {
    access: 'workspace-write',
    call: (w) => ({
      path: `/api/v2/workspaces/${w.ws.id}/vars`,
      body: doc('vars', { key: envKey(), value: 'v', category: 'env' }),
    }),
  },
  'PATCH /api/v2/workspaces/:id/vars/:var_id': {
    access: 'workspace-write',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/vars/${w.wsVar}`, body: doc('vars', { value: uniq('v') }) }),
  },
  'DELETE /api/v2/workspaces/:id/vars/:var_id': {
    access: 'workspace-write',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/workspaces/${w.ws.id}/vars/${allowed ? await newWorkspaceVar() : w.wsVar}`,
    }),
  },
  'GET /api/v2/workspaces/:id/vars/:var_id': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/vars/${w.wsVar}` }),
  },
  'GET /api/v2/vars': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/vars?filter[organization][name]=${o()}&filter[workspace][name]=${w.ws.name}` }),
  },
  'POST /api/v2/vars': {
    access: 'workspace-write',
    call: (w) => ({
      path: '/api/v2/vars',
      body: doc('vars', { key: envKey(), value: 'v', category: 'env' }, { workspace: rel('workspaces', w.ws.id) }),
    }),
  },
  'PATCH /api/v2/vars/:id': {
    access: 'workspace-write',
    call: (w) => ({ path: `/api/v2/vars/${w.wsVar}`, body: doc('vars', { value: uniq('v') }) }),
  },
  'DELETE /api/v2/vars/:id': {
    access: 'workspace-write',
    call: async (w, _who, allowed) => ({ path: `/api/v2/vars/${allowed ? await newWorkspaceVar() : w.wsVar}` }),
  },

  // Variable sets: manage-var-sets changes them; members see the sets applied to workspaces they read.
  'GET /api/v2/organizations/:org/varsets': {
    access: 'org-member',
    call: () => ({ path: `/api/v2/organizations/${o()}/varsets` }),
  },
  'POST /api/v2/organizations/:org/varsets': {
    access: 'manage-var-sets',
    call: () => ({ path: `/api/v2/organizations/${o()}/varsets`, body: doc('varsets', { name: uniq('vs') }) }),
  },
  'GET /api/v2/varsets/:id': { access: 'workspace-read', call: (w) => ({ path: `/api/v2/varsets/${w.varset}` }) },
  'PATCH /api/v2/varsets/:id': {
    access: 'manage-var-sets',
    call: (w) => ({ path: `/api/v2/varsets/${w.varset}`, body: doc('varsets', { description: uniq('d') }) }),
  },
  'DELETE /api/v2/varsets/:id': {
    access: 'manage-var-sets',
    call: async (w, _who, allowed) => ({ path: `/api/v2/varsets/${allowed ? await newVarset() : w.varset}` }),
  },
  'GET /api/v2/varsets/:id/relationships/vars': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/varsets/${w.varset}/relationships/vars` }),
  },
  'POST /api/v2/varsets/:id/relationships/vars': {
    access: 'manage-var-sets',
    call: (w) => ({
      path: `/api/v2/varsets/${w.varset}/relationships/vars`,
      body: doc('vars', { key: envKey(), value: 'v', category: 'env' }),
    }),
  },
  'GET /api/v2/varsets/:id/relationships/vars/:var_id': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/varsets/${w.varset}/relationships/vars/${w.varsetVar}` }),
  },
  'PATCH /api/v2/varsets/:id/relationships/vars/:var_id': {
    access: 'manage-var-sets',
    call: (w) => ({
      path: `/api/v2/varsets/${w.varset}/relationships/vars/${w.varsetVar}`,
      body: doc('vars', { value: uniq('v') }),
    }),
  },
  'DELETE /api/v2/varsets/:id/relationships/vars/:var_id': {
    access: 'manage-var-sets',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/varsets/${w.varset}/relationships/vars/${allowed ? await newVarsetVar() : w.varsetVar}`,
    }),
  },
  'POST /api/v2/varsets/:id/relationships/workspaces': {
    // Applying the set to the workspace again changes nothing.
    access: 'manage-var-sets',
    call: (w) => ({
      path: `/api/v2/varsets/${w.varset}/relationships/workspaces`,
      body: { data: [{ type: 'workspaces', id: w.ws.id }] },
    }),
  },
  'DELETE /api/v2/varsets/:id/relationships/workspaces': {
    // A fresh set for each success: the world's set stays applied for the entries that read it.
    access: 'manage-var-sets',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/varsets/${allowed ? await newVarset() : w.varset}/relationships/workspaces`,
      body: { data: [{ type: 'workspaces', id: w.ws.id }] },
    }),
  },
  'GET /api/v2/workspaces/:id/varsets': {
    access: 'workspace-read',
    call: (w) => ({ path: `/api/v2/workspaces/${w.ws.id}/varsets` }),
  },
  'POST /api/v2/varsets/:id/relationships/projects': {
    access: 'manage-var-sets',
    call: (w) => ({
      path: `/api/v2/varsets/${w.varset}/relationships/projects`,
      body: { data: [{ type: 'projects', id: w.project }] },
    }),
  },
  'DELETE /api/v2/varsets/:id/relationships/projects': {
    access: 'manage-var-sets',
    call: (w) => ({
      path: `/api/v2/varsets/${w.varset}/relationships/projects`,
      body: { data: [{ type: 'projects', id: w.project }] },
    }),
  },
  'GET /api/v2/projects/:id/varsets': {
    access: 'project-read',
    call: (w) => ({ path: `/api/v2/projects/${w.project}/varsets` }),
  },

  // Agent pools.
  'GET /api/v2/organizations/:org/agent-pools': {
    access: 'org-member',
    call: (w) => ({ path: `/api/v2/organizations/${w.org.name}/agent-pools` }),
  },
  'POST /api/v2/organizations/:org/agent-pools': {
    access: 'manage-agent-pools',
    call: (w) => ({
      path: `/api/v2/organizations/${w.org.name}/agent-pools`,
      body: doc('agent-pools', { name: uniq('pool') }),
    }),
  },
  'GET /api/v2/agent-pools/:id': {
    access: 'org-member',
    call: (w) => ({ path: `/api/v2/agent-pools/${w.agentPool}` }),
  },
  'PATCH /api/v2/agent-pools/:id': {
    access: 'manage-agent-pools',
    call: (w) => ({ path: `/api/v2/agent-pools/${w.agentPool}`, body: doc('agent-pools', { name: uniq('pool') }) }),
  },
  'DELETE /api/v2/agent-pools/:id': {
    access: 'manage-agent-pools',
    call: async (w, _who, allowed) => ({ path: `/api/v2/agent-pools/${allowed ? await newAgentPool() : w.agentPool}` }),
  },

  // Data retention policies: each call first gives its target a policy, so that a 404 is the guard's
  // answer and not "no policy here". Dont-delete policies (and a legacy one of ten years) delete nothing.
  'GET /api/v2/organizations/:org/relationships/data-retention-policy': {
    access: 'org-member',
    call: (w) => withPolicy(`/organizations/${w.org.name}`),
  },
  'POST /api/v2/organizations/:org/relationships/data-retention-policy': {
    access: 'org-owner-only',
    call: (w) => ({ ...policyPath(`/organizations/${w.org.name}`), body: DONT_DELETE }),
  },
  'PATCH /api/v2/organizations/:org/relationships/data-retention-policy': {
    access: 'org-owner-only',
    call: (w) => ({ ...policyPath(`/organizations/${w.org.name}`), body: LEGACY_POLICY }),
  },
  'DELETE /api/v2/organizations/:org/relationships/data-retention-policy': {
    // Callers run at once: each allowed one removes the policy of an organization of its own.
    access: 'org-owner-only',
    call: async (w, _who, allowed) =>
      withPolicy(`/organizations/${allowed ? (await createOrg(w.org.owner)).name : w.org.name}`),
  },
  'GET /api/v2/workspaces/:id/relationships/data-retention-policy': {
    access: 'workspace-read',
    call: (w) => withPolicy(`/workspaces/${w.ws.id}`),
  },
  'POST /api/v2/workspaces/:id/relationships/data-retention-policy': {
    access: 'workspace-admin',
    call: (w) => ({ ...policyPath(`/workspaces/${w.ws.id}`), body: DONT_DELETE }),
  },
  'PATCH /api/v2/workspaces/:id/relationships/data-retention-policy': {
    access: 'workspace-admin',
    call: (w) => ({ ...policyPath(`/workspaces/${w.ws.id}`), body: LEGACY_POLICY }),
  },
  'DELETE /api/v2/workspaces/:id/relationships/data-retention-policy': {
    access: 'workspace-admin',
    call: async (w, _who, allowed) => withPolicy(`/workspaces/${allowed ? (await freshWorkspace()).id : w.ws.id}`),
  },
  // SSH keys, and a workspace's.
  'GET /api/v2/organizations/:org/ssh-keys': {
    access: 'ssh-key-read',
    call: (w) => ({ path: `/api/v2/organizations/${w.org.name}/ssh-keys` }),
  },
  'POST /api/v2/organizations/:org/ssh-keys': {
    access: 'manage-vcs-settings',
    call: (w) => ({ path: `/api/v2/organizations/${w.org.name}/ssh-keys`, body: sshKeyDoc() }),
  },
  'GET /api/v2/ssh-keys/:id': { access: 'ssh-key-read', call: (w) => ({ path: `/api/v2/ssh-keys/${w.sshKey}` }) },
  'PATCH /api/v2/ssh-keys/:id': {
    access: 'manage-vcs-settings',
    call: (w) => ({ path: `/api/v2/ssh-keys/${w.sshKey}`, body: doc('ssh-keys', { name: uniq('key') }) }),
  },
  'DELETE /api/v2/ssh-keys/:id': {
    access: 'manage-vcs-settings',
    call: async (w, _who, allowed) => ({ path: `/api/v2/ssh-keys/${allowed ? await newSshKey() : w.sshKey}` }),
  },
  // VCS connections and their tokens.
  'GET /api/v2/organizations/:org/oauth-clients': {
    access: 'vcs-read',
    call: (w) => ({ path: `/api/v2/organizations/${w.org.name}/oauth-clients` }),
  },
  'POST /api/v2/organizations/:org/oauth-clients': {
    access: 'vcs-manage',
    call: (w) => ({ path: `/api/v2/organizations/${w.org.name}/oauth-clients`, body: oauthClientDoc() }),
  },
  'GET /api/v2/oauth-clients/:id': {
    access: 'vcs-read',
    call: (w) => ({ path: `/api/v2/oauth-clients/${w.oauthClient}` }),
  },
  'PATCH /api/v2/oauth-clients/:id': {
    access: 'vcs-manage',
    call: (w) => ({
      path: `/api/v2/oauth-clients/${w.oauthClient}`,
      body: doc('oauth-clients', { name: uniq('vcs') }),
    }),
  },
  'DELETE /api/v2/oauth-clients/:id': {
    access: 'vcs-manage',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/oauth-clients/${allowed ? (await newOAuthClient()).client : w.oauthClient}`,
    }),
  },
  'POST /api/v2/oauth-clients/:id/relationships/projects': {
    access: 'vcs-manage',
    call: (w) => ({
      path: `/api/v2/oauth-clients/${w.oauthClient}/relationships/projects`,
      body: { data: [{ type: 'projects', id: w.project }] },
    }),
  },
  'DELETE /api/v2/oauth-clients/:id/relationships/projects': {
    access: 'vcs-manage',
    call: (w) => ({
      path: `/api/v2/oauth-clients/${w.oauthClient}/relationships/projects`,
      body: { data: [{ type: 'projects', id: w.project }] },
    }),
  },
  'GET /api/v2/oauth-clients/:id/oauth-tokens': {
    access: 'vcs-read',
    call: (w) => ({ path: `/api/v2/oauth-clients/${w.oauthClient}/oauth-tokens` }),
  },
  'GET /api/v2/organizations/:org/oauth-tokens': {
    access: 'vcs-read',
    call: (w) => ({ path: `/api/v2/organizations/${w.org.name}/oauth-tokens` }),
  },
  'GET /api/v2/oauth-tokens/:id': {
    access: 'vcs-read',
    call: (w) => ({ path: `/api/v2/oauth-tokens/${w.oauthToken}` }),
  },
  'PATCH /api/v2/oauth-tokens/:id': {
    access: 'vcs-manage',
    call: (w) => ({ path: `/api/v2/oauth-tokens/${w.oauthToken}`, body: doc('oauth-tokens', {}) }),
  },
  'DELETE /api/v2/oauth-tokens/:id': {
    access: 'vcs-manage',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/oauth-tokens/${allowed ? (await newOAuthClient()).token : w.oauthToken}`,
    }),
  },
  'PATCH /api/v2/workspaces/:id/relationships/ssh-key': {
    access: 'workspace-admin',
    call: (w) => ({
      path: `/api/v2/workspaces/${w.ws.id}/relationships/ssh-key`,
      body: { data: { type: 'workspaces', attributes: { id: w.sshKey } } },
    }),
  },

  // No-code modules, and workspaces provisioned with them.
  'POST /api/v2/organizations/:org/no-code-modules': {
    access: 'manage-modules',
    call: async (w) => ({
      path: `/api/v2/organizations/${w.org.name}/no-code-modules`,
      body: doc('no-code-modules', {}, { 'registry-module': rel('registry-modules', (await newModule()).id) }),
    }),
  },
  'GET /api/v2/no-code-modules/:id': {
    access: 'org-member',
    call: (w) => ({ path: `/api/v2/no-code-modules/${w.noCodeModule}` }),
  },
  'PATCH /api/v2/no-code-modules/:id': {
    access: 'manage-modules',
    call: (w) => ({
      path: `/api/v2/no-code-modules/${w.noCodeModule}`,
      body: doc('no-code-modules', { enabled: true }),
    }),
  },
  'DELETE /api/v2/no-code-modules/:id': {
    access: 'manage-modules',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/no-code-modules/${allowed ? await newNoCodeModule((await newModule()).id) : w.noCodeModule}`,
    }),
  },
  'POST /api/v2/no-code-modules/:id/workspaces': {
    access: 'manage-workspaces',
    call: (w) => ({
      path: `/api/v2/no-code-modules/${w.noCodeModule}/workspaces`,
      body: doc('workspaces', { name: uniq('nocode') }),
    }),
  },

  // Projects and teams' access to them.
  'GET /api/v2/organizations/:org/projects': {
    access: 'org-member',
    call: (w) => ({ path: `/api/v2/organizations/${w.org.name}/projects` }),
  },
  'POST /api/v2/organizations/:org/projects': {
    access: 'manage-projects',
    call: (w) => ({
      path: `/api/v2/organizations/${w.org.name}/projects`,
      body: doc('projects', { name: uniq('prj') }),
    }),
  },
  'GET /api/v2/projects/:id': { access: 'project-read', call: (w) => ({ path: `/api/v2/projects/${w.project}` }) },
  'PATCH /api/v2/projects/:id': {
    access: 'manage-projects',
    call: (w) => ({ path: `/api/v2/projects/${w.project}`, body: doc('projects', { description: 'changed' }) }),
  },
  'DELETE /api/v2/projects/:id': {
    access: 'manage-projects',
    call: async (w, _who, allowed) => ({ path: `/api/v2/projects/${allowed ? await newProject() : w.project}` }),
  },
  'GET /api/v2/team-projects': {
    access: 'project-read',
    call: (w) => ({ path: `/api/v2/team-projects?filter[project][id]=${w.project}` }),
  },
  'POST /api/v2/team-projects': {
    access: 'manage-projects',
    call: async (w) => ({
      path: '/api/v2/team-projects',
      body: doc(
        'team-projects',
        { access: 'read' },
        { project: rel('projects', w.project), team: rel('teams', await newTeam()) },
      ),
    }),
  },
  // The read member sees its own team's access.
  'GET /api/v2/team-projects/:id': {
    access: 'project-read',
    call: (w) => ({ path: `/api/v2/team-projects/${w.readProjectGrant}` }),
  },
  'PATCH /api/v2/team-projects/:id': {
    access: 'manage-projects',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/team-projects/${allowed ? await projectGrant(await newTeam(), w.project, 'read') : w.readProjectGrant}`,
      body: doc('team-projects', { access: 'write' }),
    }),
  },
  'DELETE /api/v2/team-projects/:id': {
    access: 'manage-projects',
    call: async (w, _who, allowed) => ({
      path: `/api/v2/team-projects/${allowed ? await projectGrant(await newTeam(), w.project, 'read') : w.readProjectGrant}`,
    }),
  },
  'POST /api/v2/policy-sets/:id/relationships/projects': {
    access: 'manage-policies',
    call: (w) => ({
      path: `/api/v2/policy-sets/${w.policySet}/relationships/projects`,
      body: { data: [{ type: 'projects', id: w.project }] },
    }),
  },
  'DELETE /api/v2/policy-sets/:id/relationships/projects': {
    access: 'manage-policies',
    call: (w) => ({
      path: `/api/v2/policy-sets/${w.policySet}/relationships/projects`,
      body: { data: [{ type: 'projects', id: w.project }] },
    }),
  },
};

/** Downloads answer a redirect to a signed URL. */
function downloads(): Partial<Expectations> {
  return Object.fromEntries(
    (['read', 'plan', 'write', 'admin', 'teamToken', 'orgToken', 'owner', 'siteAdmin'] as Who[]).map((w) => [w, 302]),
  );
}

/** A fresh workspace with an uploaded configuration (speculative runs count against a per-workspace cap). */
/**
 * Where a POST /runs goes: for a caller who may, a fresh workspace with an uploaded version;
 * otherwise the world's workspace and its uploaded version by name, so that the answer depends on
 * the caller's access alone and not on which version is current when the call runs (other entries
 * create speculative versions there, which become current as they are created).
 */
async function runTarget(w: World, allowed: boolean): Promise<Record<string, unknown>> {
  if (allowed) return { workspace: rel('workspaces', await workspaceWithCv()) };
  return { workspace: rel('workspaces', w.ws.id), 'configuration-version': rel('configuration-versions', w.cv) };
}

async function workspaceWithCv(): Promise<string> {
  const ws = await freshWorkspace();
  await uploadedCv(ws.id);
  return ws.id;
}

/** A soft-failed, overridable check of a run waiting for the override, on a workspace of its own. */
async function softFailedCheck(): Promise<string> {
  const run = await newRun((await freshWorkspace()).id);
  await db()('runs').where({ id: run }).update({ status: 'policy_override' });
  const check = await insertPolicyCheck(db(), run, 'organization', [world.policySet]);
  await db()('policy_checks').where({ id: check.id }).update({ status: 'soft_failed', is_overridable: true });
  return check.id;
}

/** A post-plan stage awaiting an override, of a run waiting for the decision, on a workspace of its own. */
async function awaitingStage(): Promise<string> {
  const run = await newRun((await freshWorkspace()).id);
  await db()('runs').where({ id: run }).update({ status: 'post_plan_awaiting_decision', has_changes: true });
  const id = `ts-${randomBytes(8).toString('hex')}`;
  await db()('task_stages').insert({ id, run_id: run, stage: 'post_plan', status: 'awaiting_override' });
  await db()('policy_evaluations').insert({
    id: `poleval-${randomBytes(8).toString('hex')}`,
    run_id: run,
    task_stage_id: id,
    policy_kind: 'opa',
    status: 'failed',
    is_overridable: true,
  });
  return id;
}

/** A running test run of the world's module (cancel requested already, for a force-cancel). */
async function runningTestRun(cancelRequested: boolean): Promise<string> {
  const id = (
    await must(
      'POST',
      `${world.module.tests}/test-runs`,
      doc('test-runs', {}, { 'configuration-version': rel('configuration-versions', world.testCv) }),
    )
  ).data.id;
  await db()('test_runs')
    .where({ id })
    .update({ status: 'running', cancel_requested_at: cancelRequested ? new Date() : null });
  return id;
}

/** A run waiting for confirmation, on a workspace of its own (only one run may hold a workspace). */
async function plannedRun(): Promise<string> {
  return plannedRunIn((await freshWorkspace()).id);
}

async function plannedRunIn(workspaceId: string): Promise<string> {
  const run = await newRun(workspaceId);
  await db()('runs').where({ id: run }).update({ status: 'planned', has_changes: true });
  return run;
}

/** A pending run waiting behind a planned run of its workspace, for a force-execute. */
async function runWaitingBehindPlanned(): Promise<string> {
  const ws = await freshWorkspace();
  await plannedRunIn(ws.id);
  return newRun(ws.id);
}

/** A run whose cancel was requested long enough ago for a force-cancel. */
async function cancelRequestedRun(): Promise<string> {
  const run = await newRun((await freshWorkspace()).id);
  await db()('runs')
    .where({ id: run })
    .update({
      status: 'planning',
      cancel_requested_at: new Date(Date.now() - 3600_000),
      force_cancel_available_at: new Date(Date.now() - 1000),
    });
  return run;
}

// ---------------------------------------------------------------------------------------------
// Route enumeration: the application's route table, Bull Board's mounted app counted as one route.

const routesOf = (): string[] => [
  ...routeTable(createApp(harness().rt), [BOARD_PATH, CONSOLE_PATH]).map((r) => `${r.method} ${r.path}`),
  `ALL ${BOARD_PATH}`,
  `ALL ${CONSOLE_PATH}`,
];

// ---------------------------------------------------------------------------------------------

function expected(entry: Omit<Entry, 'variants'>, who: Who): Want {
  if (who === 'readSession')
    return entry.except?.readSession ?? CLASSES[entry.access].readSession ?? expected(entry, 'read');
  return entry.except?.[who] ?? CLASSES[entry.access][who];
}

/** The session caller's headers: its cookies, its CSRF token and this service's origin (a call may bring its own session). */
const sessionHeaders = (session: Session): Record<string, string> => ({
  Cookie: session.cookie,
  'X-CSRF-Token': session.csrf,
  Origin: new URL(harness().baseUrl).origin,
});

const matches = (want: Want, status: number) => (want === 'ok' ? status >= 200 && status < 300 : status === want);

describe('authorization matrix', function () {
  // Every route for every caller: some four minutes on a busy two-core machine.
  this.timeout(420_000);
  let routes: string[];
  let verifier: WorkerProcess;

  before(async function () {
    this.timeout(120_000);
    routes = [...new Set(routesOf())].sort();
    // Creating and changing run tasks and notification configurations checks their destination
    // through the verification worker, against an endpoint that accepts everything.
    const server = createServer((_req, res) => void res.writeHead(200).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = {
      url: `http://127.0.0.1:${(server.address() as { port: number }).port}/task`,
      close: () => new Promise((resolve) => server.close(() => resolve())),
    };
    verifier = spawnWorkers(['verification']);
    await workersReady(verifier);
    await buildWorld();
  });

  after(async () => {
    await verifier?.stop('SIGKILL');
    await endpoint?.close();
  });

  it('has exactly one entry (matrix or exemption) for every route, and none for a route that does not exist', () => {
    const known = new Set([...Object.keys(MATRIX), ...Object.keys(EXEMPT)]);
    const missing = routes.filter((r) => !known.has(r));
    const stale = [...known].filter((k) => !routes.includes(k));
    const both = Object.keys(MATRIX).filter((k) => k in EXEMPT);
    expect(missing, `routes without an entry:\n  ${missing.join('\n  ')}`).to.deep.equal([]);
    expect(stale, `entries matching no route:\n  ${stale.join('\n  ')}`).to.deep.equal([]);
    expect(both, 'routes both in the matrix and exempt').to.deep.equal([]);
    expect(routes.length).to.be.greaterThan(100);
  });

  it('answers every route with the documented status for every caller', async () => {
    const failures: string[] = [];
    // Every entry and its variants, as [label, method, entry].
    const cases = Object.entries(MATRIX).flatMap(([key, entry]) => [
      [key, entry] as const,
      ...Object.entries(entry.variants ?? {}).map(([name, v]) => [`${key} (${name})`, v] as const),
    ]);
    const BATCH = 6;
    for (let i = 0; i < cases.length; i += BATCH) {
      await Promise.all(
        cases.slice(i, i + BATCH).map(async ([key, entry]) => {
          const method = key.slice(0, key.indexOf(' '));
          await Promise.all(
            WHO.map(async (who) => {
              const want = expected(entry, who);
              let req: Call;
              try {
                req = await entry.call(world, who, want === 'ok');
              } catch (err) {
                failures.push(`${key} as ${who}: building the request failed: ${(err as Error).message}`);
                return;
              }
              const token = who === 'anonymous' || who === 'readSession' ? null : world.tokens[who];
              const sent =
                who === 'readSession' ? { ...req, headers: { ...sessionHeaders(world.session), ...req.headers } } : req;
              const res = await call(method === 'ALL' ? 'GET' : method, req.path, token, sent);
              if (!matches(want, res.status))
                failures.push(`${key} as ${who}: expected ${want}, got ${res.status} ${res.text.slice(0, 200)}`);
            }),
          );
        }),
      );
    }
    expect(failures, `\n${failures.join('\n')}`).to.deep.equal([]);
  });

  it("gives a team's project access to every workspace of the project, on every workspace route, and nothing to a team without it", async () => {
    // A member whose only access is its team's write access to a project; another member with none.
    const granted = await memberTeam(world.org);
    const bystander = await memberTeam(world.org);
    const project = await newProject();
    await projectGrant(granted.teamId, project, 'write');
    const ws = (
      await must(
        'POST',
        `/organizations/${world.org.name}/workspaces`,
        doc('workspaces', { name: uniq('ws') }, { project: rel('projects', project) }),
      )
    ).data;
    const as = (token: string, method: string, path: string, body?: unknown) =>
      call(method, `/api/v2${path}`, token, body === undefined ? {} : { body });
    // Reading, listing, variables and locking (write) pass through the same workspace access rule.
    expect(
      (await as(granted.user.token, 'GET', `/workspaces/${ws.id}`)).body.data.attributes.permissions['can-queue-apply'],
    ).to.equal(true);
    const listed = (
      await as(granted.user.token, 'GET', `/organizations/${world.org.name}/workspaces?filter[project][id]=${project}`)
    ).body.data;
    expect(listed.map((x: { id: string }) => x.id)).to.deep.equal([ws.id]);
    expect(
      (
        await as(
          granted.user.token,
          'POST',
          `/workspaces/${ws.id}/vars`,
          doc('vars', { key: envKey(), value: 'v', category: 'env' }),
        )
      ).status,
    ).to.equal(201);
    expect((await as(granted.user.token, 'POST', `/workspaces/${ws.id}/actions/lock`, {})).status).to.equal(200);
    // Write access is not admin: the workspace's settings stay out of reach.
    expect(
      (await as(granted.user.token, 'PATCH', `/workspaces/${ws.id}`, doc('workspaces', { description: 'x' }))).status,
    ).to.equal(404);
    // A team without access to the project sees none of it.
    for (const [method, path] of [
      ['GET', `/workspaces/${ws.id}`],
      ['GET', `/workspaces/${ws.id}/vars`],
      ['GET', `/projects/${project}`],
      ['POST', `/workspaces/${ws.id}/actions/unlock`],
    ]) {
      expect(
        (await as(bystander.user.token, method, path, method === 'POST' ? {} : undefined)).status,
        `${method} ${path}`,
      ).to.equal(404);
    }
    expect(
      (
        await as(
          bystander.user.token,
          'GET',
          `/organizations/${world.org.name}/workspaces?filter[project][id]=${project}`,
        )
      ).body.data,
    ).to.deep.equal([]);
  });
});
