/** Wire contract of accounts and sign-in (password, emailed code, Google, phone) and the customer portal. */
import { z } from 'zod';
import { num, ok, okItem, str } from '../primitives';
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
  issue: ok({ url: str, portal: PortalEntry }),
  action: ok({ portal: PortalEntry, tickets: num, dls: num }),
  status: ok({ site: str, published: z.literal(true), status: str, label: str, devices: z.looseObject({ total: num.nullable(), active: num.nullable(), computed: z.boolean() }), lastTouch: str, generated: num }),
};
