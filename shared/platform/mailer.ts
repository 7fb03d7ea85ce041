import nodemailer from 'nodemailer';
import type { Config } from './config.js';
import type { Logger } from './logger.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail; SMTP when SMTP_URL is set, otherwise the message is only recorded in the log. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export function createMailer(config: Config, logger: Logger): Mailer {
  if (!config.smtpUrl) {
    return {
      async send(mail) {
        logger.info('mail not sent: SMTP_URL is not configured', { to: mail.to, subject: mail.subject });
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from: config.mailFrom, ...mail });
    },
    close: () => transport.close(),
  };
}
