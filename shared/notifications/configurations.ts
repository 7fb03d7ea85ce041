import type { Runtime } from '../runtime.js';
import { ApiError, Unprocessable } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { decryptSecret, encryptSecret } from '../platform/crypto.js';
import { deliveryMachine, MAX_CONFIGURATIONS_PER_WORKSPACE, type DestinationType } from './machine.js';
import {
  configurationUserIds,
  countNotificationConfigurations,
  insertNotificationConfiguration,
  replaceConfigurationUsers,
  requeueDelivery,
  setDeliveryResponses,
  updateNotificationConfiguration,
  type DeliveryResponse,
  type DeliveryRow,
  type NotificationConfigurationRow,
} from './repo.js';
import { memberUserIds } from '../identity/index.js';
import { lockWorkspaceRow } from '../workspaces/index.js';
import { slackMessage, teamsMessage, testPayload, type RunPayload } from './payloads.js';
import { verifyDestination } from './verification.js';
import type { VerificationRow } from './verifications.repo.js';
import { enqueueAfterCommit, jobs } from '../platform/queues.js';
import type { Db } from '../platform/db.js';

/** Chat destinations get the test payload in their own webhook format. */
const CHAT_FORMATS: Partial<Record<DestinationType, (p: RunPayload) => Record<string, unknown>>> = {
  slack: slackMessage,
  'microsoft-teams': teamsMessage,
};

