// The public face of mail: the outbox other features write messages into, and its delivery.
export { deliverMail, type MailFailure } from './delivery.js';
export { insertMail, mailDue, type MailRow } from './repo.js';
