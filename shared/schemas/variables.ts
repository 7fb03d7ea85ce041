import { BOOL, TEXT, linkageList, resourceDocument, toMany, toOne } from './jsonapi.js';
import { MAX_KEY_LENGTH, VARIABLE_CATEGORIES } from '../variables/rules.js';

/** A variable's attributes (key syntax per category is checked in domain/variable.ts, whose message names the rule). */
export const variableAttributes = {
  key: { type: 'string', maxLength: MAX_KEY_LENGTH },
  value: { oneOf: [{ type: 'null' }, TEXT(65536)] },
  description: { oneOf: [{ type: 'null' }, TEXT(512)] },
  category: { enum: [...VARIABLE_CATEGORIES] },
  hcl: BOOL,
  sensitive: BOOL,
};

const varsetAttributes = {
  name: { type: 'string', minLength: 1, maxLength: 128, pattern: '\\S' },
  description: { oneOf: [{ type: 'null' }, TEXT(512)] },
  global: BOOL,
  priority: BOOL,
};

/** Request bodies of workspace variables, variable sets and their variables. */
export const variableSchemas = {
  'variable.create': resourceDocument('vars', variableAttributes, {
    required: ['key', 'category'],
    relationships: { workspace: toOne('workspaces') },
  }),
  /** POST /vars names its workspace in a relationship. */
  'variable.create-with-workspace': resourceDocument('vars', variableAttributes, {
    required: ['key', 'category'],
    relationships: { workspace: toOne('workspaces') },
    requiredRelationships: ['workspace'],
  }),
  'variable.update': resourceDocument('vars', variableAttributes),
  'varset.create': resourceDocument('varsets', varsetAttributes, {
    required: ['name'],
    relationships: { workspaces: toMany('workspaces') },
  }),
  /** `relationships.workspaces`, when present, replaces the workspaces the set is applied to. */
  'varset.update': resourceDocument('varsets', varsetAttributes, {
    relationships: { workspaces: toMany('workspaces') },
  }),
  'varset.workspaces': linkageList('workspaces'),
} as const;
