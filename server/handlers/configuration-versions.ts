import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { Forbidden, NotFound } from '../../shared/platform/errors.js';
import { allows, type WorkspaceNeed } from '../../shared/identity/access.queries.js';
import { cvRelations, cvsPage } from '../../shared/configuration-versions/queries.js';
import {
  createWorkspaceCv,
  cvAction,
  type CvRow,
  findCv,
  findIngress,
} from '../../shared/configuration-versions/index.js';
import { findRun } from '../../shared/runs/index.js';
import { createOnce, IDEMPOTENCY_HEADER, idempotentRequest, REPLAYED_HEADER } from '../../shared/idempotency/index.js';
import { signedObjectUrl } from '../signed-urls.js';
import type { Db } from '../../shared/platform/db.js';
import { cvScope, workspaceScopeById, type WorkspaceScope } from '../guards.js';
import { check } from '../validate.js';
import { paginate, readInclude, readPageOrDefault, send, sendResource, type Resource } from '../jsonapi.js';
import { attributesOf, hasDocument, requestSource, type Req } from './body.js';
import { cvResource, ingressResource } from '../serializers/configuration-versions.js';
import { presentRuns } from './runs.js';
import type { Config } from '../../shared/platform/config.js';

const INCLUDES = ['ingress_attributes', 'run'] as const;
const UNREADABLE = ['backing_data_soft_deleted', 'backing_data_permanently_deleted'];

/** 404 for a version whose backing data was deleted. */
function mustBeReadable(cv: CvRow): void {
  if (UNREADABLE.includes(cv.status))
    throw new NotFound(`configuration version ${cv.id} has its backing data deleted (${cv.status})`);
}

/** Versions with their ingress attributes and, when asked, the run each one created. */
async function present(
  db: Db,
  config: Config,
  cvs: CvRow[],
  include: Set<string>,
  scope: Pick<WorkspaceScope, 'grant' | 'access'>,
): Promise<{ data: Resource[]; included: Resource[] }> {
  const ids = cvs.map((c) => c.id);
  const { ingress, runs } = await cvRelations(db, ids, include.has('run'));
  const data = cvs.map((cv) =>
    cvResource(cv, { ingressId: ingress.find((i) => i.configuration_version_id === cv.id)?.id ?? null }),
  );
  const included = [
    ...(include.has('ingress_attributes') ? ingress.map(ingressResource) : []),
    ...(await presentRuns(db, config, runs, () => scope.access, scope.grant)).data,
  ];
  return { data, included };
}

