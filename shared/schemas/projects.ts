import {
  PROJECT_ACCESS_LEVELS,
  PROJECT_PERMISSION_VALUES,
  PROJECT_WORKSPACE_FLAGS,
  PROJECT_WORKSPACE_PERMISSION_VALUES,
} from '../projects/rules.js';
import { BOOL, TEXT, linkageList, resourceDocument, toOne } from './jsonapi.js';

// The name's rule is checked by the use case, which words its refusal as TFE does.
const TAG_BINDINGS = {
  type: 'object',
  properties: {
    data: {
      type: 'array',
      maxItems: 10,
      items: {
        type: 'object',
        required: ['attributes'],
        properties: {
          type: { const: 'tag-bindings' },
          attributes: {
            type: 'object',
            required: ['key'],
            properties: {
              key: { type: 'string', minLength: 1, maxLength: 128 },
              value: { type: 'string', maxLength: 256 },
            },
          },
        },
      },
    },
  },
};
const projectAttributes = {
  name: { type: 'string', maxLength: 200 },
  description: { oneOf: [{ type: 'null' }, TEXT()] },
};

const enumsOf = (values: Record<string, readonly string[]>) =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { enum: [...v] }]));
const teamProjectAttributes = {
  access: { enum: [...PROJECT_ACCESS_LEVELS] },
  'project-access': { type: 'object', additionalProperties: false, properties: enumsOf(PROJECT_PERMISSION_VALUES) },
  'workspace-access': {
    type: 'object',
    additionalProperties: false,
    properties: {
      ...enumsOf(PROJECT_WORKSPACE_PERMISSION_VALUES),
      ...Object.fromEntries(PROJECT_WORKSPACE_FLAGS.map((f) => [f, BOOL])),
    },
  },
};

export const projectSchemas = {
  'project.create': resourceDocument('projects', projectAttributes, {
    required: ['name'],
    relationships: { 'tag-bindings': TAG_BINDINGS },
  }),
  'project.update': resourceDocument('projects', projectAttributes, {
    relationships: { 'tag-bindings': TAG_BINDINGS },
  }),
  'team-project.create': resourceDocument('team-projects', teamProjectAttributes, {
    required: ['access'],
    relationships: { project: toOne('projects'), team: toOne('teams') },
    requiredRelationships: ['project', 'team'],
  }),
  'team-project.update': resourceDocument('team-projects', teamProjectAttributes),
  'varset.projects': linkageList('projects'),
  'policy-set.projects': linkageList('projects'),
} as const;
