/**
 * The thread of digestPlan (see plan-digest.ts): parses one JSON plan, and answers with its change
 * counts, the providers' schemas its changes render with, and its redacted form, serialized.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { countChanges, schemasOfChanges, structuredPlan } from './plan-json.js';
import type { DigestInput } from './plan-digest.js';

const bytes = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

const { plan: planBytes, schemas: schemaBytes } = workerData as DigestInput;
const plan = JSON.parse(bytes(planBytes).toString('utf8'));
const schemas = schemaBytes ? schemasOfChanges(plan, JSON.parse(bytes(schemaBytes).toString('utf8'))) : null;
const redacted = Buffer.from(JSON.stringify(structuredPlan(plan, schemas)));
const used = schemas ? Buffer.from(JSON.stringify(schemas)) : null;
// A buffer of its own is handed over, not copied (a small one may share Node's pool, which cannot be).
const own = [redacted, used].flatMap((b) => (b && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? [b.buffer as ArrayBuffer] : []));
parentPort!.postMessage({ counts: countChanges(plan), schemas: used, redacted }, own);
