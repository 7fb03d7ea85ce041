import type { Db } from './db.js';
import type { Config } from './config.js';
import { insertMail, type MailRow } from './repos/mail.js';

/** Writes the invitation email for a membership as durable outgoing mail (same transaction as the invite). */
export function queueInvitationMail(db: Db, config: Config, invite: { membershipId: string; organizationName: string; email: string }): Promise<MailRow> {
  const link = `${config.baseUrl}/api/v2/organization-memberships/${invite.membershipId}/actions/accept`;
  return insertMail(db, {
    kind: 'invitation',
    refId: invite.membershipId,
    to: invite.email,
    subject: `You have been invited to join ${invite.organizationName}`,
    body:
      `You have been invited to join the organization "${invite.organizationName}".\n\n` +
      `To accept, POST to ${link} with your API token (membership ${invite.membershipId}).\n`,
  });
}
