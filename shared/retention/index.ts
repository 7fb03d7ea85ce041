// The public face of the retention feature (data retention policies and pruning old records), which server and workers call.
export { sweepDataRetention } from './data-retention.js';
export { removeDataRetentionPolicy, setDataRetentionPolicy } from './policies.js';
export { pruneOldRecords } from './prune.js';
export {
  type DataRetentionColumns,
  type DataRetentionInput,
  type DataRetentionPolicy,
  kindOfType,
  LEGACY_POLICY_TYPE,
  POLICY_TYPES,
  policyOf,
} from './rules.js';
