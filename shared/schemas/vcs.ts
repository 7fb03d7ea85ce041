import { SERVICE_PROVIDERS } from '../vcs/rules.js';
import { BOOL, linkageList, resourceDocument, toOne } from './jsonapi.js';

const nullable = (max: number) => ({ oneOf: [{ type: 'null' }, { type: 'string', maxLength: max }] });
const URL_TEXT = { type: 'string', minLength: 1, maxLength: 2000, pattern: '^https?://' };

/** What a VCS connection's request may set (go-tfe sends a name and a token string as null when unset). */
const clientAttributes = {
  'service-provider': { enum: Object.keys(SERVICE_PROVIDERS) },
  name: nullable(255),
  'http-url': URL_TEXT,
  'api-url': URL_TEXT,
  key: nullable(1000),
  secret: nullable(32768),
  'rsa-public-key': nullable(32768),
  'private-key': nullable(32768),
  'oauth-token-string': nullable(10000),
  'organization-scoped': BOOL,
};

/** Request body schemas of VCS connections (OAuth clients) and their tokens. */
export const vcsSchemas = {
  'oauth-client.create': resourceDocument('oauth-clients', clientAttributes, {
    required: ['service-provider', 'http-url', 'api-url'],
    relationships: { 'agent-pool': toOne('agent-pools', true) },
  }),
  'oauth-client.update': resourceDocument(
    'oauth-clients',
    Object.fromEntries(
      Object.entries(clientAttributes).filter(([k]) => !['service-provider', 'http-url', 'api-url'].includes(k)),
    ),
    { relationships: { 'agent-pool': toOne('agent-pools', true) } },
  ),
  'oauth-client.projects': linkageList('projects'),
  'oauth-token.update': resourceDocument('oauth-tokens', { 'ssh-key': { type: 'string', maxLength: 32768 } }),
} as const;
