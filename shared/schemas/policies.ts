import { BOOL, NAME, TEXT, linkageList, resourceDocument, toMany } from './jsonapi.js';
import { ALL_ENFORCEMENT_LEVELS, POLICY_KINDS } from '../policies/rules.js';

const NULLABLE_TEXT = (max: number) => ({ oneOf: [{ type: 'null' }, TEXT(max)] });
const KIND = { enum: [...POLICY_KINDS] };
const LEVEL = { enum: [...ALL_ENFORCEMENT_LEVELS] };

/** Kind-dependent rules (query, levels per kind, enforce path) are checked in domain/policy.ts. */
const policyAttributes = {
  name: NAME,
  description: NULLABLE_TEXT(10_000),
  kind: KIND,
  query: NULLABLE_TEXT(1000),
  'enforcement-level': LEVEL,
  enforce: {
    type: 'array',
    minItems: 1,
    maxItems: 1,
    items: { type: 'object', required: ['mode'], properties: { path: TEXT(200), mode: LEVEL } },
  },
};

const policySetAttributes = {
  name: NAME,
  description: NULLABLE_TEXT(10_000),
  kind: KIND,
  global: BOOL,
  overridable: BOOL,
  'agent-enabled': BOOL,
  /** `latest` or a version number (the runtime installed on the workers evaluates in any case). */
  'policy-tool-version': {
    type: 'string',
    maxLength: 64,
    pattern: '^(latest|[0-9]+\\.[0-9]+\\.[0-9]+([-+][0-9A-Za-z.+-]+)?)$',
  },
};

/** Request body schemas of policies and policy sets. */
export const policySchemas = {
  'policy.create': resourceDocument('policies', policyAttributes, {
    required: ['name'],
    relationships: { 'policy-sets': toMany('policy-sets') },
  }),
  'policy.update': resourceDocument('policies', policyAttributes),
  'policy-set.create': resourceDocument('policy-sets', policySetAttributes, {
    required: ['name'],
    relationships: {
      policies: toMany('policies'),
      workspaces: toMany('workspaces'),
      'workspace-exclusions': toMany('workspaces'),
      projects: toMany('projects'),
    },
  }),
  'policy-set.update': resourceDocument('policy-sets', policySetAttributes),
  'policy-set.policies': linkageList('policies'),
  'policy-set.workspaces': linkageList('workspaces'),
  'policy-set.workspace-exclusions': linkageList('workspaces'),
} as const;
