import type { Request, Response } from 'express';
import type { AppDeps } from '../context.js';
import { BadRequest, NotFound } from '../../shared/platform/errors.js';
import {
  acceptStateUpload,
  type BackingDataEvent,
  changeRemoteStateConsumers,
  createStateVersion,
  currentResources,
  findOutput,
  findStateVersion,
  outputsOf,
  remoteStateConsumers,
  rollbackStateVersion,
  servesState,
  type StateOutputRow,
  type StateUploadKind,
  stateVersionBackingData,
  stateVersionOrganization,
  type StateVersionRow,
  outputValue,
} from '../../shared/state/index.js';
import { findWorkspace, findWorkspaceByName } from '../../shared/workspaces/index.js';
import { visibleWorkspacesByIds, workspaceFacts } from '../../shared/workspaces/queries.js';
import { workspaceResource } from '../serializers/foundation.js';
import { stateReadableByRun } from '../../shared/runs/index.js';
import { currentStateVersionId, outputsByVersion, stateVersionsPage } from '../../shared/state/queries.js';
import { signedObjectUrl } from '../signed-urls.js';
import { workspaceScope, workspaceScopeById } from '../guards.js';
import { allows, type WorkspaceAccess } from '../../shared/identity/access.queries.js';
import {
  paginate,
  readInclude,
  readPageOrDefault,
  readParam,
  send,
  sendResource,
  type Resource,
  sliceOf,
} from '../jsonapi.js';
import type { Config } from '../../shared/platform/config.js';
import { attributesOf, linkageIds, type Req } from './body.js';
import { stateOutputResource, stateVersionResource, workspaceResourceResource } from '../serializers/runs.js';
import type { Uploads } from '../uploads.js';

/**
 * Whether an access reads whole states (download, sensitive output values); with `read-outputs`
 * only the versions and their non-sensitive output values.
 */
const readsState = (access: WorkspaceAccess) => allows(access, 'read-state');

/** Signed-URL kinds of a state version's two upload URLs. */
export const STATE_UPLOAD_KINDS: Record<string, StateUploadKind> = {
  'sv-upload': 'state',
  'sv-json-upload': 'json-state',
};

/** Signed-URL kinds of a state version's two download URLs, and which of its stored objects each serves. */
export const STATE_DOWNLOAD_KINDS = { 'sv-download': 'object_id', 'sv-json-download': 'json_object_id' } as const;
export type StateDownloadKind = keyof typeof STATE_DOWNLOAD_KINDS;

/** State versions: the CLI's init, `state push`/`pull`, `output` and local runs, and the API's state endpoints. */
/**
 * A state version as `access` may see it: downloads only for whole-state readers, upload URLs while
 * pending for writers. A run token (`run`) reads whole states it may read (terraform_remote_state
 * downloads the state), through URLs under RUN_API_URL, where its sandbox reaches the API; it never
 * gets upload URLs.
 */
export function stateVersionAs(
  config: Config,
  sv: StateVersionRow,
  outputIds: string[],
  access: WorkspaceAccess | 'run',
): Resource {
  const url = (kind: string, id: string, ttl: number) =>
    signedObjectUrl(config.uploadUrl, config.encryptionKey, kind, id, ttl);
  const run = access === 'run';
  const whole = run || readsState(access);
  const writes = !run && whole;
  // Download URLs name the version, not its stored object, so that one given out stops working
  // while the version's backing data is deleted (and works again once it is restored).
  const download = (kind: StateDownloadKind) =>
    run
      ? signedObjectUrl(config.runApiUrl, config.encryptionKey, kind, sv.id, config.downloadUrlTtlSeconds)
      : url(kind, sv.id, config.downloadUrlTtlSeconds);
  const served = whole && servesState(sv);
  return stateVersionResource(sv, outputIds, {
    download: served && sv.object_id ? download('sv-download') : null,
    jsonDownload: served && sv.json_object_id ? download('sv-json-download') : null,
    upload: writes && sv.status === 'pending' ? url('sv-upload', sv.id, config.uploadUrlTtlSeconds) : null,
    jsonUpload: writes && sv.status === 'pending' ? url('sv-json-upload', sv.id, config.uploadUrlTtlSeconds) : null,
  });
}

