import { BOOL, resourceDocument } from './jsonapi.js';

/** Request body schemas of configuration versions. Both the singular type and the plural that clients send are accepted. */
export const configurationVersionSchemas = {
  'cv.create': resourceDocument(['configuration-versions', 'configuration-version'], {
    'auto-queue-runs': BOOL,
    speculative: BOOL,
    provisional: BOOL,
  }),
} as const;
