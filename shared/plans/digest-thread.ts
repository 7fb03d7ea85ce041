/** The thread of PlanDigester.digest (see plan-digest.ts): digests one JSON plan and answers with the result. */
import { parentPort, workerData } from 'node:worker_threads';
import { digestHere, type DigestInput } from './digest.js';

const { counts, schemas, redacted } = digestHere(workerData as DigestInput);
// A buffer of its own is handed over, not copied (a small one may share Node's pool, which cannot be).
const own = [redacted, schemas].flatMap((b) =>
  b && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? [b.buffer as ArrayBuffer] : [],
);
parentPort!.postMessage({ counts, schemas, redacted }, own);