/** The attributes a client writes on create or update (omitted ones keep their value on update). */
export type NotificationAttrs = {
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

/** A configuration and the users it notifies. */
export interface ConfigurationWithUsers {
  row: NotificationConfigurationRow;
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

const verificationFailed = (why: string) =>
  new ApiError('bad-request', 'verification failed', `the verification request to the destination failed: ${why}`);

/**
 * Destination rules: URL for HTTP destinations, users only for email, users members of the
 * organization (an invited user counts, as in Terraform Cloud; mail reaches them once they accept).
 */
async function check(db: Db, s: Settings, organizationName: string): Promise<void> {
  if (s.destinationType !== 'email' && !s.url)
    throw new Unprocessable(`url is required for ${s.destinationType} destinations`, { attribute: 'url' });
  if (s.destinationType !== 'email' && s.userIds.length)
    throw new Unprocessable('users apply to email destinations only', { relationship: 'users' });
  if (s.userIds.length) {
    const members = await memberUserIds(db, organizationName, s.userIds);
    const stranger = s.userIds.find((u) => !members.includes(u));
    if (stranger)
      throw new Unprocessable(`user ${stranger} is not a member of the organization`, { relationship: 'users' });
  }
}

/**
 * Sends the test payload through the verification worker, in the destination's own format (chat
 * webhooks refuse anything else); email destinations need no HTTP call.
 */
async function verify(
  rt: Runtime,
  id: string,
  organization: string,
  s: Settings,
): Promise<{ ok: boolean; response: DeliveryResponse | null; why: string }> {
  if (s.destinationType === 'email') return { ok: true, response: null, why: '' };
  const payload = testPayload(id, s.name);
  const body = CHAT_FORMATS[s.destinationType]?.(payload) ?? payload;
  const v = await verifyDestination(rt, {
    kind: 'notification',
    organization,
    url: s.url!,
    body: JSON.stringify(body),
    secret: s.destinationType === 'generic' ? s.token : null,
  });
  const why = v.response_status ? `the destination answered ${v.response_status}` : (v.error ?? 'no response');
  return { ok: v.status === 'succeeded', response: responseOf(v, s.url!), why };
}

/** Verifies when the settings are enabled (nothing to do otherwise); throws when verification fails. */
async function verifyIfEnabled(
  rt: Runtime,
  id: string,
  organization: string,
  s: Settings,
): Promise<DeliveryResponse | null> {
  const verified = s.enabled ? await verify(rt, id, organization, s) : { ok: true, response: null, why: '' };
  if (!verified.ok) throw verificationFailed(verified.why);
  return verified.response;
}

/**
 * At most 20 configurations per workspace. Inside the saving transaction the workspace row stays
 * locked until commit, so concurrent creates cannot overshoot the limit.
 */
async function assertRoom(db: Db, workspaceId: string): Promise<void> {
  await lockWorkspaceRow(db, workspaceId);
  if ((await countNotificationConfigurations(db, workspaceId)) >= MAX_CONFIGURATIONS_PER_WORKSPACE) {
    throw new Unprocessable(
      `a workspace can have at most ${MAX_CONFIGURATIONS_PER_WORKSPACE} notification configurations`,
    );
  }
}

/** Writes the settings and the users in one transaction (a create checks the limit again there). */
async function save(
  rt: Runtime,
  id: string,
  workspaceId: string,
  s: Settings,
  responses: DeliveryResponse[],
  create: boolean,
): Promise<NotificationConfigurationRow> {
  const values = {
    name: s.name,
    destination_type: s.destinationType,
    enabled: s.enabled,
    token_sealed: s.token ? encryptSecret(rt.config.encryptionKey, s.token) : null,
    triggers: JSON.stringify(s.triggers),
    url: s.destinationType === 'email' ? null : s.url,
    email_addresses: JSON.stringify(s.emailAddresses),
    delivery_responses: JSON.stringify(responses),
  };
  return rt.db.transaction(async (tx) => {
    if (create) await assertRoom(tx, workspaceId);
    const row = create
      ? await insertNotificationConfiguration(tx, id, workspaceId, values)
      : await updateNotificationConfiguration(tx, id, values);
    await replaceConfigurationUsers(tx, id, s.userIds);
    return row;
  });
}

/** Creates a configuration in a workspace; an enabled one is verified first, and nothing is saved when that fails. */
export async function createNotificationConfiguration(
  rt: Runtime,
  workspace: { id: string; organization_name: string },
  a: NotificationAttrs,
  userIds: string[] | undefined,
): Promise<ConfigurationWithUsers> {
  const s: Settings = {
    destinationType: a['destination-type']!,
    enabled: a.enabled ?? false,
    name: a.name!,
    token: a.token ?? null,
    triggers: a.triggers ?? [],
    url: a.url ?? null,
    emailAddresses: a['email-addresses'] ?? [],
    userIds: userIds ?? [],
  };
  await check(rt.db, s, workspace.organization_name);
  await assertRoom(rt.db, workspace.id);
  const id = newId('nc');
  const response = await verifyIfEnabled(rt, id, workspace.organization_name, s);
  const row = await save(rt, id, workspace.id, s, response ? [response] : [], true);
  return { row, userIds: s.userIds };
}

/** Changes a configuration, keeping omitted attributes but the users; saving enabled verifies first, and nothing is saved when it fails. */
export async function changeNotificationConfiguration(
  rt: Runtime,
  c: NotificationConfigurationRow,
  organization: string,
  a: NotificationAttrs,
  userIds: string[] | undefined,
): Promise<ConfigurationWithUsers> {
  if (a['destination-type'] && a['destination-type'] !== c.destination_type) {
    throw new Unprocessable('destination-type cannot be changed', { attribute: 'destination-type' });
  }
  const s: Settings = {
    destinationType: c.destination_type,
    enabled: a.enabled ?? c.enabled,
    name: a.name ?? c.name,
    token:
      'token' in a ? (a.token ?? null) : c.token_sealed ? decryptSecret(rt.config.encryptionKey, c.token_sealed) : null,
    triggers: a.triggers ?? c.triggers,
    url: 'url' in a ? (a.url ?? null) : c.url,
    emailAddresses: a['email-addresses'] ?? c.email_addresses,
    // The users are replaced as a whole: a PATCH naming none leaves none, as TFE (clients omit an empty list).
    userIds: userIds ?? [],
  };
  await check(rt.db, s, organization);
  const response = await verifyIfEnabled(rt, c.id, organization, s);
  const row = await save(rt, c.id, c.workspace_id, s, response ? [response] : c.delivery_responses, false);
  return { row, userIds: s.userIds };
}

/** Sends the test payload; the response becomes the most recent delivery response either way, then a failure throws. */
export async function verifyNotificationConfiguration(
  rt: Runtime,
  c: NotificationConfigurationRow,
  organization: string,
): Promise<ConfigurationWithUsers> {
  const s: Settings = {
    destinationType: c.destination_type,
    enabled: c.enabled,
    name: c.name,
    token: c.token_sealed ? decryptSecret(rt.config.encryptionKey, c.token_sealed) : null,
    triggers: c.triggers,
    url: c.url,
    emailAddresses: c.email_addresses,
    userIds: [],
  };
  const verified = await verify(rt, c.id, organization, s);
  const row = verified.response ? await setDeliveryResponses(rt.db, c.id, [verified.response]) : c;
  if (!verified.ok) throw verificationFailed(verified.why);
  return { row, userIds: await configurationUserIds(rt.db, c.id) };
}

/** Queues a finished delivery again (same payload, same delivery id); 409 when it has not finished. */
export async function resendDelivery(rt: Runtime, d: DeliveryRow, organization: string): Promise<DeliveryRow> {
  const row = await requeueDelivery(rt.db, d.id, deliveryMachine.sources('resend'));
  if (!row)
    throw new ApiError(
      'conflict',
      'conflict',
      `the delivery is ${d.status}; only delivered, failed or dropped deliveries can be sent again`,
    );
  await enqueueAfterCommit(rt.queues, jobs.notificationDelivery(row.id, organization, row.attempts + 1), rt.logger);
  return row;
}
