import { LEGACY_POLICY_TYPE, MAX_RETENTION_DAYS, POLICY_TYPES } from '../retention/rules.js';
import { resourceDocument } from './jsonapi.js';

/** Request body schemas of data retention policies (the current types and the legacy delete-older one). */
export const dataRetentionPolicySchemas = {
  'data-retention-policy.set': resourceDocument(
    [POLICY_TYPES['delete-older'], POLICY_TYPES['dont-delete'], LEGACY_POLICY_TYPE],
    {
      'delete-older-than-n-days': { type: 'integer', minimum: 1, maximum: MAX_RETENTION_DAYS },
    },
  ),
} as const;
