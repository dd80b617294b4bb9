import type { AppContext } from '../../../core/context';
import { P, PLATFORM_WS, randomKey } from '../../../core/security/platform';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** The one place mail leaves the server. No mail server exists here: messages go to the outbox and the log. */
export interface MailTransport {
  send(app: AppContext, msg: MailMessage): Promise<void>;
}

export const outboxTransport: MailTransport = {
  async send(app, msg) {
    const id = randomKey('mail-');
    await app.store.transact(PLATFORM_WS, (tx) => tx.put(P.outbox, id, { id, ts: Date.now(), ...msg }));
    app.log(`mail to=${msg.to} subject=${msg.subject} | ${msg.text.replace(/\s+/g, ' ')}`);
  },
};

let transport: MailTransport = outboxTransport;

/** Swap the transport (an SMTP or API sender) at start-up. */
export function setMailTransport(t: MailTransport): void {
  transport = t;
}

export function sendMail(app: AppContext, msg: MailMessage): Promise<void> {
  return transport.send(app, msg);
}
