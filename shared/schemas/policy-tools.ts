import { BOOL, TEXT, resourceDocument } from './jsonapi.js';
import { MAX_KEY_LENGTH } from '../variables/rules.js';

const URL_TEXT = TEXT(2048);
const build = {
  type: 'object',
  required: ['url', 'sha', 'os', 'arch'],
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 2048 },
    sha: { type: 'string', minLength: 1, maxLength: 128 },
    os: { type: 'string', minLength: 1, maxLength: 32 },
    arch: { type: 'string', minLength: 1, maxLength: 32 },
  },
};

/** An empty `url` or `sha` counts as not sent (clients send both empty alongside `archs`). */
const toolVersionAttributes = {
  version: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[0-9A-Za-z.+-]+$' },
  url: URL_TEXT,
  sha: TEXT(128),
  archs: { type: 'array', maxItems: 32, items: build },
  official: BOOL,
  enabled: BOOL,
  beta: BOOL,
  deprecated: BOOL,
  'deprecated-reason': { oneOf: [{ type: 'null' }, TEXT(512)] },
};

/** Policy set parameters are `vars` of category `policy-set`; key syntax is checked in domain/variable.ts. */
const parameterAttributes = {
  key: { type: 'string', maxLength: MAX_KEY_LENGTH },
  value: { oneOf: [{ type: 'null' }, TEXT(65536)] },
  category: { enum: ['policy-set'] },
  sensitive: BOOL,
};

/** Request bodies of the site admin's policy runtime versions and of policy set parameters. */
export const policyToolSchemas = {
  'opa-version.create': resourceDocument('opa-versions', toolVersionAttributes, { required: ['version'] }),
  'opa-version.update': resourceDocument('opa-versions', toolVersionAttributes),
  'sentinel-version.create': resourceDocument('sentinel-versions', toolVersionAttributes, { required: ['version'] }),
  'sentinel-version.update': resourceDocument('sentinel-versions', toolVersionAttributes),
  'policy-set-parameter.create': resourceDocument('vars', parameterAttributes, { required: ['key', 'category'] }),
  'policy-set-parameter.update': resourceDocument('vars', parameterAttributes),
} as const;
