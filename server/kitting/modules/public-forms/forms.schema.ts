import { z } from 'zod';
import { clamp, Field, looseNumber, type FieldMap } from '../../../../shared/fields';
import { bookingEditFields, bookingForm, formRequests, formText as str, leadEditFields, leadForm, partnerEditFields, partnerForm, referralForm, reviewForm, signForm } from '../../../../shared/api/contracts/public';
import { collectionSchema, derivedInt, derivedKey, derivedText, fixedKeys, ruleField, ruleFields, stamp } from '../../http/collection-schema';
import { badRequest } from '../../../core/errors';
import { AB, AB_COUNTERS, AB_ID, checkEmail, EVENT_REGS, EVENTS, eventRegKey, LEADS, splitEventRegKey } from './forms.service';

/**
 * The rules and collection schemas of the public forms and of the pages that follow them up (leads,
 * signature documents, bookings, referrals, partners, reviews). Their fields are declared once in the
 * shared contract (shared/api/contracts/public.ts), read by the routes and by the check of what a bench
 * pushes into the same collections. What the server derives (stamps, counters, codes, the signer's
 * address) is bounded in each schema's derived part.
 */

export const SIGNS = 'signs';
export const BOOKINGS = 'bookings';
export const REFERRALS = 'referrals';
export const PARTNERS = 'partners';
export const REVIEWS = 'reviews';
/** Largest signature document and drawn signature (characters). */
const MAX_HTML = 200_000;

const asField = (zod: z.ZodType<string>): Field<string> => new Field(zod);
/** The form fields that take any text (trimmed and clipped), as fields of a schema. */
const formFields = (form: Record<string, z.ZodType<string>>): FieldMap => Object.fromEntries(Object.entries(form).map(([k, zod]) => [k, asField(zod)]));
/** A form's text that must not be empty (the route answers 400 `error` with `message`). */
const required = (zod: z.ZodType<string>, error: string, message: string) => (v: unknown): string => {
  const s = zod.parse(v);
  if (!s) throw badRequest(error, { message });
  return s;
};
/** A form's email: empty, or an address of the usual form (400 invalid email). */
const email = (zod: z.ZodType<string>) => (v: unknown): string => {
  const s = zod.parse(v);
  checkEmail(s);
  return s;
};
const withDefault = (zod: z.ZodType<string>, fallback: string) => (v: unknown): string => zod.parse(v) || fallback;

// --- leads -------------------------------------------------------------------------------------

const leadSchema = collectionSchema(
  LEADS,
  {
    ...leadEditFields,
    message: asField(leadForm.message),
    source: ruleField(required(leadForm.source, 'source required', '流入元(source)は空にできません')),
    tenant: asField(leadForm.tenant),
  },
  { created: stamp() },
);

// --- signature documents -----------------------------------------------------------------------

const html = (error: string) => (v: unknown): string => {
  const s = typeof v === 'string' ? v : '';
  if (s.length > MAX_HTML) throw badRequest(error, { limit: MAX_HTML });
  return s;
};
/** Each field of a signature document as the create and submit routes store it. */
export const signRules = {
  title: withDefault(signForm.title, '御見積書'),
  client: (v: unknown) => signForm.client.parse(v),
  email: email(signForm.email),
  amount: (v: unknown): number => {
    const amount = Number(v ?? 0);
    if (!Number.isFinite(amount) || amount < 0) throw badRequest('invalid amount');
    return Math.round(amount);
  },
  bodyHtml: html('bodyHtml too large'),
  status: (v: unknown): string => {
    if (v !== 'pending' && v !== 'signed') throw badRequest('invalid status', { allowed: ['pending', 'signed'] });
    return v;
  },
  signedName: required(str(120), 'name required', '署名者の氏名を入力してください'),
  signature: html('signature too large'),
};
const signSchema = collectionSchema(SIGNS, ruleFields(signRules), { signedAt: stamp(), signedIp: derivedText(64), created: stamp() });

// --- bookings ----------------------------------------------------------------------------------

const bookingSchema = collectionSchema(
  BOOKINGS,
  { ...formFields(bookingForm), email: ruleField(email(bookingForm.email)), ...bookingEditFields },
  { created: stamp() },
);

