import type { Response } from 'express';
import type { AppDeps } from '../context.js';
import { ApiError, NotFound, Unprocessable } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { Db } from '../../shared/db.js';
import { decryptSecret, encryptSecret } from '../../shared/crypto.js';
import { deliveryMachine, MAX_CONFIGURATIONS_PER_WORKSPACE, type DestinationType } from '../../shared/domain/notification.js';
import { configurationUserIds, findNotificationConfiguration, type DeliveryResponse, type NotificationConfigurationRow } from '../../shared/repos/notifications.js';
import { slackMessage, teamsMessage, testPayload, type RunPayload } from '../../shared/notifications/payloads.js';
import { verifyDestination, type VerificationRow } from '../../shared/usecases/verification.js';
import { enqueueAfterCommit, jobs } from '../../shared/queues.js';
import { workspaceScopeById } from '../guards.js';
import { fetchPage, paginate, readPage, readPageOrDefault, send, sendResource } from '../jsonapi.js';
import { attributesOf, type Req } from './body.js';
import { deliveryResource, notificationConfigurationResource } from '../serializers/notifications.js';

/** Chat destinations get the test payload in their own webhook format. */
const CHAT_FORMATS: Partial<Record<DestinationType, (p: RunPayload) => Record<string, unknown>>> = {
  slack: slackMessage,
  'microsoft-teams': teamsMessage,
};

type Attrs = {
  'destination-type'?: DestinationType;
  enabled?: boolean;
  name?: string;
  token?: string | null;
  triggers?: string[];
  url?: string | null;
  'email-addresses'?: string[];
};

/** The settings a save would leave, for checks and verification before anything is written. */
interface Settings {
  destinationType: DestinationType;
  enabled: boolean;
  name: string;
  token: string | null;
  triggers: string[];
  url: string | null;
  emailAddresses: string[];
  userIds: string[];
}

const responseOf = (v: VerificationRow, url: string): DeliveryResponse => ({
  body: v.response_body ?? '',
  code: v.response_status === null ? '' : String(v.response_status),
  headers: v.response_headers ?? {},
  'sent-at': v.created_at.toISOString(),
  successful: v.status === 'succeeded',
  url,
});

