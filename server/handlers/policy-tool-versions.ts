import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound } from '../../shared/platform/errors.js';
import { isSiteAdmin } from '../../shared/identity/access.queries.js';
import type { PolicyKind } from '../../shared/policies/rules.js';
import { toolVersionsPage, toolVersionView } from '../../shared/policies/tool-versions.queries.js';
import {
  changeToolVersion,
  createToolVersion,
  removeToolVersion,
  toolVersionOf,
  type ToolVersionInput,
} from '../../shared/policies/index.js';
import { paginate, readPageOrDefault, readParam, send, sendResource } from '../jsonapi.js';
import { toolVersionResource } from '../serializers/policies.js';
import { attributesOf, type Req } from './body.js';

const TYPE = { opa: 'opa-versions', sentinel: 'sentinel-versions' } as const;

/** The attributes sent, an empty `url` or `sha` counting as not sent (go-tfe sends both empty beside `archs`). */
function inputOf(req: Req): ToolVersionInput {
  const a = attributesOf(req) as ToolVersionInput;
  return { ...a, url: a.url || undefined, sha: a.sha || undefined };
}

/** `/admin/opa-versions` or `/admin/sentinel-versions`: the site admin's policy runtime versions; 404 for anyone else. */
export function policyToolVersionHandlers(deps: AppDeps, tool: PolicyKind) {
  const { db } = deps;
  const type = TYPE[tool];
  const admin = (res: Response) => {
    if (!isSiteAdmin(res.locals.principal)) throw new NotFound();
  };
  const answer = async (res: Response, status: number, id: string) =>
    sendResource(res, status, toolVersionResource(type, (await toolVersionView(db, tool, id))!));

  return {
    /** `filter[version]` an exact version, `search[version]` a substring of one. */
    async list(req: Req, res: Response) {
      admin(res);
      const page = readPageOrDefault(req);
      const { rows, total } = await toolVersionsPage(
        db,
        tool,
        { filter: readParam(req, 'filter[version]') || null, search: readParam(req, 'search[version]') || null },
        page,
      );
      send(res, 200, { data: rows.map((v) => toolVersionResource(type, v)), ...paginate(req, page, total) });
    },

    async create(req: Req, res: Response) {
      admin(res);
      const row = await createToolVersion(db, tool, inputOf(req) as ToolVersionInput & { version: string });
      await answer(res, 201, row.id);
    },

    async show(req: Req, res: Response) {
      admin(res);
      await answer(res, 200, (await toolVersionOf(db, tool, req.params.id)).id);
    },

    async update(req: Req, res: Response) {
      admin(res);
      const row = await changeToolVersion(db, await toolVersionOf(db, tool, req.params.id), inputOf(req));
      await answer(res, 200, row.id);
    },

    async destroy(req: Req, res: Response) {
      admin(res);
      await removeToolVersion(db, await toolVersionOf(db, tool, req.params.id));
      res.status(204).end();
    },
  };
}
