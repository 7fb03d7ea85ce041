import { BOOL, linkage, linkageList, resourceDocument, toOne } from './jsonapi.js';

/** Base64 text; the state itself may be large (the JSON body limit caps it). */
const BASE64 = { type: 'string', minLength: 1 };

/** Request body schemas of state versions and remote state sharing. */
export const stateVersionSchemas = {
  'state-version.create': resourceDocument(
    'state-versions',
    {
      serial: { type: 'integer', minimum: 0, maximum: 2147483647 },
      md5: { type: 'string', minLength: 1, maxLength: 64 },
      lineage: { oneOf: [{ type: 'null' }, { type: 'string', minLength: 1, maxLength: 200 }] },
      state: BASE64,
      'json-state': BASE64,
      'json-state-outputs': BASE64,
      force: BOOL,
    },
    { required: ['serial', 'md5'], relationships: { run: toOne('runs', true) } },
  ),
  /** `POST /workspaces/:id/actions/rollback`: `{"data": {"type": "state-versions", "id": ...}}`. */
  'state-version.rollback': { type: 'object', required: ['data'], properties: { data: linkage('state-versions') } },
  'workspace.remote-state-consumers': linkageList('workspaces'),
  /** PATCH replaces the list, and may empty it. */
  'workspace.remote-state-consumers.replace': {
    type: 'object',
    required: ['data'],
    properties: { data: { type: 'array', maxItems: 1000, items: linkage('workspaces') } },
  },
} as const;
