import { BOOL, resourceDocument } from './jsonapi.js';

/** Request body schemas of configuration versions. The contract names the type in the singular; clients send the plural. */
export const configurationVersionSchemas = {
  'cv.create': resourceDocument(['configuration-versions', 'configuration-version'], {
    'auto-queue-runs': BOOL,
    speculative: BOOL,
    provisional: BOOL,
  }),
} as const;
