import type { Request, Response } from 'express';
import type { AppDeps } from '../context.js';
import { ApiError, NotFound } from '../../shared/platform/errors.js';
import { SignedUrlError, verifyGrant, type Grant } from '../signed-urls.js';
import { findCvWithOrganization } from '../../shared/configuration-versions/index.js';
import { acceptUpload } from '../../shared/runs/index.js';
import { acceptModuleUpload, moduleVersionOwner } from '../../shared/registry/index.js';
import { send } from '../jsonapi.js';
import type { UploadOwner, Uploads } from '../uploads.js';
import {
  stateObjectOf,
  STATE_DOWNLOAD_KINDS,
  STATE_UPLOAD_KINDS,
  uploadState,
  type StateDownloadKind,
} from './state-versions.js';
import { POLICY_SET_VERSION_UPLOAD } from '../serializers/policies.js';
import { acceptPolicySetVersionUpload, policySetVersionOrganization } from '../../shared/policies/index.js';

/** Checks a URL token; a bad one stores nothing and answers 403 (404 when it is not a token at all). */
function grantOf(deps: AppDeps, token: string, kinds: string[]): Grant {
  try {
    const grant = verifyGrant(deps.config.encryptionKey, token);
    if (!kinds.includes(grant.kind)) throw new NotFound();
    return grant;
  } catch (err) {
    if (!(err instanceof SignedUrlError)) throw err;
    if (err.reason === 'malformed') throw new NotFound();
    throw new ApiError(
      'forbidden',
      'forbidden',
      err.reason === 'expired' ? 'this URL has expired' : 'this URL is not valid (bad signature)',
    );
  }
}

/**
 * An archive upload's target, found before the body is read: whom the upload counts against (its
 * organization, and the user who created the version: the URL carries no token) and what takes the body.
 */
interface ArchiveTarget {
  owner: UploadOwner | null;
  accept(body: AsyncIterable<Buffer>, declaredBytes?: number): Promise<unknown>;
}

/** Archives uploaded through a signed URL, by grant kind: what they are, and their target when it exists. */
const ARCHIVE_UPLOADS: Record<
  string,
  { what: string; find: (deps: AppDeps, id: string) => Promise<ArchiveTarget | undefined> }
> = {
  'cv-upload': {
    what: 'configuration version',
    find: async (deps, id) => {
      const cv = await findCvWithOrganization(deps.db, id);
      const owner = cv?.organization_name ? { organization: cv.organization_name, user: cv.created_by_id } : null;
      return cv && { owner, accept: (body, declaredBytes) => acceptUpload(deps, cv, body, declaredBytes) };
    },
  },
  'module-upload': {
    what: 'module version',
    find: async (deps, id) => {
      const found = await moduleVersionOwner(deps.db, id);
      return (
        found && {
          owner: { organization: found.organization, user: found.createdById },
          accept: (body, declaredBytes) => acceptModuleUpload(deps, id, body, declaredBytes),
        }
      );
    },
  },
};

/** Signed object URLs: `PUT {upload_url}/v1/object/<token>` takes an archive without a token; GET downloads. */
export function objectHandlers(deps: AppDeps, uploads: Uploads) {
  /** A policy set version's bundle, in the upload slots of the set's organization (a version does not record who created it). */
  async function uploadPolicySetVersion(id: string, req: Request, res: Response) {
    const organization = await policySetVersionOrganization(deps.db, id);
    if (!organization) throw new NotFound('policy set version not found');
    await uploads.receive(req, res, { organization, user: null }, (body, declaredBytes) =>
      acceptPolicySetVersionUpload(deps, id, body, declaredBytes),
    );
    send(res, 200, {});
  }

  return {
    /** Streams the archive (or a state version's state) into the store as it arrives, in the upload slots. */
    async upload(req: Request<{ token: string }>, res: Response) {
      const grant = grantOf(deps, req.params.token, [
        ...Object.keys(ARCHIVE_UPLOADS),
        POLICY_SET_VERSION_UPLOAD,
        ...Object.keys(STATE_UPLOAD_KINDS),
      ]);
      if (grant.kind === POLICY_SET_VERSION_UPLOAD) return uploadPolicySetVersion(grant.id, req, res);
      const archive = ARCHIVE_UPLOADS[grant.kind];
      if (!archive) return uploadState(deps, uploads, req, res, STATE_UPLOAD_KINDS[grant.kind], grant.id);
      const target = await archive.find(deps, grant.id);
      if (!target?.owner) throw new NotFound(`${archive.what} not found`);
      await uploads.receive(req, res, target.owner, (body, declaredBytes) => target.accept(body, declaredBytes));
      send(res, 200, {});
    },

    async download(req: Request<{ token: string }>, res: Response) {
      const grant = grantOf(deps, req.params.token, ['object', ...Object.keys(STATE_DOWNLOAD_KINDS)]);
      await sendObject(
        deps,
        res,
        grant.kind === 'object' ? grant.id : await stateObjectOf(deps, grant.kind as StateDownloadKind, grant.id),
      );
    },
  };
}

/** Streams a stored object as the answer (404 when it is not stored). */
async function sendObject(deps: AppDeps, res: Response, id: string): Promise<void> {
  const stat = await deps.store.stat(id);
  const stream = stat ? await deps.store.get(id) : null;
  if (!stat || !stream) throw new NotFound();
  res.status(200).set({
    'Content-Type': stat.contentType,
    'Content-Length': String(stat.size),
    'Cache-Control': 'private, no-store',
  });
  stream.on('error', (err) => res.destroy(err));
  stream.pipe(res);
}
