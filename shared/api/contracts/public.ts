/** Wire contract of the public forms (leads, signatures, bookings, referrals, partners, reviews), providers and sites. */
import { z } from 'zod';
import { crudResponses, num, ok, okItem, okList, optStr, str } from '../primitives';

const done = ok({});

export const Lead = z.looseObject({ id: str, name: optStr, email: optStr, company: optStr, phone: optStr, message: optStr, source: optStr, tenant: optStr, status: optStr, notes: optStr, created: num.optional() });
export const SignDoc = z.looseObject({ id: str, title: optStr, client: optStr, email: optStr, amount: z.union([num, str]).nullable().optional(), bodyHtml: optStr, status: optStr, signedName: optStr, signedAt: z.union([num, str]).nullable().optional() });
export const Booking = z.looseObject({ id: str, name: optStr, email: optStr, company: optStr, phone: optStr, when: optStr, topic: optStr, status: optStr });
export const Partner = z.looseObject({ id: str, company: optStr, email: optStr, contact: optStr, region: optStr, note: optStr, tier: optStr, status: optStr, code: optStr });
export const Review = z.looseObject({ id: str, name: optStr, company: optStr, rating: num, nps: num.optional(), comment: str, approved: z.boolean().optional() });

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
