import type { AppContext } from '../../context';
import { P, PLATFORM_WS } from '../platform-collections';
import { randomKey } from '../../../core/ids';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** The one place mail leaves the server. No mail server exists here: messages go to the outbox and the log. */
export interface MailTransport {
  send(app: AppContext, msg: MailMessage): Promise<void>;
}

const outboxTransport: MailTransport = {
  async send(app, msg) {
    const id = randomKey('mail-');
    await app.store.transact(PLATFORM_WS, (tx) => tx.put(P.outbox, id, { id, ts: Date.now(), ...msg }));
    app.log(`mail to=${msg.to} subject=${msg.subject} | ${msg.text.replace(/\s+/g, ' ')}`);
  },
};

export function sendMail(app: AppContext, msg: MailMessage): Promise<void> {
  return outboxTransport.send(app, msg);
}
