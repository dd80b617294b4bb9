import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import { privateDir, writePrivateFile } from '../../core/security/private-files';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

const FROM = 'no-reply@agents.localhost';

function encodeHeader(v: string): string {
  return /^[\x20-\x7e]*$/.test(v) ? v : `=?UTF-8?B?${Buffer.from(v, 'utf8').toString('base64')}?=`;
}

/** Without SMTP_URL, mails are written to `<data>/outbox/` as .eml files (RFC 5322, UTF-8 body). */
export class OutboxMailer implements Mailer {
  constructor(readonly dir: string) {}

  async send(mail: Mail): Promise<void> {
    // Mails carry reset and invitation links: readable by the service's user only.
    privateDir(this.dir);
    const date = new Date();
    const id = `${date.getTime()}-${randomBytes(4).toString('hex')}`;
    const eml = [
      `From: ${FROM}`,
      `To: ${mail.to}`,
      `Subject: ${encodeHeader(mail.subject)}`,
      `Date: ${date.toUTCString()}`,
      `Message-ID: <${id}@agents.localhost>`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=UTF-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      mail.text.replace(/\r?\n/g, '\r\n'),
      '',
    ].join('\r\n');
    writePrivateFile(join(this.dir, `${id}.eml`), eml);
  }
}

/** Mails through the SMTP server named by SMTP_URL (smtp:// or smtps://). */
export class SmtpMailer implements Mailer {
  private transport: Transporter | null = null;

  constructor(readonly url: string) {}

  async send(mail: Mail): Promise<void> {
    if (!this.transport) {
      const { default: nodemailer } = await import('nodemailer');
      this.transport = nodemailer.createTransport(this.url);
    }
    await this.transport.sendMail({ from: FROM, to: mail.to, subject: mail.subject, text: mail.text });
  }
}

export function createMailer(smtpUrl: string | null, dataDir: string): Mailer {
  return smtpUrl ? new SmtpMailer(smtpUrl) : new OutboxMailer(join(dataDir, 'outbox'));
}