export function notificationConfigurationHandlers(deps: AppDeps) {
  const { db, config } = deps;

  /** The configuration and admin access to its workspace (404 otherwise). */
  async function load(req: Req, res: Response): Promise<NotificationConfigurationRow> {
    return (await loadWithOrganization(req, res)).c;
  }

  /** The configuration and the organization of its workspace. */
  async function loadWithOrganization(req: Req, res: Response): Promise<{ c: NotificationConfigurationRow; organization: string }> {
    const c = await findNotificationConfiguration(db, req.params.id);
    if (!c) throw new NotFound();
    const { workspace } = await workspaceScopeById(db, res.locals.principal, c.workspace_id, 'admin');
    return { c, organization: workspace.organization_name };
  }

  /** Destination rules: URL for HTTP destinations, users only for email, users members of the organization. */
  async function check(s: Settings, organizationName: string): Promise<void> {
    if (s.destinationType !== 'email' && !s.url) throw new Unprocessable(`url is required for ${s.destinationType} destinations`, '/data/attributes/url');
    if (s.destinationType !== 'email' && s.userIds.length) throw new Unprocessable('users apply to email destinations only', '/data/relationships/users');
    if (s.userIds.length) {
      const members = (await db('organization_memberships')
        .where({ organization_name: organizationName, status: 'active' })
        .whereIn('user_id', s.userIds)
        .pluck('user_id')) as string[];
      const stranger = s.userIds.find((u) => !members.includes(u));
      if (stranger) throw new Unprocessable(`user ${stranger} is not a member of the organization`, '/data/relationships/users');
    }
  }

  /**
   * Sends the test payload through the verification worker, in the destination's own format (chat
   * webhooks refuse anything else); email destinations need no HTTP call.
   */
  async function verify(id: string, organization: string, s: Settings): Promise<{ ok: boolean; response: DeliveryResponse | null; why: string }> {
    if (s.destinationType === 'email') return { ok: true, response: null, why: '' };
    const payload = testPayload(id, s.name);
    const body = CHAT_FORMATS[s.destinationType]?.(payload) ?? payload;
    const v = await verifyDestination(
      deps,
      { kind: 'notification', organization, url: s.url!, body: JSON.stringify(body), secret: s.destinationType === 'generic' ? s.token : null },
    );
    const why = v.response_status ? `the destination answered ${v.response_status}` : (v.error ?? 'no response');
    return { ok: v.status === 'succeeded', response: responseOf(v, s.url!), why };
  }

  const verificationFailed = (why: string) => new ApiError(400, 'verification failed', `the verification request to the destination failed: ${why}`);

  function userIdsOf(req: Req): string[] | undefined {
    const data = (req.body as { data?: { relationships?: { users?: { data: { id: string }[] } } } }).data?.relationships?.users?.data;
    return data ? [...new Set(data.map((u) => u.id))] : undefined;
  }

  /**
   * At most 20 configurations per workspace. Inside the saving transaction the workspace row stays
   * locked until commit, so concurrent creates cannot overshoot the limit.
   */
  async function assertRoom(q: Db, workspaceId: string): Promise<void> {
    await q('workspaces').where({ id: workspaceId }).forUpdate().first('id');
    const [{ count }] = await q('notification_configurations').where({ workspace_id: workspaceId }).count<{ count: number }[]>({ count: '*' });
    if (Number(count) >= MAX_CONFIGURATIONS_PER_WORKSPACE) {
      throw new Unprocessable(`a workspace can have at most ${MAX_CONFIGURATIONS_PER_WORKSPACE} notification configurations`);
    }
  }

  async function save(id: string, workspaceId: string, s: Settings, responses: DeliveryResponse[], create: boolean): Promise<NotificationConfigurationRow> {
    const values = {
      name: s.name,
      destination_type: s.destinationType,
      enabled: s.enabled,
      token_sealed: s.token ? encryptSecret(config.encryptionKey, s.token) : null,
      triggers: JSON.stringify(s.triggers),
      url: s.destinationType === 'email' ? null : s.url,
      email_addresses: JSON.stringify(s.emailAddresses),
      delivery_responses: JSON.stringify(responses),
    };
    return db.transaction(async (tx) => {
      if (create) await assertRoom(tx, workspaceId);
      const [row] = create
        ? await tx('notification_configurations').insert({ id, workspace_id: workspaceId, ...values }).returning('*')
        : await tx('notification_configurations').where({ id }).update({ ...values, updated_at: tx.fn.now() }).returning('*');
      await tx('notification_configuration_users').where({ configuration_id: id }).del();
      if (s.userIds.length) await tx('notification_configuration_users').insert(s.userIds.map((u) => ({ configuration_id: id, user_id: u })));
      return row as NotificationConfigurationRow;
    });
  }

  return {
    async create(req: Req, res: Response) {
      const { workspace } = await workspaceScopeById(db, res.locals.principal, req.params.id, 'admin');
      const a = attributesOf(req) as Attrs;
      const s: Settings = {
        destinationType: a['destination-type']!,
        enabled: a.enabled ?? false,
        name: a.name!,
        token: a.token ?? null,
        triggers: a.triggers ?? [],
        url: a.url ?? null,
        emailAddresses: a['email-addresses'] ?? [],
        userIds: userIdsOf(req) ?? [],
      };
      await check(s, workspace.organization_name);
      await assertRoom(db, workspace.id);
      const id = newId('nc');
      const verified = s.enabled ? await verify(id, workspace.organization_name, s) : { ok: true, response: null, why: '' };
      if (!verified.ok) throw verificationFailed(verified.why);
      const row = await save(id, workspace.id, s, verified.response ? [verified.response] : [], true);
      sendResource(res, 201, notificationConfigurationResource(row, s.userIds));
    },

    /** Unpaginated when neither page parameter is given (as TFE answers), else pages of 20. */
    async list(req: Req, res: Response) {
      await workspaceScopeById(db, res.locals.principal, req.params.id, 'admin');
      const page = readPage(req);
      const query = db<NotificationConfigurationRow>('notification_configurations').where({ workspace_id: req.params.id });
      const [{ count }] = await query.clone().count<{ count: number }[]>({ count: '*' });
      const rows = await (page ? query.orderBy('created_at').orderBy('id').limit(page.size).offset((page.number - 1) * page.size) : query.orderBy('created_at').orderBy('id'));
      const users = rows.length ? await db('notification_configuration_users').whereIn('configuration_id', rows.map((r) => r.id)) : [];
      const data = rows.map((r) => notificationConfigurationResource(r, users.filter((u) => u.configuration_id === r.id).map((u) => u.user_id)));
      send(res, 200, page ? { data, ...paginate(req, page, Number(count)) } : { data });
    },

    async show(req: Req, res: Response) {
      const c = await load(req, res);
      sendResource(res, 200, notificationConfigurationResource(c, await configurationUserIds(db, c.id)));
    },

    /** PATCH keeps omitted attributes; saving enabled verifies first, and nothing is saved when it fails. */
    async update(req: Req, res: Response) {
      const c = await load(req, res);
      const ws = await db('workspaces').where({ id: c.workspace_id }).first('organization_name');
      const a = attributesOf(req) as Attrs;
      if (a['destination-type'] && a['destination-type'] !== c.destination_type) {
        throw new Unprocessable('destination-type cannot be changed', '/data/attributes/destination-type');
      }
      const s: Settings = {
        destinationType: c.destination_type,
        enabled: a.enabled ?? c.enabled,
        name: a.name ?? c.name,
        token: 'token' in a ? (a.token ?? null) : c.token_sealed ? decryptSecret(config.encryptionKey, c.token_sealed) : null,
        triggers: a.triggers ?? c.triggers,
        url: 'url' in a ? (a.url ?? null) : c.url,
        emailAddresses: a['email-addresses'] ?? c.email_addresses,
        userIds: userIdsOf(req) ?? (await configurationUserIds(db, c.id)),
      };
      await check(s, ws.organization_name);
      const verified = s.enabled ? await verify(c.id, ws.organization_name, s) : { ok: true, response: null, why: '' };
      if (!verified.ok) throw verificationFailed(verified.why);
      const row = await save(c.id, c.workspace_id, s, verified.response ? [verified.response] : c.delivery_responses, false);
      sendResource(res, 200, notificationConfigurationResource(row, s.userIds));
    },

    /** Sends the test payload; the response becomes the most recent delivery response either way. */
    async verifyAction(req: Req, res: Response) {
      const { c, organization } = await loadWithOrganization(req, res);
      const s: Settings = {
        destinationType: c.destination_type,
        enabled: c.enabled,
        name: c.name,
        token: c.token_sealed ? decryptSecret(config.encryptionKey, c.token_sealed) : null,
        triggers: c.triggers,
        url: c.url,
        emailAddresses: c.email_addresses,
        userIds: [],
      };
      const verified = await verify(c.id, organization, s);
      const [row] = verified.response
        ? await db<NotificationConfigurationRow>('notification_configurations').where({ id: c.id }).update({ delivery_responses: JSON.stringify([verified.response]) as never }).returning('*')
        : [c];
      if (!verified.ok) throw verificationFailed(verified.why);
      sendResource(res, 200, notificationConfigurationResource(row, await configurationUserIds(db, c.id)));
    },

    async destroy(req: Req, res: Response) {
      const c = await load(req, res);
      await db('notification_configurations').where({ id: c.id }).del();
      res.status(204).end();
    },

    /** The delivery log of a configuration, newest first, with every attempt. */
    async deliveries(req: Req, res: Response) {
      const c = await load(req, res);
      const page = readPageOrDefault(req);
      const query = db('notification_deliveries').where({ configuration_id: c.id });
      const { rows, total: count } = await fetchPage<Parameters<typeof deliveryResource>[0]>(query.orderBy('created_at', 'desc').orderBy('id'), page);
      const attempts = rows.length ? await db('notification_delivery_attempts').whereIn('delivery_id', rows.map((r) => r.id)).orderBy('seq') : [];
      send(res, 200, { data: rows.map((d) => deliveryResource(d, attempts.filter((a) => a.delivery_id === d.id))), ...paginate(req, page, Number(count)) });
    },

    /** Queues a finished delivery again (same payload, same delivery id). */
    async resend(req: Req, res: Response) {
      const d = await db('notification_deliveries').where({ id: req.params.id }).first();
      if (!d) throw new NotFound();
      const c = await findNotificationConfiguration(db, d.configuration_id);
      if (!c) throw new NotFound();
      const { workspace } = await workspaceScopeById(db, res.locals.principal, c.workspace_id, 'admin');
      const [row] = await db('notification_deliveries')
        .where({ id: d.id })
        .whereIn('status', deliveryMachine.sources('resend'))
        .update({ status: 'pending', next_attempt_at: db.fn.now(), last_error: null })
        .returning('*');
      if (!row) throw new ApiError(409, 'conflict', `the delivery is ${d.status}; only delivered, failed or dropped deliveries can be sent again`);
      await enqueueAfterCommit(deps.queues, jobs.notificationDelivery(row.id, workspace.organization_name, row.attempts + 1), deps.logger);
      sendResource(res, 200, deliveryResource(row, []));
    },
  };
}
