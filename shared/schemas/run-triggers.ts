import { resourceDocument, toOne } from './jsonapi.js';

/** Request body schemas of run triggers. */
export const runTriggerSchemas = {
  'run-trigger.create': resourceDocument(
    'run-triggers',
    {},
    { relationships: { sourceable: toOne('workspaces') }, requiredRelationships: ['sourceable'] },
  ),
} as const;
