import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound } from '../../shared/errors.js';
import { decryptSecret } from '../../shared/crypto.js';
import { findOutput, findStateVersion, outputsOf, type StateOutputRow, type StateVersionRow } from '../../shared/repos/state-versions.js';
import { signedObjectUrl } from '../../shared/signed-urls.js';
import { workspaceScopeById } from '../guards.js';
import { send, sendResource } from '../jsonapi.js';
import type { Req } from './body.js';
import { stateOutputResource, stateVersionResource } from '../serializers/runs.js';

/** State versions: enough for the CLI's init, `state pull` and `output`. */
export function stateVersionHandlers(deps: AppDeps) {
  const { db, config } = deps;

  const valueOf = (o: StateOutputRow, reveal: boolean): unknown => {
    if (o.sensitive && !reveal) return null;
    return JSON.parse(o.sensitive ? decryptSecret(config.encryptionKey, o.value) : o.value);
  };

  async function present(res: Response, sv: StateVersionRow) {
    const outputs = await outputsOf(db, sv.id);
    const url = sv.object_id ? signedObjectUrl(config.uploadUrl, config.encryptionKey, 'object', sv.object_id, config.downloadUrlTtlSeconds) : null;
    sendResource(res, 200, stateVersionResource(sv, outputs.map((o) => o.id), url), outputs.map((o) => stateOutputResource(o, valueOf(o, false))));
  }

  async function currentOf(req: Req, res: Response) {
    const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id);
    const row = await db('workspaces').where({ id: workspace.id }).first('current_state_version_id');
    const sv = row?.current_state_version_id ? await findStateVersion(db, row.current_state_version_id) : undefined;
    if (!sv) throw new NotFound('the workspace has no state yet');
    return sv;
  }

  return {
    async current(req: Req, res: Response) {
      await present(res, await currentOf(req, res));
    },

    async show(req: Req, res: Response) {
      const sv = await findStateVersion(db, req.params.id);
      if (!sv) throw new NotFound();
      await workspaceScopeById(db, res.locals.principal, sv.workspace_id);
      await present(res, sv);
    },

    async currentOutputs(req: Req, res: Response) {
      const sv = await currentOf(req, res);
      const outputs = await outputsOf(db, sv.id);
      send(res, 200, { data: outputs.map((o) => stateOutputResource(o, valueOf(o, false))) });
    },

    /** One output, with its value even when sensitive (the CLI reads sensitive outputs this way). */
    async output(req: Req, res: Response) {
      const o = await findOutput(db, req.params.id);
      const sv = o ? await findStateVersion(db, o.state_version_id) : undefined;
      if (!o || !sv) throw new NotFound();
      await workspaceScopeById(db, res.locals.principal, sv.workspace_id);
      sendResource(res, 200, stateOutputResource(o, valueOf(o, true)));
    },
  };
}
