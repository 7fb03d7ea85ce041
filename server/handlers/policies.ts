import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound, PayloadTooLarge, Unprocessable } from '../../shared/platform/errors.js';
import {
  createPolicy,
  findPolicy,
  MAX_POLICY_CODE_BYTES,
  policyCode,
  type PolicyKind,
  type PolicyRow,
  type Problem,
  removePolicy,
  settlePolicy,
  storePolicyCode,
  updatePolicy,
} from '../../shared/policies/index.js';
import { orgScope } from '../guards.js';
import { readInclude, sendResource } from '../jsonapi.js';
import { attributesOf, readRawBody, relationshipIds, type Req } from './body.js';
import type { Uploads } from '../uploads.js';
import { namedPage, policyDocuments, sendPage } from './policy-documents.js';

type Attrs = {
  name?: string;
  description?: string | null;
  kind?: PolicyKind;
  query?: string | null;
  'enforcement-level'?: string;
  enforce?: { path?: string; mode: string }[];
};

const INCLUDES = ['policy_sets'];
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Policy code is text: UTF-8 without NUL characters (which Postgres text cannot hold). */
function codeText(body: Buffer): string {
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    throw new Unprocessable('policy code must be UTF-8 text');
  }
  if (text.includes('\u0000')) throw new Unprocessable('policy code must not contain NUL characters');
  return text;
}

/** Policies of an organization. Members read them; changes need manage-policies. */
export function policyHandlers({ db, config }: AppDeps, uploads: Uploads) {
  const free = config.edition === 'free';

  /** The policy and the caller's grant in its organization (404 when invisible, or without manage-policies when `manage`). */
  async function load(req: Req, res: Response, manage = false) {
    const policy = await findPolicy(db, req.params.id);
    if (!policy) throw new NotFound();
    const { grant } = await orgScope(
      db,
      res.locals.principal,
      policy.organization_name,
      manage ? 'manage-policies' : undefined,
    );
    return { policy, grant };
  }

  return {
    /** Creates the policy without code; the answer is 200 (as TFE answers) with `links.upload`. */
    async create(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org, 'manage-policies');
      const a = attributesOf(req) as Attrs & { name: string };
      const kind = a.kind ?? 'sentinel';
      const { level, problems } = settlePolicy({
        name: a.name,
        kind,
        query: a.query,
        level: a['enforcement-level'],
        enforce: a.enforce,
      });
      if (problems.length) throw Unprocessable.many(problems);
      const setIds = relationshipIds(req, 'policy-sets') ?? [];
      const policy = await createPolicy(
        db,
        free,
        org.name,
        { name: a.name, description: a.description ?? null, kind, query: a.query ?? null, enforcement_level: level! },
        setIds,
      );
      sendResource(res, 200, (await policyDocuments(db, grant, [policy], new Set())).data[0]);
    },

    async list(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org);
      const include = readInclude(req, INCLUDES);
      const { rows, page, total } = await namedPage<PolicyRow>(db, req, 'policies', org.name);
      sendPage(req, res, await policyDocuments(db, grant, rows, include), page, total);
    },

    async show(req: Req, res: Response) {
      const { policy, grant } = await load(req, res);
      const docs = await policyDocuments(db, grant, [policy], readInclude(req, INCLUDES));
      sendResource(res, 200, docs.data[0], docs.included);
    },

    /** Attributes only (never the code); name and kind cannot change; policy sets change through the set's endpoints. */
    async update(req: Req, res: Response) {
      const { policy, grant } = await load(req, res, true);
      const a = attributesOf(req) as Attrs;
      const fixed: Problem[] = [];
      if ('name' in a) fixed.push({ detail: 'name cannot be changed after creation', field: { attribute: 'name' } });
      if (a.kind !== undefined && a.kind !== policy.kind)
        fixed.push({ detail: 'kind cannot be changed', field: { attribute: 'kind' } });
      if (relationshipIds(req, 'policy-sets')) {
        fixed.push({
          detail: "a policy's sets change through /policy-sets/:id/relationships/policies",
          field: { relationship: 'policy-sets' },
        });
      }
      const { level, problems } = settlePolicy(
        { name: policy.name, kind: policy.kind, query: a.query, level: a['enforcement-level'], enforce: a.enforce },
        policy.enforcement_level,
      );
      if (fixed.length || problems.length) throw Unprocessable.many([...fixed, ...problems]);
      const updated = await updatePolicy(db, policy.id, {
        enforcement_level: level!,
        ...(a.description !== undefined ? { description: a.description } : {}),
        ...(a.query !== undefined && policy.kind === 'opa' ? { query: a.query } : {}),
      });
      sendResource(res, 200, (await policyDocuments(db, grant, [updated], new Set())).data[0]);
    },

    async destroy(req: Req, res: Response) {
      const { policy } = await load(req, res, true);
      await removePolicy(db, policy);
      res.status(204).end();
    },

    /** Replaces the code with the raw request body (not JSON:API); over 10 MB is a 413 and the code stays as it was. */
    async upload(req: Req, res: Response) {
      const { policy } = await load(req, res, true);
      const principal = res.locals.principal;
      const owner = {
        organization: policy.organization_name,
        user: principal.kind === 'user' ? principal.user.id : null,
      };
      const body = await uploads.receive(req, res, owner, (pieces, declared) =>
        readRawBody(pieces, declared, MAX_POLICY_CODE_BYTES),
      );
      if (!body) {
        res.set('Connection', 'close');
        throw new PayloadTooLarge(
          `policy code is larger than the limit of ${MAX_POLICY_CODE_BYTES} bytes (10 MB); the policy was not changed`,
        );
      }
      await storePolicyCode(db, policy.id, codeText(body));
      res.status(204).end();
    },

    /** The code as uploaded, as plain text; 404 until code has been uploaded. */
    async download(req: Req, res: Response) {
      const { policy } = await load(req, res);
      const code = await policyCode(db, policy.id);
      if (code === null || code === undefined) throw new NotFound('no code has been uploaded for this policy');
      res.status(200).type('text/plain; charset=utf-8').send(code);
    },
  };
}