export function stateVersionHandlers(deps: AppDeps) {
  const { db, config } = deps;

  const valueOf = (o: StateOutputRow, reveal: boolean): unknown => {
    if (o.sensitive && !reveal) return null;
    return outputValue(config.encryptionKey, o);
  };

  const resourceOf = (sv: StateVersionRow, outputs: StateOutputRow[], access: WorkspaceAccess | 'run') =>
    stateVersionAs(
      config,
      sv,
      outputs.map((o) => o.id),
      access,
    );

  /** One state version with its outputs included (sensitive values withheld). */
  async function present(res: Response, status: number, sv: StateVersionRow, access: WorkspaceAccess | 'run') {
    const outputs = await outputsOf(db, sv.id);
    sendResource(
      res,
      status,
      resourceOf(sv, outputs, access),
      outputs.map((o) => stateOutputResource(o, valueOf(o, false))),
    );
  }

  /** A page of a workspace's state versions; outputs included with include=outputs. */
  async function list(req: Req, res: Response, workspaceId: string, access: WorkspaceAccess) {
    const inc = readInclude(req, ['outputs']);
    const page = readPageOrDefault(req);
    const { rows, total } = await stateVersionsPage(db, workspaceId, page);
    const outputs = await outputsByVersion(
      db,
      rows.map((r) => r.id),
    );
    const included = inc.has('outputs')
      ? rows.flatMap((r) => outputs.get(r.id)!.map((o) => stateOutputResource(o, valueOf(o, false))))
      : [];
    send(res, 200, {
      data: rows.map((r) => resourceOf(r, outputs.get(r.id)!, access)),
      ...(included.length ? { included } : {}),
      ...paginate(req, page, total),
    });
  }

  /** The workspace's current state version, for a caller that reads the workspace or a run token that may read its state. */
  async function currentOf(req: Req, res: Response): Promise<{ sv: StateVersionRow; access: WorkspaceAccess | 'run' }> {
    const principal = res.locals.principal;
    const { workspace, access } =
      principal.kind === 'run'
        ? {
            workspace: await stateReadableByRun(deps, principal, await findWorkspace(db, req.params.id)),
            access: 'run' as const,
          }
        : await workspaceScopeById(db, principal, req.params.id, 'read-state-outputs');
    const id = await currentStateVersionId(db, workspace.id);
    const sv = id ? await findStateVersion(db, id) : undefined;
    if (!sv) throw new NotFound('the workspace has no state yet');
    return { sv, access };
  }

  return {
    async current(req: Req, res: Response) {
      const { sv, access } = await currentOf(req, res);
      await present(res, 200, sv, access);
    },

    async show(req: Req, res: Response) {
      const sv = await findStateVersion(db, req.params.id);
      if (!sv || sv.status === 'discarded') throw new NotFound();
      const { access } = await workspaceScopeById(db, res.locals.principal, sv.workspace_id, 'read-state-outputs');
      readInclude(req, ['outputs']);
      await present(res, 200, sv, access);
    },

    /**
     * GET /state-versions/:id/outputs: the version's outputs, paged, with sensitive values for
     * callers who may read the whole state (as one output by id shows them), withheld for others.
     */
    async outputs(req: Req, res: Response) {
      const sv = await findStateVersion(db, req.params.id);
      if (!sv) throw new NotFound();
      const { access } = await workspaceScopeById(db, res.locals.principal, sv.workspace_id, 'read-state-outputs');
      const page = readPageOrDefault(req);
      const outputs = await outputsOf(db, sv.id);
      const reveal = readsState(access);
      send(res, 200, {
        data: sliceOf(outputs, page).map((o) => stateOutputResource(o, valueOf(o, reveal))),
        ...paginate(req, page, outputs.length),
      });
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
      const { access } = await workspaceScopeById(db, res.locals.principal, sv.workspace_id, 'read-state-outputs');
      sendResource(res, 200, stateOutputResource(o, valueOf(o, readsState(access))));
    },

    /** GET /workspaces/:id/resources (state outputs readers): the managed resource instances of the current state, paged. */
    async resources(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'read-state-outputs');
      const page = readPageOrDefault(req);
      const current = await currentResources(deps, workspace.id);
      const all = current?.resources ?? [];
      const data = current
        ? sliceOf(all, page).map((r) => workspaceResourceResource(workspace.id, current.version, r))
        : [];
      send(res, 200, { data, ...paginate(req, page, all.length) });
    },

    /** GET /workspaces/:id/state-versions (state outputs readers). */
    async listForWorkspace(req: Req, res: Response) {
      const { workspace, access } = await workspaceScopeById(
        db,
        res.locals.principal,
        req.params.id,
        'read-state-outputs',
      );
      await list(req, res, workspace.id, access);
    },

    /** GET /state-versions?filter[workspace][name]=&filter[organization][name]= (both required, as TFE). */
    async listByName(req: Req, res: Response) {
      const org = readParam(req, 'filter[organization][name]');
      const name = readParam(req, 'filter[workspace][name]');
      if (!org) throw new BadRequest('filter[organization][name] is required', 'filter[organization][name]');
      if (!name) throw new BadRequest('filter[workspace][name] is required', 'filter[workspace][name]');
      const { workspace, access } = await workspaceScope(
        db,
        res.locals.principal,
        await findWorkspaceByName(db, org, name),
        'read-state-outputs',
      );
      await list(req, res, workspace.id, access);
    },

    /** POST /workspaces/:id/state-versions (state writers, and the caller holds the lock). */
    async create(req: Req, res: Response) {
      const { workspace, access } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'write-state');
      const a = attributesOf(req) as {
        serial: number;
        md5: string;
        lineage?: string | null;
        state?: string;
        'json-state'?: string;
        force?: boolean;
      };
      const sv = await createStateVersion(deps, res.locals.principal, workspace.id, {
        serial: a.serial,
        md5: a.md5,
        lineage: a.lineage,
        state: a.state,
        jsonState: a['json-state'],
        force: a.force,
      });
      await present(res, 201, sv, access);
    },

    /** POST /workspaces/:id/actions/rollback (state writers, and the caller holds the lock). */
    async rollback(req: Req, res: Response) {
      const { workspace, access } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'write-state');
      const from = (req.body as { data: { id: string } }).data.id;
      await present(res, 201, await rollbackStateVersion(deps, res.locals.principal, workspace.id, from), access);
    },

    /**
     * GET /workspaces/:id/relationships/remote-state-consumers (read access): the consumer workspaces
     * the caller may see, as whole workspace documents (clients decode them as workspaces), paged.
     */
    async consumers(req: Req, res: Response) {
      const { workspace, grant } = await workspaceScopeById(db, res.locals.principal, req.params.id);
      const page = readPageOrDefault(req);
      const { rows, access } = await visibleWorkspacesByIds(db, grant, await remoteStateConsumers(deps, workspace.id));
      const slice = sliceOf(rows, page);
      const tags = await workspaceFacts(
        db,
        slice.map((w) => w.id),
      );
      send(res, 200, {
        data: slice.map((w) => workspaceResource(w, access.get(w.id)!, tags.get(w.id))),
        ...paginate(req, page, rows.length),
      });
    },

    /**
     * POST /state-versions/:id/actions/soft_delete_backing_data, restore_backing_data and
     * permanently_delete_backing_data (admin access, self-hosted edition): 200 with no body.
     */
    backingData(event: BackingDataEvent) {
      return async (req: Req, res: Response) => {
        if (config.edition !== 'self-hosted') throw new NotFound();
        const sv = await findStateVersion(db, req.params.id);
        if (!sv || sv.status === 'discarded') throw new NotFound();
        await workspaceScopeById(db, res.locals.principal, sv.workspace_id, 'admin');
        await stateVersionBackingData(deps, sv.id, event);
        res.status(200).end();
      };
    },

    /** POST (add), PATCH (replace) and DELETE (remove) consumers: admin access. */
    changeConsumers(how: 'add' | 'remove' | 'replace') {
      return async (req: Req, res: Response) => {
        const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'admin');
        const ids =
          how === 'replace'
            ? [...new Set((req.body as { data: { id: string }[] }).data.map((d) => d.id))]
            : linkageIds(req);
        await changeRemoteStateConsumers(deps, workspace, how, ids);
        res.status(204).end();
      };
    },
  };
}

/**
 * PUT to a state version's upload URL (the signed grant was checked by the caller), streamed in
 * the upload slots; a state version does not record who created it, so only its organization and
 * the client's address count it.
 */
export async function uploadState(
  deps: AppDeps,
  uploads: Uploads,
  req: Request,
  res: Response,
  kind: StateUploadKind,
  svId: string,
): Promise<void> {
  const organization = await stateVersionOrganization(deps.db, svId);
  if (!organization) throw new NotFound('state version not found');
  await uploads.receive(req, res, { organization, user: null }, (body, declared) =>
    acceptStateUpload(deps, svId, kind, body, declared),
  );
  send(res, 200, {});
}

/** The stored object a state version's download URL serves (the signed grant was checked by the caller): 404 unless the version has its backing data. */
export async function stateObjectOf(deps: AppDeps, kind: StateDownloadKind, svId: string): Promise<string> {
  const sv = await findStateVersion(deps.db, svId);
  const objectId = sv && servesState(sv) ? sv[STATE_DOWNLOAD_KINDS[kind]] : null;
  if (!objectId) throw new NotFound();
  return objectId;
}
