/** Outgoing mail of the services (invitations, verification and reset links): SMTP, or .eml files in an outbox folder. */
import { privateDir, writePrivateFile } from '../security/private-files';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

function encodeHeader(v: string): string {
  return /^[\x20-\x7e]*$/.test(v) ? v : `=?UTF-8?B?${Buffer.from(v, 'utf8').toString('base64')}?=`;
}

/** Without an SMTP URL, mails are written to `<data>/outbox/` as .eml files (RFC 5322, UTF-8 body). */
class OutboxMailer implements Mailer {
  constructor(
    readonly dir: string,
    /** The sender address; its domain names the Message-ID too. */
    readonly from: string,
  ) {}

  async send(mail: Mail): Promise<void> {
    // Mails carry invitation, verification and reset links: readable by the service's user only.
    privateDir(this.dir);
    const date = new Date();
    const id = `${date.getTime()}-${randomBytes(4).toString('hex')}`;
    const eml = [
      `From: ${this.from}`,
      `To: ${mail.to}`,
      `Subject: ${encodeHeader(mail.subject)}`,
      `Date: ${date.toUTCString()}`,
      `Message-ID: <${id}@${this.from.split('@')[1] ?? 'localhost'}>`,
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

/** Mails through the SMTP server named by an SMTP URL (smtp:// or smtps://). */
class SmtpMailer implements Mailer {
  private transport: Transporter | null = null;

  constructor(
    readonly url: string,
    readonly from: string,
  ) {}

  async send(mail: Mail): Promise<void> {
    if (!this.transport) {
      const { default: nodemailer } = await import('nodemailer');
      this.transport = nodemailer.createTransport(this.url);
    }
    await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
  }
}

/** The SMTP mailer when a URL is configured, else the outbox folder of the data directory. */
export function createMailer(smtpUrl: string | null, dataDir: string, from: string): Mailer {
  return smtpUrl ? new SmtpMailer(smtpUrl, from) : new OutboxMailer(join(dataDir, 'outbox'), from);
}
