import { BOOL, NAME, resourceDocument, toMany } from './jsonapi.js';

const poolAttributes = { name: NAME, 'organization-scoped': BOOL };
const poolRelationships = {
  'allowed-workspaces': toMany('workspaces'),
  'allowed-projects': toMany('projects'),
  'excluded-workspaces': toMany('workspaces'),
};

/** Request body schemas of agent pools. */
export const agentPoolSchemas = {
  'agent-pool.create': resourceDocument('agent-pools', poolAttributes, {
    required: ['name'],
    relationships: poolRelationships,
  }),
  'agent-pool.update': resourceDocument('agent-pools', poolAttributes, { relationships: poolRelationships }),
} as const;
