/** Wire contract of the Publishing Studio API (success bodies carry ok:true beside the route's fields). */
import { z } from 'zod';
import { num, ok, okList, str } from '../primitives';

const id = z.union([num, str]);
const Member = z.looseObject({ user_id: num, email: str, role: str });
/** An open invitation (the link's token is only in the mail). */
const Invitation = z.looseObject({ id: str, email: str, role: str, expires_at: str, created_at: str });
const Pass = z.looseObject({ id: id.optional(), scope: str.optional(), surface: str.nullable().optional() });
const Billing = ok({
  plan: str,
  allowances: z.looseObject({}),
  usage: z.looseObject({}),
  credits: z.looseObject({ balance: num }),
  passes: z.array(Pass),
  enforcement: z.enum(['soft', 'hard']),
  prices: z.record(z.string(), num),
});
/** The plans a workspace can be on. */
export const PLAN_NAMES = ['free', 'starter', 'pro', 'business'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export const StudioJob = z.looseObject({
  id: str,
  /** Who made the results: the configured generation platform, or the built-in placeholder drawer (not generated content). */
  engine: z.enum(['platform', 'local-placeholder']),
  model: str,
  surface: str,
  prompt: str.nullable().optional(),
  status: str,
  error: str.nullable(),
  settings: z.record(z.string(), z.unknown()),
  media: z.record(z.string(), z.unknown()),
  results: z.array(z.unknown()),
  created_at: z.union([num, str]),
});
export const StudioMedia = z.looseObject({ id: id, key: str, url: str, type: str.nullable().optional(), job_id: str.nullable().optional() });
const CatalogModel = z.looseObject({ id: str, name: str, surface: str, price: num.optional() });
const Session = ok({ token: str, workspace_id: num });

/** Success bodies of the studio's routes. */
export const studioResponses = {
  register: Session,
  login: Session,
  me: ok({ user: z.looseObject({ id: num.nullable(), email: str.nullable() }), workspace: z.looseObject({}), role: str, actor: str }),
  members: okList('members', Member).extend({ invitations: z.array(Invitation).optional() }),
  invite: ok({ invitation: Invitation, members: z.array(Member), invitations: z.array(Invitation) }),
  logout: ok({}),
  keys: okList('keys', z.looseObject({ id: id, prefix: str, revoked: z.boolean() })),
  mintKey: ok({ key: str, id: id, prefix: str }),
  revokeKey: ok({}),
  billing: Billing,
  posts: okList('posts', z.looseObject({ id: id, title: str, body: str })),
  post: ok({ post: z.looseObject({ id: id, title: str }) }),
  analyze: ok({ analysis: z.looseObject({}), charged: num, credits: num }),
  credits: ok({ balance: num }),
  pass: ok({ pass: Pass }),
  suspend: ok({ user_id: num, suspended: z.boolean() }),
  monthlyReset: ok({ workspaces: num }),
  catalog: okList('models', CatalogModel.extend({ settings: z.unknown(), media: z.unknown() })),
  models: okList('models', CatalogModel),
  presets: ok({ presets: z.unknown().refine((v) => v !== undefined, 'presets required') }),
  quote: ok({ quote: z.looseObject({ model: str, surface: str, price: num, charge: num, balance: num, enforcement: z.enum(['soft', 'hard']), allowed: z.boolean() }) }),
  generate: ok({ job: StudioJob, credits: num, charged: num }),
  job: ok({ job: StudioJob }),
  save: ok({ media: StudioMedia, items: z.array(StudioMedia) }),
  media: okList('media', StudioMedia),
  poll: ok({ checked: num, finished: num }),
};
