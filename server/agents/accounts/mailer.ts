import { createMailer as coreMailer, type Mailer } from '../../core/mail/mailer';

export type { Mail, Mailer } from '../../core/mail/mailer';

const FROM = 'no-reply@agents.localhost';

/** SMTP_URL when set, else `.eml` files in `<data>/outbox/` (the core mailer, with the platform's sender). */
export function createMailer(smtpUrl: string | null, dataDir: string): Mailer {
  return coreMailer(smtpUrl, dataDir, FROM);
}
