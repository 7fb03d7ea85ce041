import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { sshKeysPage } from '../../shared/ssh-keys/queries.js';
import { changeSshKey, createSshKey, removeSshKey, type SshKeyInput } from '../../shared/ssh-keys/index.js';
import { sshKeyScope, sshKeysScope } from '../guards.js';
import { paginate, readPageOrDefault, send, sendResource } from '../jsonapi.js';
import { sshKeyResource } from '../serializers/ssh-keys.js';
import { attributesOf, type Req } from './body.js';

/** SSH keys of an organization: manage-vcs-settings changes them; it, or admin access to a workspace, sees them (names only). */
export function sshKeyHandlers(deps: AppDeps) {
  const { db } = deps;
  const inputOf = (req: Req) => attributesOf(req) as SshKeyInput;

  return {
    async list(req: Req, res: Response) {
      const { org } = await sshKeysScope(db, res.locals.principal, req.params.org);
      const page = readPageOrDefault(req);
      const found = await sshKeysPage(db, org.name, page);
      send(res, 200, { data: found.rows.map(sshKeyResource), ...paginate(req, page, found.total) });
    },

    async create(req: Req, res: Response) {
      const { org } = await sshKeysScope(db, res.locals.principal, req.params.org, true);
      const input = inputOf(req);
      sendResource(
        res,
        201,
        sshKeyResource(await createSshKey(deps, org.name, { name: input.name!, value: input.value! })),
      );
    },

    async show(req: Req, res: Response) {
      sendResource(res, 200, sshKeyResource((await sshKeyScope(db, res.locals.principal, req.params.id)).key));
    },

    async update(req: Req, res: Response) {
      const { key } = await sshKeyScope(db, res.locals.principal, req.params.id, true);
      sendResource(res, 200, sshKeyResource(await changeSshKey(deps, key, inputOf(req))));
    },

    async destroy(req: Req, res: Response) {
      const { key } = await sshKeyScope(db, res.locals.principal, req.params.id, true);
      await removeSshKey(deps, key);
      res.status(204).end();
    },
  };
}
