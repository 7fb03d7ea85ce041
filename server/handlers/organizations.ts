import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import type { OrganizationRow } from '../../shared/repos/organizations.js';
import { NotFound, Unprocessable } from '../../shared/errors.js';
import { findOrganization, insertOrganization, organizationsVisibleTo, updateOrganization } from '../../shared/repos/organizations.js';
import { insertTeam, addTeamMembers } from '../../shared/repos/teams.js';
import { insertMembership } from '../../shared/repos/memberships.js';
import { organizationGrant, fullAccess } from '../../shared/access.js';
import { orgScope } from '../guards.js';
import { fetchPage, paginate, readPageOrDefault, send, sendResource } from '../jsonapi.js';
import { attributesOf, type Req } from './body.js';
import { entitlementSetResource, organizationResource } from '../serializers/foundation.js';

const nameTaken = () => new Unprocessable('name has already been taken', '/data/attributes/name');

export function organizationHandlers({ db, config }: AppDeps) {
  return {
    async create(req: Req, res: Response) {
      const principal = res.locals.principal;
      if (principal.kind !== 'user') throw new NotFound();
      const { name, email, 'default-execution-mode': mode } = attributesOf(req) as { name: string; email: string; 'default-execution-mode'?: OrganizationRow['default_execution_mode'] };
      const org = await db.transaction(async (tx) => {
        if (await findOrganization(tx, name)) throw nameTaken();
        const created = await insertOrganization(tx, { name, email, default_execution_mode: mode });
        const owners = await insertTeam(tx, { organization_name: name, name: 'owners', is_owners: true, visibility: 'organization' });
        const membership = await insertMembership(tx, name, principal.user.id, 'active');
        await addTeamMembers(tx, owners.id, [membership.id]);
        return created;
      });
      sendResource(res, 201, organizationResource(org, { organizationName: name, isOwner: true, permissions: fullAccess(), teamIds: [] }));
    },

    async list(req: Req, res: Response) {
      const principal = res.locals.principal;
      const page = readPageOrDefault(req);
      const query = organizationsVisibleTo(db, principal);
      const { rows, total: count } = await fetchPage<OrganizationRow>(query.orderBy('name'), page);
      const data = await Promise.all(rows.map(async (org) => organizationResource(org, await organizationGrant(db, principal, org.name))));
      send(res, 200, { data, ...paginate(req, page, Number(count)) });
    },

    async show(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org);
      sendResource(res, 200, organizationResource(org, grant));
    },

    async update(req: Req, res: Response) {
      const { org, grant } = await orgScope(db, res.locals.principal, req.params.org, 'owner');
      const attrs = attributesOf(req) as { name?: string; email?: string; 'default-execution-mode'?: OrganizationRow['default_execution_mode'] };
      const updated = await db.transaction(async (tx) => {
        if (attrs.name && attrs.name !== org.name && (await findOrganization(tx, attrs.name))) throw nameTaken();
        return updateOrganization(tx, org.name, { name: attrs.name, email: attrs.email, default_execution_mode: attrs['default-execution-mode'] });
      });
      sendResource(res, 200, organizationResource(updated, { ...grant, organizationName: updated.name }));
    },

    async destroy(req: Req, res: Response) {
      const { org } = await orgScope(db, res.locals.principal, req.params.org, 'owner');
      const n = await db('organizations').where({ name: org.name }).del();
      if (!n) throw new NotFound();
      res.status(204).end();
    },

    async entitlementSet(req: Req, res: Response) {
      const { org } = await orgScope(db, res.locals.principal, req.params.org);
      sendResource(res, 200, entitlementSetResource(org, config));
    },
  };
}
