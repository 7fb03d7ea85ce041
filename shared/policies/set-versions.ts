import type { Runtime } from '../runtime.js';
import { NotFound, Unprocessable } from '../platform/errors.js';
import { archiveTexts } from '../platform/archive.js';
import { MAX_BUNDLE_BYTES, MAX_BUNDLE_ENTRIES, readBundle } from './bundle.rules.js';
import { findPolicySet, type PolicySetRow } from './repo.js';
import {
  findPolicySetVersion,
  insertPolicySetVersion,
  settlePolicySetVersion,
  type PolicySetVersionSummary,
} from './set-versions.repo.js';
import { UploadRefused } from '../configuration-versions/index.js';

/**
 * Creates a pending version of a set; its upload URL takes the bundle. Only editions above the
 * free one create policy set versions through the API (the free edition: 422, nothing saved).
 */
export async function createPolicySetVersion(rt: Runtime, set: PolicySetRow): Promise<PolicySetVersionSummary> {
  if (rt.config.edition === 'free')
    throw new Unprocessable(
      'the free edition does not create policy set versions through the API; attach policies to the set instead',
      { document: true },
    );
  return insertPolicySetVersion(rt.db, set.id);
}

/**
 * The upload of a version's bundle (once: a version that is not pending refuses it, 403). An
 * archive that is too large (413: over MAX_BUNDLE_BYTES, or the archive limit if lower), unpacks
 * to more than MAX_BUNDLE_BYTES or MAX_BUNDLE_ENTRIES files, or is not a safe tar.gz (422) errors
 * the version and is refused;
 * a valid archive whose configuration or files do not make a bundle errors the version with
 * why, and is accepted (clients read the status, as on TFE, where bundles are read after the
 * upload). Otherwise the version is ready and the set evaluates its policies from then on.
 */
export async function acceptPolicySetVersionUpload(
  rt: Runtime,
  id: string,
  body: AsyncIterable<Buffer>,
  declaredBytes?: number,
): Promise<PolicySetVersionSummary> {
  const version = await findPolicySetVersion(rt.db, id);
  if (!version) throw new UploadRefused('not-found', 'not found', 'policy set version not found');
  if (version.status !== 'pending')
    throw new UploadRefused('forbidden', 'forbidden', 'this upload URL has already been used');
  const set = await findPolicySet(rt.db, version.policy_set_id);
  if (!set) throw new NotFound('policy set not found');
  const limit = Math.min(rt.config.maxArchiveBytes, MAX_BUNDLE_BYTES);
  const refuse = async (kind: 'too-large' | 'invalid', title: string, message: string): Promise<never> => {
    await settlePolicySetVersion(rt.db, id, { status: 'errored', error: title, error_message: message });
    throw new UploadRefused(kind, title, message);
  };
  const tooLarge = `the archive is larger than the limit of ${limit} bytes`;
  if (declaredBytes !== undefined && declaredBytes > limit) await refuse('too-large', 'payload too large', tooLarge);
  const parts: Buffer[] = [];
  let size = 0;
  for await (const piece of body) {
    size += piece.length;
    if (size > limit) await refuse('too-large', 'payload too large', tooLarge);
    parts.push(piece);
  }
  const archive = await archiveTexts(
    Buffer.concat(parts),
    MAX_BUNDLE_BYTES,
    Math.min(rt.config.maxArchiveEntries, MAX_BUNDLE_ENTRIES),
  );
  if (!archive.ok) return refuse('invalid', 'invalid archive', archive.message);
  const bundle = readBundle(set.kind, archive.files);
  const settled = await settlePolicySetVersion(
    rt.db,
    id,
    bundle.ok
      ? { status: 'ready', policies: bundle.policies }
      : { status: 'errored', error: bundle.error, error_message: bundle.message },
  );
  if (!settled) throw new UploadRefused('forbidden', 'forbidden', 'this upload URL has already been used');
  return settled;
}
