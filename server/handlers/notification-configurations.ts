import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { NotFound } from '../../shared/platform/errors.js';
import {
  changeNotificationConfiguration,
  configurationUserIds,
  createNotificationConfiguration,
  deleteNotificationConfiguration,
  findDelivery,
  findNotificationConfiguration,
  type NotificationAttrs,
  type NotificationConfigurationRow,
  resendDelivery,
  verifyNotificationConfiguration,
} from '../../shared/notifications/index.js';
import { deliveriesOf, notificationConfigurationsOf } from '../../shared/notifications/queries.js';
import { workspaceScopeById } from '../guards.js';
import { paginate, readPage, readPageOrDefault, send, sendResource } from '../jsonapi.js';
import { attributesOf, type Req } from './body.js';
import { deliveryResource, notificationConfigurationResource } from '../serializers/notifications.js';

/** The user ids of the `users` relationship, once each, or undefined when the request names none. */
function userIdsOf(req: Req): string[] | undefined {
  const data = (req.body as { data?: { relationships?: { users?: { data: { id: string }[] } } } }).data?.relationships
    ?.users?.data;
  return data ? [...new Set(data.map((u) => u.id))] : undefined;
}

export function notificationConfigurationHandlers(deps: AppDeps) {
  const { db } = deps;

  /** The configuration and the organization of its workspace, to which the caller needs admin access (404 otherwise). */
  async function load(req: Req, res: Response): Promise<{ c: NotificationConfigurationRow; organization: string }> {
    const c = await findNotificationConfiguration(db, req.params.id);
    if (!c) throw new NotFound();
    const { workspace } = await workspaceScopeById(db, res.locals.principal, c.workspace_id, 'admin');
    return { c, organization: workspace.organization_name };
  }

  return {
    async create(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'admin');
      const { row, userIds } = await createNotificationConfiguration(
        deps,
        workspace,
        attributesOf(req) as NotificationAttrs,
        userIdsOf(req),
      );
      sendResource(res, 201, notificationConfigurationResource(row, userIds));
    },

    /** Unpaginated when neither page parameter is given (as TFE answers), else pages of 20. */
    async list(req: Req, res: Response) {
      await workspaceScopeById(db, res.locals.principal, req.params.id, 'admin');
      const page = readPage(req);
      const { rows, total } = await notificationConfigurationsOf(db, req.params.id, page);
      const data = rows.map((r) => notificationConfigurationResource(r.configuration, r.userIds));
      send(res, 200, page ? { data, ...paginate(req, page, total) } : { data });
    },

    async show(req: Req, res: Response) {
      const { c } = await load(req, res);
      sendResource(res, 200, notificationConfigurationResource(c, await configurationUserIds(db, c.id)));
    },

    /** PATCH keeps omitted attributes but the users (see changeNotificationConfiguration); saving enabled verifies first, and nothing is saved when it fails. */
    async update(req: Req, res: Response) {
      const { c, organization } = await load(req, res);
      const { row, userIds } = await changeNotificationConfiguration(
        deps,
        c,
        organization,
        attributesOf(req) as NotificationAttrs,
        userIdsOf(req),
      );
      sendResource(res, 200, notificationConfigurationResource(row, userIds));
    },

    /** Sends the test payload; the response becomes the most recent delivery response either way. */
    async verifyAction(req: Req, res: Response) {
      const { c, organization } = await load(req, res);
      const { row, userIds } = await verifyNotificationConfiguration(deps, c, organization);
      sendResource(res, 200, notificationConfigurationResource(row, userIds));
    },

    async destroy(req: Req, res: Response) {
      const { c } = await load(req, res);
      await deleteNotificationConfiguration(db, c.id);
      res.status(204).end();
    },

    /** The delivery log of a configuration, newest first, with every attempt. */
    async deliveries(req: Req, res: Response) {
      const { c } = await load(req, res);
      const page = readPageOrDefault(req);
      const { rows, total } = await deliveriesOf(db, c.id, page);
      send(res, 200, {
        data: rows.map((r) => deliveryResource(r.delivery, r.attempts)),
        ...paginate(req, page, total),
      });
    },

    /** Queues a finished delivery again (same payload, same delivery id). */
    async resend(req: Req, res: Response) {
      const d = await findDelivery(db, req.params.id);
      const c = d && (await findNotificationConfiguration(db, d.configuration_id));
      if (!d || !c) throw new NotFound();
      const { workspace } = await workspaceScopeById(db, res.locals.principal, c.workspace_id, 'admin');
      sendResource(res, 200, deliveryResource(await resendDelivery(deps, d, workspace.organization_name), []));
    },
  };
}