// --- referrals and partners --------------------------------------------------------------------

/** A referral code keeps letters, digits, _ and - (up to 24). */
export const cleanCode = (c: string) => c.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 24);
const CODE = /^[A-Za-z0-9_-]{1,24}$/;
export const referralRules = {
  code: (v: unknown): string => {
    const code = cleanCode(referralForm.code.parse(v));
    if (!code) throw badRequest('invalid code', { message: '紹介コードは英数字・_・- で指定してください' });
    return code;
  },
  referrer: withDefault(referralForm.referrer, '紹介者'),
};
const referralSchema = collectionSchema(REFERRALS, ruleFields(referralRules), { clicks: derivedInt(), leads: derivedInt(), created: stamp() });

export const partnerRules = {
  company: required(partnerForm.company, 'company required', '会社名を入力してください'),
  email: (v: unknown): string => email(partnerForm.email)(required(partnerForm.email, 'email required', 'メールアドレスを入力してください')(v)),
};
const partnerSchema = collectionSchema(
  PARTNERS,
  { ...ruleFields(partnerRules), contact: asField(partnerForm.contact), region: asField(partnerForm.region), ...partnerEditFields },
  { code: new Field(z.string().regex(CODE)), created: stamp() },
);

// --- reviews -----------------------------------------------------------------------------------

/** NPS 0..10; a missing or unreadable value takes `fallback` (the route's rating × 2), or is refused without one. */
export function readNps(v: unknown, fallback?: number): number {
  const n = looseNumber(v);
  if (Number.isFinite(n)) return clamp(Math.round(n), 0, 10);
  if (fallback === undefined) throw badRequest('invalid nps', { message: 'NPS は 0〜10 の数値です' });
  return fallback;
}
export const reviewRules = {
  comment: required(reviewForm.comment, 'comment required', 'コメントを入力してください'),
  rating: (v: unknown): number => {
    const r = looseNumber(v);
    if (!Number.isFinite(r)) throw badRequest('rating required', { message: '評価（1〜5）を選んでください' });
    return clamp(Math.round(r), 1, 5);
  },
  nps: (v: unknown) => readNps(v),
  name: withDefault(reviewForm.name, '匿名'),
  company: (v: unknown) => reviewForm.company.parse(v),
};
/** approved is the moderation flag (stored false by the public form; the public list shows approved reviews). */
const reviewSchema = collectionSchema(REVIEWS, { ...ruleFields(reviewRules), approved: new Field(z.boolean()) }, { created: stamp() });

// --- event registrations and A/B counters ------------------------------------------------------

const registration = formRequests.eventRegister.shape;
/** One registration per event and address, keyed `<event>:<address in lower case>` as the register route writes it. */
const eventRegSchema = derivedKey(
  collectionSchema(
    EVENT_REGS,
    {
      event: ruleField((v: unknown): string => {
        const ev = EVENTS.find((e) => e.id === v);
        if (!ev) throw badRequest('event not found', { allowed: EVENTS.map((e) => e.id) });
        return ev.id;
      }),
      email: ruleField((v: unknown): string => {
        const s = required(registration.email, 'email required', 'メールアドレスを入力してください')(v);
        checkEmail(s);
        return s;
      }),
      name: asField(registration.name),
      company: asField(registration.company),
    },
    { created: stamp() },
  ),
  (id, f) => {
    const [event, email] = splitEventRegKey(id);
    if (!email || eventRegKey(event, email) !== id) return 'a registration is keyed <event>:<address in lower case>';
    if (f.event != null && f.event !== event) return `the event of ${id} is ${event}`;
    if (f.email != null && (typeof f.email !== 'string' || f.email.toLowerCase() !== email)) return `the address of ${id} is ${email}`;
    return null;
  },
);

/** The one record of A/B counters (views and conversions of variants a and b), counted by POST /api/ab. */
const abSchema = fixedKeys(collectionSchema(AB, {}, Object.fromEntries(AB_COUNTERS.map((k) => [k, derivedInt()]))), [AB_ID]);

export const formSchemas = [leadSchema, signSchema, bookingSchema, referralSchema, partnerSchema, reviewSchema, eventRegSchema, abSchema];
