/** Wire contract of the public forms (leads, signatures, bookings, referrals, partners, reviews), providers and sites. */
import { z } from 'zod';
import { createShape, Field, intClamp, num as numField, patchShape, text, textValue } from '../../fields';
import { crudResponses, num, ok, okItem, okList, optStr, str } from '../primitives';

const done = ok({});

export const Lead = z.looseObject({ id: str, name: optStr, email: optStr, company: optStr, phone: optStr, message: optStr, source: optStr, tenant: optStr, status: optStr, notes: optStr, created: num.optional() });
export const SignDoc = z.looseObject({ id: str, title: optStr, client: optStr, email: optStr, amount: z.union([num, str]).nullable().optional(), bodyHtml: optStr, status: optStr, signedName: optStr, signedAt: z.union([num, str]).nullable().optional() });
export const Booking = z.looseObject({ id: str, name: optStr, email: optStr, company: optStr, phone: optStr, when: optStr, topic: optStr, status: optStr });
export const Partner = z.looseObject({ id: str, company: optStr, email: optStr, contact: optStr, region: optStr, note: optStr, tier: optStr, status: optStr, code: optStr });
export const Review = z.looseObject({ id: str, name: optStr, company: optStr, rating: num, nps: num.optional(), comment: str, approved: z.boolean().optional() });

// ---- Requests of the public forms and of the pages that follow them up ----
/** An address of the usual form (name@domain.tld). */
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A form's text: a string or number, trimmed and clipped to n characters; anything else reads as ''. */
export const formText = (n: number) => z.unknown().optional().transform((v) => textValue(v, n));
const t = formText;

export const leadForm = { name: t(120), email: t(160), company: t(120), phone: t(40), message: t(1500), source: t(40), tenant: t(120) };
/** What an operator edits on a lead; an email given must be an address. */
export const leadEditFields = {
  status: text(30),
  notes: text(3000),
  name: text(120),
  company: text(120),
  email: new Field(text(160).zod.refine((v) => v === '' || EMAIL_RE.test(v), 'メールアドレスの形式が正しくありません'), () => ''),
  phone: text(40),
};
export const signForm = { title: t(200), client: t(200), email: t(160), amount: z.unknown().optional(), bodyHtml: z.unknown().optional() };
export const bookingForm = { name: t(120), email: t(160), company: t(120), phone: t(40), when: t(60), topic: t(300) };
export const bookingEditFields = { status: text(30) };
export const referralForm = { referrer: t(120), code: t(24) };
export const partnerForm = { company: t(120), email: t(160), contact: t(120), region: t(60), note: t(800) };
/** What an operator edits on a partner. */
export const partnerEditFields = { status: text(30), tier: text(30), note: text(800), deals: intClamp(0, 1_000_000, 0), revenue: numField() };
export const reviewForm = { comment: t(800), rating: z.unknown().optional(), name: t(80), company: t(120), nps: z.unknown().optional() };

/** Request schemas of the public form routes and of the operator pages that follow them up. */
export const formRequests = {
  lead: z.object(leadForm),
  leadEdit: { create: createShape(leadEditFields), patch: patchShape(leadEditFields) },
  sign: z.object(signForm),
  signParams: z.object({ id: z.string().min(1).max(80) }),
  signSubmit: z.object({ name: z.unknown().optional(), agreed: z.unknown().optional(), signature: z.unknown().optional() }),
  booking: z.object(bookingForm),
  bookingEdit: { create: createShape(bookingEditFields), patch: patchShape(bookingEditFields) },
  referral: z.object(referralForm),
  referralParams: z.object({ code: z.string().min(1).max(40) }),
  partner: z.object(partnerForm),
  partnerEdit: { create: createShape(partnerEditFields), patch: patchShape(partnerEditFields) },
  review: z.object(reviewForm),
  eventParams: z.object({ id: z.string().min(1).max(40) }),
  eventRegister: z.object({ email: t(160), name: t(120), company: t(120) }),
  abEvent: z.object({ variant: z.unknown().optional(), event: z.unknown().optional() }),
  trial: z.object({ email: z.unknown().optional(), company: t(80), name: t(80), plan: t(40) }),
};

