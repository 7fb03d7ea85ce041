import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound } from '../../shared/errors.js';
import { decryptSecret } from '../../shared/crypto.js';
import { findOutput, findStateVersion, outputsOf, type StateOutputRow, type StateVersionRow } from '../../shared/repos/state-versions.js';
import { signedObjectUrl } from '../../shared/signed-urls.js';
import { workspaceScopeById } from '../guards.js';
import { accessAtLeast, type WorkspaceAccess } from '../../shared/access.js';
import { send, sendResource } from '../jsonapi.js';
import type { Req } from './body.js';
import { stateOutputResource, stateVersionResource } from '../serializers/runs.js';

/**
 * Whether an access level reads whole states (download, sensitive output values): write and admin.
 * Read and plan access is TFE's `read-outputs`: non-sensitive output values only.
 */
const readsState = (access: WorkspaceAccess) => accessAtLeast(access, 'write');

/** State versions: enough for the CLI's init, `state pull` and `output`. */
export function stateVersionHandlers(deps: AppDeps) {
  const { db, config } = deps;

  const valueOf = (o: StateOutputRow, reveal: boolean): unknown => {
    if (o.sensitive && !reveal) return null;
    return JSON.parse(o.sensitive ? decryptSecret(config.encryptionKey, o.value) : o.value);
  };

  /** A state version; its download URL only for callers who may read the whole state. */
  async function present(res: Response, sv: StateVersionRow, access: WorkspaceAccess) {
    const outputs = await outputsOf(db, sv.id);
    const url = sv.object_id && readsState(access) ? signedObjectUrl(config.uploadUrl, config.encryptionKey, 'object', sv.object_id, config.downloadUrlTtlSeconds) : null;
    sendResource(res, 200, stateVersionResource(sv, outputs.map((o) => o.id), url), outputs.map((o) => stateOutputResource(o, valueOf(o, false))));
  }

  async function currentOf(req: Req, res: Response) {
    const { workspace, access } = await workspaceScopeById(db, res.locals.principal, req.params.id);
    const row = await db('workspaces').where({ id: workspace.id }).first('current_state_version_id');
    const sv = row?.current_state_version_id ? await findStateVersion(db, row.current_state_version_id) : undefined;
    if (!sv) throw new NotFound('the workspace has no state yet');
    return { sv, access };
  }

  return {
    async current(req: Req, res: Response) {
      const { sv, access } = await currentOf(req, res);
      await present(res, sv, access);
    },

    async show(req: Req, res: Response) {
      const sv = await findStateVersion(db, req.params.id);
      if (!sv) throw new NotFound();
      const { access } = await workspaceScopeById(db, res.locals.principal, sv.workspace_id);
      await present(res, sv, access);
    },

    async currentOutputs(req: Req, res: Response) {
      const { sv } = await currentOf(req, res);
      const outputs = await outputsOf(db, sv.id);
      send(res, 200, { data: outputs.map((o) => stateOutputResource(o, valueOf(o, false))) });
    },

    /**
     * One output, with its value even when sensitive (the CLI reads sensitive outputs this way) for
     * callers who may read the whole state; a sensitive value is null for read-outputs callers.
     */
    async output(req: Req, res: Response) {
      const o = await findOutput(db, req.params.id);
      const sv = o ? await findStateVersion(db, o.state_version_id) : undefined;
      if (!o || !sv) throw new NotFound();
      const { access } = await workspaceScopeById(db, res.locals.principal, sv.workspace_id);
      sendResource(res, 200, stateOutputResource(o, valueOf(o, readsState(access))));
    },
  };
}
