import { BOOL, TEXT, resourceDocument, toOne } from './jsonapi.js';

const ADDRS = { type: 'array', maxItems: 500, items: { type: 'string', minLength: 1, maxLength: 1000 } };

/** Run and test-run variables: `[{key, value}]`, each value an HCL literal. */
export const HCL_VARIABLES = {
  type: 'array',
  maxItems: 500,
  items: {
    type: 'object',
    required: ['key', 'value'],
    properties: {
      key: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_-]{0,127}$' },
      value: { type: 'string', maxLength: 65536 },
    },
  },
};

/** Request body schemas of runs; run actions take plain JSON ({} or {"comment": ...}) or nothing. */
export const runSchemas = {
  'run.create': resourceDocument(
    'runs',
    {
      message: TEXT(2000),
      'is-destroy': BOOL,
      'auto-apply': BOOL,
      'plan-only': BOOL,
      refresh: BOOL,
      'refresh-only': BOOL,
      'save-plan': BOOL,
      'allow-empty-apply': BOOL,
      'allow-config-generation': BOOL,
      'target-addrs': ADDRS,
      'replace-addrs': ADDRS,
      variables: HCL_VARIABLES,
      'terraform-version': { type: 'string', maxLength: 64, pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+(-[A-Za-z0-9.]+)?$' },
    },
    {
      relationships: { workspace: toOne('workspaces'), 'configuration-version': toOne('configuration-versions', true) },
      requiredRelationships: ['workspace'],
    },
  ),
  'comment.create': resourceDocument(
    'comments',
    { body: { type: 'string', minLength: 1, maxLength: 10000 } },
    { required: ['body'], relationships: { run: toOne('runs', true) } },
  ),
  'run.action': { type: 'object', properties: { comment: { oneOf: [{ type: 'null' }, TEXT(2000)] } } },
} as const;
