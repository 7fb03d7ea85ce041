import type { Db } from '../platform/db.js';
import type { Config } from '../platform/config.js';
import { insertMail, type MailRow } from '../mail/index.js';
import { insertPasswordLink } from './sign-in.repo.js';
import { newSecret } from '../platform/crypto.js';
import { passwordLinkUrl } from './sign-in.rules.js';

/**
 * Writes the invitation email for a membership as durable outgoing mail (same transaction as the
 * invite). It carries a one-time link to the console's invitation page, with which a user without
 * a password sets one and accepts; a user who has one signs in and accepts (or accepts through the API).
 */
export async function queueInvitationMail(
  db: Db,
  config: Config,
  invite: { membershipId: string; userId: string; organizationName: string; email: string },
): Promise<MailRow> {
  const secret = newSecret();
  await insertPasswordLink(db, {
    userId: invite.userId,
    purpose: 'invitation',
    membershipId: invite.membershipId,
    secret,
    expiresAt: new Date(Date.now() + config.invitationTtlSeconds * 1000),
  });
  const page = passwordLinkUrl(config.baseUrl, 'invitation', secret);
  const api = `${config.baseUrl}/api/v2/organization-memberships/${invite.membershipId}/actions/accept`;
  return insertMail(db, {
    kind: 'invitation',
    refId: invite.membershipId,
    to: invite.email,
    subject: `You have been invited to join ${invite.organizationName}`,
    body:
      `You have been invited to join the organization "${invite.organizationName}".\n\n` +
      `To accept, open ${page}\n(new accounts set their password there; the link can be used once).\n\n` +
      `With an API token, you can also POST to ${api} (membership ${invite.membershipId}).\n`,
    // The link is a credential: the mail is stored encrypted until it is sent.
    sealWith: config.encryptionKey,
  });
}