export function configurationVersionHandlers(rt: AppDeps) {
  const { db, config } = rt;

  /** The version and the caller's access to its workspace (404 when invisible or below `need`). */
  async function load(
    req: Req,
    res: Response,
    need: WorkspaceNeed = 'read',
    readable = true,
  ): Promise<{ cv: CvRow; scope: WorkspaceScope }> {
    const cv = await findCv(db, req.params.id);
    // Module test versions are reached through their module's test endpoints only.
    if (!cv?.workspace_id) throw new NotFound();
    const scope = await workspaceScopeById(db, res.locals.principal, cv.workspace_id, need);
    if (readable) mustBeReadable(cv);
    return { cv, scope };
  }

  const downloadRedirect = (res: Response, cv: CvRow | undefined) => {
    if (!cv || cv.status !== 'uploaded' || !cv.archive_object_id)
      throw new NotFound('the configuration version has no uploaded archive to download');
    res.redirect(
      302,
      signedObjectUrl(
        config.uploadUrl,
        config.encryptionKey,
        'object',
        cv.archive_object_id,
        config.downloadUrlTtlSeconds,
      ),
    );
  };

  /** The three self-hosted actions: 200 with no body, 400 when the transition fails, 404 in other editions. */
  const backingDataAction =
    (event: 'soft_delete' | 'restore' | 'permanent_delete') => async (req: Req, res: Response) => {
      if (config.edition !== 'self-hosted') throw new NotFound();
      const { cv } = await load(req, res, 'admin', false);
      await cvAction(rt, cv.id, event, 'bad-request');
      res.status(200).end();
    };

  return {
    async list(req: Req, res: Response) {
      const scope = await workspaceScopeById(db, res.locals.principal, req.params.id, 'read');
      const include = readInclude(req, INCLUDES);
      const page = readPageOrDefault(req);
      const { rows, total: count } = await cvsPage(db, req.params.id, page);
      const body = await present(db, config, rows, include, scope);
      send(res, 200, {
        data: body.data,
        ...(body.included.length ? { included: body.included } : {}),
        ...paginate(req, page, Number(count)),
      });
    },

    async create(req: Req, res: Response) {
      const principal = res.locals.principal;
      const { workspace, access } = await workspaceScopeById(
        db,
        principal,
        req.params.id,
        'queue-plans',
        res.locals.earlyGuardRead,
      );
      if (principal.kind === 'organization') {
        throw new Forbidden(
          'Configuration versions cannot be created with an organization token; use a user or team token.',
        );
      }
      if (hasDocument(req)) check('cv.create', req.body);
      const attrs = attributesOf(req) as { 'auto-queue-runs'?: boolean; speculative?: boolean; provisional?: boolean };
      // Without the apply permission a version can only be speculative and provisional: it queues only
      // plan-only runs, and never becomes current (a provisional version becomes current only when
      // its run applies, which a speculative one cannot). Asking for an appliable one is refused
      // as TFE does (404).
      const mayApply = allows(access, 'apply');
      if (!mayApply && attrs.speculative === false) throw new NotFound();
      const idem = idempotentRequest(req.get(IDEMPOTENCY_HEADER), principal, {
        method: req.method,
        path: req.path,
        body: req.body,
      });
      const made = await createOnce(db, 'configuration_versions', idem, (columns) =>
        createWorkspaceCv(
          rt,
          {
            workspace_id: workspace.id,
            source: requestSource(req),
            auto_queue_runs: attrs['auto-queue-runs'] ?? true,
            speculative: mayApply ? (attrs.speculative ?? false) : true,
            provisional: mayApply ? (attrs.provisional ?? false) : true,
            created_with_plan_access_only: !mayApply,
            created_by_id: principal.kind === 'user' ? principal.user.id : null,
          },
          columns,
        ),
      );
      // A retry of a creation that went through gets that version, with an upload URL of its own.
      if ('replayed' in made) res.set(REPLAYED_HEADER, 'true');
      const cv = 'replayed' in made ? (await findCv(db, made.replayed))! : made.created;
      const uploadUrl = signedObjectUrl(
        config.uploadUrl,
        config.encryptionKey,
        'cv-upload',
        cv.id,
        config.uploadUrlTtlSeconds,
      );
      sendResource(res, 201, cvResource(cv, { uploadUrl }));
    },

    async show(req: Req, res: Response) {
      // A module test version answers to those who may run the module's tests (clients poll it until uploaded).
      const { cv, ingressId, grant, access } = await cvScope(
        db,
        res.locals.principal,
        req.params.id,
        'read',
        res.locals.earlyGuardRead,
      );
      if (!cv.workspace_id) {
        sendResource(res, 200, cvResource(cv));
        return;
      }
      mustBeReadable(cv);
      const include = readInclude(req, INCLUDES);
      // What clients poll (no include) needs nothing beyond the version's own read.
      if (!include.size) {
        sendResource(res, 200, cvResource(cv, { ingressId }));
        return;
      }
      const body = await present(db, config, [cv], include, { grant, access: access! });
      sendResource(res, 200, body.data[0], body.included);
    },

    async ingressAttributes(req: Req, res: Response) {
      const { cv } = await load(req, res);
      const ia = await findIngress(db, cv.id);
      send(res, 200, { data: ia ? ingressResource(ia) : null });
    },

    async archive(req: Req, res: Response) {
      const { cv } = await load(req, res, 'apply', false);
      await cvAction(rt, cv.id, 'archive', 'conflict');
      res.status(202).end();
    },

    async download(req: Req, res: Response) {
      const access = res.locals.taskAccess;
      if (access) {
        // A run task's access token downloads only its own run's configuration.
        const run = await findRun(db, access.runId);
        if (!run || run.configuration_version_id !== req.params.id) throw new NotFound();
        return downloadRedirect(res, await findCv(db, req.params.id));
      }
      downloadRedirect(res, (await load(req, res, 'read', false)).cv);
    },

    async downloadForRun(req: Req, res: Response) {
      const run = await findRun(db, req.params.id);
      if (!run) throw new NotFound();
      await workspaceScopeById(db, res.locals.principal, run.workspace_id, 'read');
      downloadRedirect(res, run.configuration_version_id ? await findCv(db, run.configuration_version_id) : undefined);
    },

    softDelete: backingDataAction('soft_delete'),
    restore: backingDataAction('restore'),
    permanentlyDelete: backingDataAction('permanent_delete'),
  };
}
