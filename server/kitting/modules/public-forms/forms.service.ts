import type { Request } from 'express';
import { clip } from '../../../../shared/fields';
import { EMAIL_RE } from '../../../../shared/api/contracts/public';
import type { AppContext } from '../../context';
import { badRequest } from '../../../core/errors';
import { hitLimit } from '../../security/limits';
import { randomKey } from '../../../core/ids';
import type { Doc, Tx } from '../../store/types';

export const LEADS = 'leads';
/** Event registrations and the landing page's A/B tallies. */
export const EVENT_REGS = 'eventRegs';
export const AB = 'abStats';
/** The one record of A/B counters, and the counters it holds (`<variant>_<event>`). */
export const AB_ID = 'stats';
export const AB_VARIANTS = ['a', 'b'] as const;
export const AB_EVENTS = ['view', 'convert'] as const;
export const AB_COUNTERS = AB_VARIANTS.flatMap((v) => AB_EVENTS.map((e) => `${v}_${e}`));
/** The key of a registration: one per event and address. */
export const eventRegKey = (event: string, email: string) => `${event}:${email.toLowerCase()}`;
/** The event and address a registration key names (event ids hold no colon). */
export const splitEventRegKey = (key: string): [string, string] => {
  const at = key.indexOf(':');
  return at < 0 ? [key, ''] : [key.slice(0, at), key.slice(at + 1)];
};

/** Three fixed webinars. */
export const EVENTS = [
  { id: 'ev-mdm', title: 'MDM導入の基礎：ABM・Intune連携ウェビナー', date: '2026-12-10 15:00', capacity: 100 },
  { id: 'ev-lcm', title: '端末ライフサイクル管理（LCM）の実務', date: '2027-01-21 15:00', capacity: 100 },
  { id: 'ev-ai', title: 'AIで変わるキッティング現場', date: '2027-02-18 15:00', capacity: 100 },
] as const;

export function checkEmail(email: string): void {
  if (email && !EMAIL_RE.test(email)) throw badRequest('invalid email', { message: 'メールアドレスの形式が正しくありません' });
}

export async function formLimit(app: AppContext, req: Request): Promise<void> {
  await hitLimit(app, 'publicForm', req.ip);
}

export interface LeadInput {
  name: string;
  email: string;
  company: string;
  phone?: string;
  message?: string;
  source?: string;
  tenant?: string;
  status?: string;
}

export async function putLead(tx: Tx, l: LeadInput): Promise<Doc> {
  const id = randomKey('L-', 3);
  return tx.put(LEADS, id, {
    id, name: l.name, email: l.email, company: l.company, phone: l.phone ?? '', message: l.message ?? '',
    source: l.source || 'web', tenant: l.tenant ?? '', status: l.status ?? 'new', notes: '', created: Date.now(),
  });
}

export const newestFirst = (a: Doc, b: Doc) => Number(b.created ?? 0) - Number(a.created ?? 0);
