/** Wire contract of accounts and sign-in (password, emailed code, Google, phone) and the customer portal. */
import { z } from 'zod';
import { clip } from '../../fields';
import { num, ok, okItem, str } from '../primitives';
import { emailField, passwordField } from './common';
import { PortalEntry, PortalView } from './platform';
import { PublicAccount } from './workspace';

const session = ok({ token: str, account: PublicAccount });

/** Success bodies of the account and sign-in routes. */
export const accountResponses = {
  signup: session.extend({ adoptedTenant: str }),
  /** A signed-in session, or (two-factor on) the challenge to answer at login/verify. */
  login: z.union([session, ok({ mfaRequired: z.literal(true), challenge: str })]),
  verify: session,
  logout: ok({}),
  me: z.union([ok({ signedIn: z.literal(false), tenantId: str, assist: z.boolean().optional() }), ok({ signedIn: z.literal(true), account: PublicAccount, assist: z.boolean().optional() })]),
  password: ok({ token: str }),
  methods: ok({ password: z.literal(true), google: z.boolean(), phone: z.boolean() }),
  phoneStart: ok({}),
  phoneVerify: session,
};

/** Success bodies of the portal routes (the view and inquiry are called with the portal token). */
export const portalResponses = {
  portals: okItem('state', z.record(z.string(), z.unknown())),
  view: PortalView.extend({ ok: z.literal(true) }),
  inquiry: ok({ ref: str, ticket: z.looseObject({ id: str, status: str, kind: str, cust: str }), created: num }),
  /**
   * url: the path with the token (as always); link: the whole address to send (on the public address, or null
   * when none is known); expires: the last day the link opens (JST); published: whether the portal shows its content.
   */
  issue: ok({ url: str, link: str, expires: str, via: z.enum(['public-url', 'central', 'request']), portal: PortalEntry }),
  action: ok({ portal: PortalEntry, tickets: num, dls: num }),
  status: ok({ site: str, published: z.literal(true), status: str, label: str, devices: z.looseObject({ total: num.nullable(), active: num.nullable(), computed: z.boolean() }), lastTouch: str, generated: num }),
};

/** A phone number for SMS sign-in: spaces, brackets and dashes dropped, then 8..15 digits with an optional +. */
const phoneField = z
  .string({ error: 'phone required' })
  .transform((v) => v.replace(/[\s()-]/g, ''))
  .pipe(z.string().regex(/^\+?[0-9]{8,15}$/, 'invalid phone'));

const code = z.union([z.string(), z.number()], { error: 'code required' }).transform(String);

/** Request schemas of the account and sign-in routes. */
export const accountRequests = {
  /** POST /api/account/signup (read after the registration switch and rate limit are checked). */
  signup: z.object({
    email: emailField,
    password: passwordField,
    company: z.string().optional().transform((v) => clip(v ?? '', 80)),
    name: z.string().optional().transform((v) => clip(v ?? '', 80)),
  }),
  login: z.object({ email: emailField, password: z.string({ error: 'password required' }).max(200) }),
  /** POST /api/account/login/verify: the emailed code of a two-factor challenge. */
  verify: z.object({ email: emailField, challenge: z.string({ error: 'challenge required' }).max(100), code }),
  password: z.object({ current: z.string({ error: 'current required' }).max(200), next: passwordField }),
  phoneStart: z.object({ phone: phoneField }),
  phoneVerify: z.object({ phone: phoneField, code }),
};
export type SignupInput = z.input<typeof accountRequests.signup>;
export type LoginInput = z.input<typeof accountRequests.login>;
export type LoginVerifyInput = z.input<typeof accountRequests.verify>;
export type PasswordChange = z.input<typeof accountRequests.password>;
