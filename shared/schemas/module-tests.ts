import { BOOL, TEXT, resourceDocument, toOne } from './jsonapi.js';
import { HCL_VARIABLES } from './runs.js';
import { SEMVER_PATTERN } from '../registry/machine.js';

const MODULE_PART = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$' };
const ENV_KEY = { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z_][A-Za-z0-9_]*$' };

const variableAttributes = {
  key: ENV_KEY,
  value: TEXT(65536),
  description: { oneOf: [{ type: 'null' }, TEXT(512)] },
  category: { const: 'env' },
  sensitive: BOOL,
  // Stored and returned; it changes nothing for an environment variable.
  hcl: BOOL,
};

/** What a test run may be given besides its configuration. */
const TEST_RUN_OPTIONS = {
  verbose: BOOL,
  filters: { type: 'array', maxItems: 200, items: { type: 'string', minLength: 1, maxLength: 500 } },
  variables: HCL_VARIABLES,
  parallelism: { type: 'integer', minimum: 1, maximum: 1000 },
};

/** Request bodies of private registry modules, test variables and test runs. */
export const moduleTestSchemas = {
  'registry-module.create': resourceDocument(
    'registry-modules',
    {
      name: MODULE_PART,
      provider: { ...MODULE_PART, pattern: '^[a-z0-9]+$' },
      namespace: MODULE_PART,
      'registry-name': { enum: ['private', 'public'] },
      'no-code': BOOL,
    },
    { required: ['name', 'provider'] },
  ),
  'registry-module.vcs': resourceDocument(
    'registry-modules',
    {
      'vcs-repo': {
        type: 'object',
        properties: {
          identifier: TEXT(255),
          'oauth-token-id': TEXT(100),
          'display-identifier': TEXT(255),
          'organization-name': TEXT(255),
          'github-app-installation-id': { oneOf: [{ type: 'null' }, TEXT(100)] },
          branch: { oneOf: [{ type: 'null' }, TEXT(255)] },
          'ingress-submodules': BOOL,
          tags: BOOL,
        },
        required: ['identifier'],
      },
    },
    { required: ['vcs-repo'] },
  ),
  'registry-module-version.create': resourceDocument(
    'registry-module-versions',
    {
      version: { type: 'string', maxLength: 128, pattern: SEMVER_PATTERN },
      'commit-sha': { oneOf: [{ type: 'null' }, { type: 'string', maxLength: 64, pattern: '^[0-9a-fA-F]{7,64}$' }] },
    },
    { required: ['version'], relationships: { 'test-run': toOne('test-runs') } },
  ),
  'registry-module-version.test': resourceDocument('test-runs', TEST_RUN_OPTIONS),
  'test-variable.create': resourceDocument('vars', variableAttributes, { required: ['key', 'category'] }),
  'test-variable.update': resourceDocument('vars', variableAttributes),
  'test-run.create': resourceDocument(
    'test-runs',
    { ...TEST_RUN_OPTIONS, 'test-directory': { type: 'string', minLength: 1, maxLength: 500, pattern: '^[^\\0]*$' } },
    {
      relationships: {
        'configuration-version': toOne('configuration-versions'),
        'registry-module': toOne('registry-modules'),
      },
      requiredRelationships: ['configuration-version'],
    },
  ),
} as const;
