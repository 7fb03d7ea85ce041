// The public face of idempotency keys: a creation a client may retry with the same key, made once.
export {
  createOnce,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_HOURS,
  type IdempotentRequest,
  idempotentRequest,
  REPLAYED_HEADER,
} from './commands.js';
export type { IdempotencyColumns } from './repo.js';