/** Success bodies of the public form routes. */
export const formResponses = {
  leads: { ...crudResponses('leads', 'lead', Lead), remove: done },
  lead: ok({ id: str }),
  signCreate: ok({ id: str, url: str }),
  signs: okList('signs', SignDoc),
  sign: okItem('doc', SignDoc),
  signStatus: ok({ status: str, signedName: str.nullable(), signedAt: z.union([num, str]).nullable() }),
  signSubmit: ok({ status: z.literal('signed'), signedAt: z.union([num, str]) }),
  bookings: crudResponses('bookings', 'booking', Booking),
  booking: ok({ id: str }),
  referral: ok({ code: str, url: str }),
  referrals: okList('referrals', z.looseObject({ code: str, referrer: optStr, clicks: num.optional(), leads: num.optional() })),
  track: done,
  partners: crudResponses('partners', 'partner', Partner),
  partner: ok({ id: str, code: str, referralUrl: str }),
  review: done,
  reviews: ok({ reviews: z.array(Review), avg: num.nullable(), count: num, nps: num.nullable() }),
  events: okList('events', z.looseObject({ id: str, title: str, date: str, seats: num })),
  register: done,
  ab: done,
  abStats: ok({ stats: z.looseObject({ a: z.looseObject({ view: num, convert: num }), b: z.looseObject({ view: num, convert: num }) }) }),
  signup: ok({ tenant: z.looseObject({ id: str, name: str }), url: str }),
};

/** Success bodies of the provider connection, advisor and market price routes. */
export const providerResponses = {
  status: ok({ origin: str, providers: z.array(z.looseObject({ key: str, name: str, group: optStr, authType: optStr, connected: z.boolean(), configured: z.boolean() })) }),
  credentials: ok({ tested: z.unknown() }),
  disconnect: done,
  /** The answer, or (no provider key, provider failure) an honest fallback answered with 200. */
  advisor: z.union([ok({ text: str, model: optStr }), z.looseObject({ ok: z.literal(false), fallback: z.literal(true), reason: str })]),
  marketprice: ok({ live: z.boolean(), model: str, note: str, results: z.array(z.unknown()).optional() }),
};

/** Success bodies of the published site routes. */
export const siteResponses = {
  publish: ok({ slug: str, url: str }),
  list: okList('sites', z.looseObject({ slug: str, name: optStr, url: str })),
  unpublish: done,
};

/** Request schemas of the provider connection and advisor routes. */
export const providerRequests = {
  params: z.object({ provider: z.string().min(1).max(40) }),
  /** POST /api/connect/{provider}/credentials: the provider's credential fields (tested before they are kept). */
  credentials: z.object({ fields: z.record(z.string(), z.unknown()).optional() }),
  /** POST /api/advisor: the question (clipped to 4,000 characters) and up to 8 earlier turns. */
  advisor: z.object({ message: z.unknown().optional(), history: z.unknown().optional() }),
};
export type ProviderCredentials = z.input<typeof providerRequests.credentials>;
export type AdvisorQuestion = z.input<typeof providerRequests.advisor>;

/** A site's slug: lower-case letters, digits and inner hyphens, at most 40 characters. */
export const SITE_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
/** A published page holds at most this many bytes of HTML (413 beyond). */
export const MAX_SITE_HTML = 200_000;

/** Request schemas of the published site routes. */
export const siteRequests = {
  /** POST /api/site/publish: slug (SITE_SLUG), html (non-empty, at most MAX_SITE_HTML bytes) and a name. */
  publish: z.object({ slug: z.unknown().optional(), html: z.unknown().optional(), name: z.unknown().optional() }),
  unpublishParams: z.object({ slug: z.string().min(1).max(60) }),
  /** GET /site/{slug}: any slug reads (one that is not a site's answers the 404 page). */
  pageParams: z.object({ slug: z.string().max(200) }),
};
export type SitePublish = z.input<typeof siteRequests.publish>;
