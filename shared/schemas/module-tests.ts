import { BOOL, TEXT, resourceDocument, toOne } from './jsonapi.js';
import { HCL_VARIABLES } from './runs.js';

const MODULE_PART = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$' };
const ENV_KEY = { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z_][A-Za-z0-9_]*$' };

const variableAttributes = {
  key: ENV_KEY,
  value: TEXT(65536),
  description: { oneOf: [{ type: 'null' }, TEXT(512)] },
  category: { const: 'env' },
  sensitive: BOOL,
  hcl: { const: false },
};

/** Request bodies of private registry modules, test variables and test runs. */
export const moduleTestSchemas = {
  'registry-module.create': resourceDocument(
    'registry-modules',
    { name: MODULE_PART, provider: { ...MODULE_PART, pattern: '^[a-z0-9]+$' }, namespace: MODULE_PART, 'registry-name': { const: 'private' }, 'no-code': BOOL },
    { required: ['name', 'provider'] },
  ),
  'test-variable.create': resourceDocument('vars', variableAttributes, { required: ['key', 'category'] }),
  'test-variable.update': resourceDocument('vars', variableAttributes),
  'test-run.create': resourceDocument(
    'test-runs',
    {
      verbose: BOOL,
      'test-directory': { type: 'string', minLength: 1, maxLength: 500, pattern: '^[^\\0]*$' },
      filters: { type: 'array', maxItems: 200, items: { type: 'string', minLength: 1, maxLength: 500 } },
      variables: HCL_VARIABLES,
      parallelism: { type: 'integer', minimum: 1, maximum: 1000 },
    },
    {
      relationships: { 'configuration-version': toOne('configuration-versions'), 'registry-module': toOne('registry-modules') },
      requiredRelationships: ['configuration-version'],
    },
  ),
} as const;
