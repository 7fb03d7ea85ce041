import { BOOL, resourceDocument, toOne } from './jsonapi.js';
import { workspaceAttributes } from './foundation.js';
import { variableAttributes } from './variables.js';

/** One variable's options, sent as a whole resource inside the relationship (go-tfe does so). */
const VARIABLE_OPTION = {
  type: 'object',
  required: ['type', 'attributes'],
  properties: {
    type: { const: 'variable-options' },
    attributes: {
      type: 'object',
      required: ['variable-name'],
      properties: {
        'variable-name': { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z_][A-Za-z0-9_-]*$' },
        'variable-type': { type: 'string', maxLength: 128 },
        options: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 1000 } },
      },
    },
  },
};

const noCodeAttributes = {
  enabled: BOOL,
  'version-pin': { oneOf: [{ type: 'null' }, { type: 'string', maxLength: 128 }] },
};
const noCodeRelationships = {
  'registry-module': toOne('registry-modules'),
  'variable-options': {
    type: 'object',
    required: ['data'],
    properties: { data: { type: 'array', maxItems: 100, items: VARIABLE_OPTION } },
  },
};

/** A workspace variable given whole in the provisioning request's `vars` relationship. */
const VARIABLE = {
  type: 'object',
  required: ['type', 'attributes'],
  properties: {
    type: { const: 'vars' },
    attributes: { type: 'object', required: ['key', 'category'], properties: variableAttributes },
  },
};
/** The workspace settings a provisioning request may give (TFE's list); the rest take their defaults. */
const PROVISIONED = [
  'name',
  'description',
  'auto-apply',
  'execution-mode',
  'agent-pool-id',
  'source-name',
  'source-url',
] as const;
const provisionedAttributes = Object.fromEntries(PROVISIONED.map((k) => [k, workspaceAttributes[k]]));

/** Request body schemas of no-code modules, and of a workspace provisioned with one. */
export const noCodeModuleSchemas = {
  'no-code-module.create': resourceDocument('no-code-modules', noCodeAttributes, {
    relationships: noCodeRelationships,
    requiredRelationships: ['registry-module'],
  }),
  'no-code-module.update': resourceDocument('no-code-modules', noCodeAttributes, {
    relationships: noCodeRelationships,
  }),
  // go-tfe names the document's type `no-code-module-workspace`; TFE's reference, `workspaces`.
  'no-code-module.workspace': resourceDocument(['no-code-module-workspace', 'workspaces'], provisionedAttributes, {
    required: ['name'],
    relationships: {
      project: toOne('projects'),
      vars: {
        type: 'object',
        required: ['data'],
        properties: { data: { type: 'array', maxItems: 500, items: VARIABLE } },
      },
    },
  }),
} as const;
