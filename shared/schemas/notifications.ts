import { BOOL, TEXT, resourceDocument, toMany } from './jsonapi.js';
import { DESTINATION_TYPES, TRIGGERS } from '../notifications/machine.js';

const attributes = {
  'destination-type': { enum: [...DESTINATION_TYPES] },
  enabled: BOOL,
  name: { type: 'string', minLength: 1, maxLength: 200 },
  token: { oneOf: [{ type: 'null' }, TEXT(1000)] },
  triggers: { type: 'array', maxItems: 20, uniqueItems: true, items: { enum: [...TRIGGERS] } },
  url: { oneOf: [{ type: 'null' }, { type: 'string', maxLength: 2000, pattern: '^https?://[^\\s]+$' }] },
  'email-addresses': { type: 'array', maxItems: 50, items: { type: 'string', format: 'email' } },
};

/** TFE documents the request type in the singular; go-tfe sends the plural. Both are accepted. */
const TYPES = ['notification-configuration', 'notification-configurations'];

export const notificationSchemas = {
  'notification.create': resourceDocument(TYPES, attributes, {
    required: ['destination-type', 'name'],
    relationships: { users: toMany('users'), subscribable: { type: 'object' } },
  }),
  'notification.update': resourceDocument(TYPES, attributes, {
    relationships: { users: toMany('users'), subscribable: { type: 'object' } },
  }),
} as const;
