import { ORGANIZATION_PERMISSIONS } from '../identity/access.queries.js';
import {
  TEAM_WORKSPACE_ACCESS,
  WORKSPACE_PERMISSION_FLAGS,
  WORKSPACE_PERMISSION_VALUES,
} from '../identity/permissions.rules.js';
import { BOOL, NAME, NULLABLE_TIME, TEXT, linkageList, resourceDocument, toMany, toOne } from './jsonapi.js';

const EMAIL = { type: 'string', format: 'email', maxLength: 254 };

const MINUTES = { oneOf: [{ type: 'null' }, { type: 'integer', minimum: 1, maximum: 525600 }] };
const organizationAttributes = {
  name: NAME,
  email: EMAIL,
  'default-execution-mode': { enum: ['remote', 'local', 'agent'] },
  'session-timeout': MINUTES,
  'session-remember': MINUTES,
  'allow-force-delete-workspaces': BOOL,
  'speculative-runs-withhold-secrets': BOOL,
};

const teamAttributes = {
  name: { type: 'string', minLength: 1, maxLength: 90, pattern: '^[A-Za-z0-9_ .-]+$' },
  visibility: { enum: ['secret', 'organization'] },
  'organization-access': {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(ORGANIZATION_PERMISSIONS.map((p) => [p, BOOL])),
  },
  'sso-team-id': { oneOf: [{ type: 'null' }, TEXT(200)] },
  'allow-member-token-management': BOOL,
};

/** A team's access to a workspace: a level, and the permissions a custom one sets. */
const teamWorkspaceAttributes = {
  access: { enum: [...TEAM_WORKSPACE_ACCESS] },
  ...Object.fromEntries(Object.entries(WORKSPACE_PERMISSION_VALUES).map(([k, values]) => [k, { enum: [...values] }])),
  ...Object.fromEntries(WORKSPACE_PERMISSION_FLAGS.map((f) => [f, BOOL])),
};

/** A workspace's settings as requests give them. */
export const workspaceAttributes = {
  name: NAME,
  description: { oneOf: [{ type: 'null' }, TEXT()] },
  'working-directory': { oneOf: [{ type: 'null' }, { type: 'string', maxLength: 500, pattern: '^(?!/)(?!.*\\.\\.)' }] },
  'auto-apply': BOOL,
  'auto-apply-run-trigger': BOOL,
  'execution-mode': { enum: ['remote', 'local', 'agent'] },
  'agent-pool-id': { oneOf: [{ type: 'null' }, { type: 'string', minLength: 1, maxLength: 64 }] },
  operations: BOOL,
  'terraform-version': { type: 'string', pattern: '^(latest|[0-9]+\\.[0-9]+\\.[0-9]+(-[A-Za-z0-9.]+)?)$' },
  'vcs-repo': {
    oneOf: [
      { type: 'null' },
      {
        type: 'object',
        properties: {
          identifier: TEXT(255),
          'oauth-token-id': TEXT(100),
          'github-app-installation-id': { oneOf: [{ type: 'null' }, TEXT(100)] },
          branch: { oneOf: [{ type: 'null' }, TEXT(255)] },
          'ingress-submodules': BOOL,
          'tags-regex': { oneOf: [{ type: 'null' }, TEXT(255)] },
        },
      },
    ],
  },
  'assessments-enabled': BOOL,
  'auto-destroy-at': NULLABLE_TIME,
  'allow-destroy-plan': BOOL,
  'queue-all-runs': BOOL,
  'speculative-enabled': BOOL,
  'global-remote-state': BOOL,
  'structured-run-output-enabled': BOOL,
  'file-triggers-enabled': BOOL,
  'trigger-prefixes': { type: 'array', maxItems: 100, items: TEXT(500) },
  'trigger-patterns': { type: 'array', maxItems: 100, items: TEXT(500) },
  'source-name': { oneOf: [{ type: 'null' }, TEXT(200)] },
  'source-url': { oneOf: [{ type: 'null' }, { type: 'string', maxLength: 2000, pattern: '^https?://[^\\s]+$' }] },
  'setting-overwrites': { type: 'object', properties: { 'execution-mode': BOOL, 'agent-pool': BOOL } },
};

/** A tag as clients name one: by id, or by name (letters, digits, `:`, `_`, `-` and `.`). */
const TAG = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { enum: ['tags'] },
    id: { type: 'string', minLength: 1, maxLength: 64 },
    attributes: {
      type: 'object',
      properties: { name: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9][A-Za-z0-9:_.-]*$' } },
    },
  },
  anyOf: [{ required: ['id'] }, { required: ['attributes'], properties: { attributes: { required: ['name'] } } }],
};
const TAGS = { type: 'array', maxItems: 100, items: TAG };

/** Request body schemas of the foundation resources, by name. */
export const foundationSchemas = {
  'organization.create': resourceDocument('organizations', organizationAttributes, { required: ['name', 'email'] }),
  'organization.update': resourceDocument('organizations', organizationAttributes, {
    relationships: { 'default-agent-pool': toOne('agent-pools', true) },
  }),
  'account.update': resourceDocument('users', { username: NAME, email: EMAIL }),
  'user.create': resourceDocument(
    'users',
    { username: NAME, email: EMAIL, 'is-admin': BOOL },
    { required: ['username', 'email'] },
  ),
  // go-tfe and the tfe provider send `{"data":{"type":""}}`, older scripts the singular type.
  'token.create': resourceDocument(
    ['authentication-tokens', 'authentication-token'],
    { description: { oneOf: [{ type: 'null' }, TEXT(500)] }, 'expired-at': NULLABLE_TIME },
    { typeMayBeEmpty: true },
  ),
  'membership.create': resourceDocument(
    'organization-memberships',
    { email: EMAIL },
    {
      required: ['email'],
      relationships: { teams: toMany('teams') },
    },
  ),
  'team.create': resourceDocument('teams', teamAttributes, { required: ['name'] }),
  'team.update': resourceDocument('teams', teamAttributes),
  'team.users': linkageList('users'),
  'team.memberships': linkageList('organization-memberships'),
  'team-workspace.create': resourceDocument('team-workspaces', teamWorkspaceAttributes, {
    required: ['access'],
    relationships: { workspace: toOne('workspaces'), team: toOne('teams') },
    requiredRelationships: ['workspace', 'team'],
  }),
  'team-workspace.update': resourceDocument('team-workspaces', teamWorkspaceAttributes),
  'workspace.create': resourceDocument('workspaces', workspaceAttributes, {
    required: ['name'],
    relationships: { tags: { type: 'object', properties: { data: TAGS } }, project: toOne('projects') },
  }),
  'tag.ids': linkageList('tags'),
  'tag.workspaces': linkageList('workspaces'),
  'workspace.tags': { type: 'object', required: ['data'], properties: { data: { ...TAGS, minItems: 1 } } },
  'workspace.update': resourceDocument('workspaces', workspaceAttributes, {
    relationships: { project: toOne('projects') },
  }),
} as const;
