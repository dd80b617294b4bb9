/**
 * Wire contract of the workspace's own settings and planning screens: company settings, forecast,
 * partner network, surveys, onboarding, replacement proposals, workdesk, ESG and team.
 */
import { z } from 'zod';
import { clamp, clip, createShape, intClamp, json, num as numField, oneOf, patchShape, text } from '../../fields';
import { DEFAULT_MDM } from '../../devices';
import { num, ok, okItem, okList, optStr, str } from '../primitives';
import { emailField, objectBody, passwordField, shortIdParams } from './common';

const flags = z.record(z.string(), z.boolean());
const strings = z.record(z.string(), z.string());

export const Company = z.looseObject({
  name: optStr,
  brand: optStr,
  addr: optStr,
  tel: optStr,
  email: optStr,
  regno: optStr,
  rep: optStr,
  web: optStr,
  bank: optStr,
  logo: optStr,
  /** How invoice line amounts are stated (default 税抜). */
  taxBasis: z.enum(['税抜', '税込']).optional(),
  /** Days a quote is valid after its issue date (default 30). */
  quoteValidDays: z.number().int().optional(),
  /** Working weekdays, 0 = Sunday … 6 = Saturday (default Monday to Friday). */
  workdays: z.array(z.number().int()).optional(),
  /** Japanese public holidays are closed days (default true). */
  holidays: z.boolean().optional(),
  /** Extra closed dates YYYY-MM-DD (年末年始, 棚卸日 …). */
  closedDates: z.array(z.string()).optional(),
});
export const Prefs = z.looseObject({ emailNotify: z.boolean(), slaAlert: z.boolean() });
/** The company profile's text fields (each clipped to 300 characters); the logo is an image data URL. */
export const COMPANY_TEXT_FIELDS = ['name', 'brand', 'addr', 'tel', 'email', 'regno', 'rep', 'web', 'bank'] as const;
export type CompanyTextField = (typeof COMPANY_TEXT_FIELDS)[number];
/** The company logo is '' or a data URL of an image (png, jpeg, gif, webp, svg). */
export const LOGO_PATTERN = /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/=\s]*$/;

/**
 * Request schemas of the settings routes. Their fields are read by the server's own rules (texts
 * clipped, the logo checked and size-limited, preferences coerced to bool), which answer the
 * contract's error strings; the schemas name what a client sends.
 */
export const settingsRequests = {
  /** PUT /api/settings/company: only the fields sent change. */
  company: objectBody<
    Partial<Record<CompanyTextField, string | number>> & { logo?: string; taxBasis?: '税抜' | '税込'; quoteValidDays?: number; workdays?: number[]; holidays?: boolean; closedDates?: string[] }
  >(),
  /** PUT /api/settings/prefs: coerced to bool (a non-empty string is true unless it spells off). */
  prefs: objectBody<{ emailNotify?: boolean | string | number; slaAlert?: boolean | string | number }>(),
  /** PUT /api/settings/ui: keys to set (string values) or remove (null). */
  ui: objectBody<{ state: Record<string, string | null> }>(),
};
export type CompanyPatch = z.input<typeof settingsRequests.company>;
export type PrefsPatch = z.input<typeof settingsRequests.prefs>;
export type UiStatePatch = z.input<typeof settingsRequests.ui>;

/** Success bodies of the settings routes. */
export const settingsResponses = {
  company: okItem('company', Company),
  prefs: okItem('prefs', Prefs),
  ui: okItem('state', strings),
  saveUi: ok({ keys: num, size: num }),
};

/** Public site switches (GET /api/config). */
export const SiteConfig = z.looseObject({
  maintenanceMode: z.boolean().optional(),
  maintenanceMessage: optStr,
  registrationOpen: z.boolean().optional(),
  announcementEnabled: z.boolean().optional(),
  announcementText: optStr,
  announcementLevel: optStr,
  demoEnabled: z.boolean().optional(),
  signinEnabled: z.boolean().optional(),
  chatBubbleEnabled: z.boolean().optional(),
  primaryCtaLabel: optStr,
  demoTenant: z.boolean().optional(),
});
export const configResponses = { config: okItem('config', SiteConfig) };

export const ForecastPrefs = z.looseObject({ horizon: num, sim: num });
/** Success bodies of the demand forecast routes. */
export const forecastResponses = {
  view: ok({ weekly: z.array(num), constants: z.record(z.string(), num), prefs: ForecastPrefs }),
  prefs: okItem('prefs', ForecastPrefs),
};
/** Request schema of POST /api/forecast/prefs: horizon 8 | 12 | 16 weeks, scenario sim 0 | 1 | 2 (read by the server, anything else 400). */
export const forecastRequests = { prefs: z.object({ horizon: z.unknown().optional(), sim: z.unknown().optional() }, { error: 'body must be a JSON object' }) };
export type ForecastPrefsInput = z.input<typeof forecastRequests.prefs>;

export const NetworkDeal = z.looseObject({ id: str, dir: str, partner: str, kind: str, units: num, period: str, rate: num, status: str });
export const Center = z.looseObject({ id: str, name: optStr, region: optStr, mdm: z.array(str).optional(), slots: z.unknown().optional(), shelf: z.unknown().optional(), rate: z.unknown().optional(), certs: z.array(str).optional() });
export const OemConfig = z.looseObject({ brand: str, logo: str, domain: str, plan: z.enum(['seat', 'rev']) });
/** Success bodies of the partner network routes. */
export const networkResponses = {
  deals: okList('deals', NetworkDeal),
  deal: ok({ deal: NetworkDeal, deals: z.array(NetworkDeal) }),
  centers: okList('centers', Center),
  center: ok({ center: Center, centers: z.array(Center) }),
  removeCenter: ok({ id: str, centers: z.array(Center) }),
  oem: okItem('oem', OemConfig),
};
export const NETWORK_DIRS = ['provide', 'accept', 'request'] as const;
/** A capacity deal as a client writes it (units a whole number ≥ 1 and rate a number, read by the server; shared with the push check). */
export const networkDealFields = {
  units: json(z.unknown()).optional(),
  dir: oneOf(NETWORK_DIRS, 'provide'),
  partner: text(120).default('ネットワーク公開'),
  kind: text(40).default('キッティング枠'),
  period: text(40).default('—'),
  rate: text(20).optional(),
  status: text(24).optional(),
};
const centerStrList = z
  .array(z.union([z.string(), z.number()]), { error: 'must be an array of strings' })
  .max(50)
  .transform((a) => a.map((v) => clip(String(v).trim(), 40)).filter(Boolean));
const nonNeg = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n) || n < 0) {
    ctx.addIssue({ code: 'custom', message: 'must be a number ≥ 0' });
    return z.NEVER;
  }
  return n;
});
/** A kitting center's fields as the center route reads them (shared with the push check). */
export const networkCenterRules = { name: text(120).zod, region: text(60).zod, mdm: centerStrList, slots: nonNeg, shelf: nonNeg, rate: nonNeg, certs: centerStrList };
/** The OEM branding's texts as the OEM route reads them (plan rev, anything else seat). */
export const networkOemRules = { brand: text(24).zod, logo: text(2).zod, domain: text(48).zod };
/** Request schemas of the partner network routes. */
export const networkRequests = {
  deal: createShape(networkDealFields),
  center: z.object(
    {
      id: z.string().max(60).nullish(),
      name: networkCenterRules.name.nullish(),
      region: networkCenterRules.region.nullish(),
      mdm: networkCenterRules.mdm.nullish(),
      slots: networkCenterRules.slots.nullish(),
      shelf: networkCenterRules.shelf.nullish(),
      rate: networkCenterRules.rate.nullish(),
      certs: networkCenterRules.certs.nullish(),
    },
    { error: 'body must be a JSON object' },
  ),
  centerParams: z.object({ id: z.string().min(1).max(60) }),
  oem: z.object(
    { brand: networkOemRules.brand.nullish(), logo: networkOemRules.logo.nullish(), domain: networkOemRules.domain.nullish(), plan: z.unknown().optional() },
    { error: 'body must be a JSON object' },
  ),
};
export type NetworkDealInput = z.input<typeof networkRequests.deal>;
export type NetworkCenterInput = z.input<typeof networkRequests.center>;
export type NetworkOemInput = z.input<typeof networkRequests.oem>;

export const SurveyResponse = z.looseObject({ id: str, date: optStr, cust: optStr, src: optStr, k: optStr, nps: num.nullable().optional(), csat: num.nullable().optional(), comment: optStr });
export const Followup = z.looseObject({ action: optStr, note: optStr, date: optStr });
/** Success bodies of the survey routes. */
export const surveyResponses = {
  view: ok({ responses: z.array(SurveyResponse), followups: z.record(z.string(), Followup), sent: num }),
  send: ok({ sent: num }),
  response: okItem('response', SurveyResponse),
  followup: okItem('followup', Followup),
};
/** A survey response as a client writes it (the push check reads pushed responses with the same fields). */
export const surveyResponseFields = {
  id: text(60).optional(),
  date: text(10).optional(),
  cust: text(120),
  src: text(40).default('メール'),
  k: oneOf(['NPS', 'CSAT'], 'NPS'),
  // a score that is not a number is refused (400), never read as 0 or 5
  nps: json(numField().zod.transform((n) => clamp(Math.round(n), 0, 10))).optional(),
  csat: json(numField().zod.transform((n) => clamp(Math.round(n), 1, 5))).optional(),
  comment: text(1000),
};
/** A follow-up of a response (date YYYY-MM-DD, checked by the server; today when none is given). */
export const surveyFollowupFields = { action: text(60), note: text(600), date: text(10).optional() };
/** Request schemas of the survey routes. */
export const surveyRequests = {
  /** POST /api/survey/send: batch size, read by the server. */
  send: z.object({ batch: z.unknown().optional() }, { error: 'body must be a JSON object' }),
  response: createShape(surveyResponseFields),
  followup: createShape(surveyFollowupFields),
  followupParams: z.object({ id: z.string().min(1).max(200).transform((v) => clip(v, 60)) }),
};
export type SurveyResponseInput = z.input<typeof surveyRequests.response>;
export type SurveyFollowupInput = z.input<typeof surveyRequests.followup>;

export const OnboardingState = z.looseObject({ sel: str, tab: z.enum(['emp', 'cust']), projects: z.record(z.string(), z.looseObject({ mdm: optStr, steps: z.record(z.string(), z.unknown()).optional(), start: optStr })) });
export const DeviceRequest = z.looseObject({ id: str, name: str, dept: str, model: optStr, mdm: optStr, use: optStr, ticket: optStr, status: z.enum(['pending', 'approved', 'rejected']), lead: num.nullable().optional(), ts: num.optional() });
/** Success bodies of the onboarding routes. */
export const onboardingResponses = {
  projects: okItem('state', OnboardingState),
  requests: okList('requests', DeviceRequest),
  request: okItem('request', DeviceRequest),
};

/** A device request as a client writes it (the push check reads pushed requests with the same rules). */
export const deviceRequestFields = {
  id: text(60).optional(),
  name: text(120),
  dept: text(120),
  model: text(60).default('iPhone 16'),
  mdm: text(60).default(DEFAULT_MDM),
  use: text(300),
  ticket: text(40),
  ts: numField().optional(),
};
/** Request schemas of the onboarding routes (the project board is read entry by entry by the server). */
export const onboardingRequests = {
  projects: z.object({ sel: z.unknown().optional(), tab: z.unknown().optional(), projects: z.unknown().optional() }, { error: 'body must be a JSON object' }),
  /** POST /api/onboarding/request: name and dept required (checked by the server after trimming). */
  create: createShape(deviceRequestFields),
  params: z.object({ id: z.string().min(1).max(60) }),
  /** POST /api/onboarding/request/:id: status approved|rejected|pending; lead (days) only when approved. */
  update: z.object({ status: z.unknown().optional(), lead: z.unknown().optional() }, { error: 'body must be a JSON object' }),
};
export type DeviceRequestInput = z.input<typeof onboardingRequests.create>;
export type OnboardingProjectsInput = z.input<typeof onboardingRequests.projects>;

/** Success bodies of the replacement proposal routes (customer name → ISO time). */
export const replaceResponses = {
  proposals: okItem('proposals', strings),
  propose: ok({ cust: str, at: str, proposals: strings }),
};
/** Request schema of the replacement proposal route (cust required after trimming, checked by the server). */
export const replaceRequests = { propose: z.object({ cust: text(120).zod.nullish() }, { error: 'body must be a JSON object' }) };
export type ReplaceProposalInput = z.input<typeof replaceRequests.propose>;

export const WorkdeskDoc = z.looseObject({ id: str, name: optStr, type: optStr, size: num.optional(), status: optStr, date: optStr, created: num.optional() });
export const Thread = z.looseObject({ id: str, title: optStr, ts: num.optional(), msgs: z.array(z.looseObject({ role: optStr, text: optStr })), created: num.optional() });
/** Success bodies of the workdesk routes. */
export const workdeskResponses = {
  docs: okList('docs', WorkdeskDoc),
  doc: okItem('doc', WorkdeskDoc),
  removeDoc: ok({}),
  threads: okList('threads', Thread),
  thread: okItem('thread', Thread),
  conn: okItem('conn', flags),
  search: ok({ q: str, hits: z.array(z.looseObject({})), indexed: num }),
};
/** A thread holds at most 500 messages. */
export const MSGS_MAX = 500;
/** A workdesk document as a client writes it (the push check reads pushed documents with the same fields). */
export const workdeskDocFields = {
  id: text(60).optional(),
  name: text(200).optional(),
  type: text(40).optional(),
  size: intClamp(0, Number.MAX_SAFE_INTEGER, 0).optional(),
  status: text(40).optional(),
  date: text(10).optional(),
  text: text(200_000).optional(),
};
const workdeskMessage = z.object(
  {
    role: text(20).zod.nullish(),
    text: text(20_000).zod.nullish(),
    html: text(50_000).zod.nullish(),
    srcs: z.array(z.union([z.string(), z.number(), z.record(z.string(), z.unknown())])).max(50).nullish(),
    typing: z.boolean().nullish(),
  },
  { error: 'msgs must be objects {role, text}' },
);
/** A thread's messages as the routes store them: role user when none is given, no null keys. */
export const workdeskMessages = z
  .array(workdeskMessage, { error: 'msgs must be an array' })
  .max(MSGS_MAX, `msgs: at most ${MSGS_MAX}`)
  .transform((list) => list.map((m) => Object.fromEntries(Object.entries({ ...m, role: m.role || 'user' }).filter(([, v]) => v !== null && v !== undefined))));
/** A chat thread as a client writes it (shared with the push check). */
export const workdeskThreadFields = { title: text(120).zod.nullish(), ts: numField().zod.nullish(), msgs: workdeskMessages.nullish() };
/** Request schemas of the workdesk routes. */
export const workdeskRequests = {
  doc: createShape(workdeskDocFields),
  thread: z.object({ id: text(60).zod.nullish(), ...workdeskThreadFields }, { error: 'body must be a JSON object' }),
  threadPatch: z.object({ ...workdeskThreadFields, append: z.union([workdeskMessage, z.array(workdeskMessage)]).nullish() }, { error: 'body must be a JSON object' }),
  params: z.object({ id: z.string().min(1).max(60) }),
  /** POST /api/workdesk/conn: {map} or the map itself (connector id → on/off), read by the server. */
  conn: z.record(z.string(), z.unknown(), { error: 'body must be a JSON object' }),
  search: z.object({ q: text(200).zod.nullish() }, { error: 'body must be a JSON object' }),
};
export type WorkdeskDocInput = z.input<typeof workdeskRequests.doc>;
export type WorkdeskThreadInput = z.input<typeof workdeskRequests.thread>;
export type WorkdeskThreadPatch = z.input<typeof workdeskRequests.threadPatch>;

const EsgDoc = z.looseObject({ scope: str, fy: z.union([str, num]), units: num.optional(), co2e: num.nullable().optional(), actualUnits: num.optional(), forecastUnits: num.optional(), settings: z.looseObject({ co2e: num, ewaste: num }).optional() });
export const esgResponses = { report: ok({ warnings: z.array(z.unknown()), doc: EsgDoc }) };
/** Request schema of POST /api/esg/report: scope (blank or center → the whole center) and the figures a claim states. */
export const esgRequests = {
  report: z.object(
    {
      scope: z.union([z.string(), z.number()], { error: 'scope must be a string' }).nullish(),
      claim: z.record(z.string(), z.unknown(), { error: 'claim must be an object' }).nullish(),
    },
    { error: 'body must be a JSON object' },
  ),
};
export type EsgReportInput = z.input<typeof esgRequests.report>;

export const TeamMember = z.looseObject({ id: str, name: str, ini: optStr, role: str, dept: optStr, email: optStr, scopes: z.record(z.string(), z.string()).optional(), status: optStr });
export const PublicAccount = z.looseObject({ email: str.nullable(), company: optStr, name: optStr, tenantId: optStr, created: num.optional(), lastLogin: num.nullable().optional() });
/** Success bodies of the team routes. */
export const teamResponses = {
  members: okList('members', TeamMember),
  member: okItem('member', TeamMember),
  remove: ok({ id: str }),
  plan: ok({ planKey: z.enum(['starter', 'pro', 'ent']) }),
  invite: ok({ inviteUrl: str, token: str, member: TeamMember }),
  accept: ok({ token: str, account: PublicAccount, joinedTenant: str }),
};

export const ROLES = ['owner', 'admin', 'exec', 'member', 'viewer'] as const;
const SCOPE = z.enum(['none', 'view', 'edit']);
/** A team member as a client writes it; invites and sign-ups add their state and the account. */
export const MEMBER_FIELDS = {
  name: text(80),
  ini: text(2),
  role: oneOf(ROLES, 'member'),
  dept: text(60).default('—'),
  email: text(120),
  scopes: json(z.object({ mgmt: SCOPE, ops: SCOPE, sales: SCOPE, support: SCOPE, settings: SCOPE }).partial()),
};

/** Request schemas of the team routes. */
export const teamRequests = {
  params: shortIdParams,
  /** POST /api/team/member: name required; ini NA when none is given. */
  create: createShape(MEMBER_FIELDS),
  patch: patchShape(MEMBER_FIELDS),
  /** POST /api/team/plan: starter, pro or ent (anything else is a 400 naming them). */
  plan: z.object({ planKey: z.unknown().optional() }),
  /** POST /api/team/invite: role falls back to member (an invite never makes an owner). */
  invite: z.object({ email: emailField, role: z.unknown().optional(), name: z.string().optional() }),
  /** POST /api/team/accept: the invite link's token and the new account's credentials. */
  accept: z.object({ inviteToken: z.string().max(4096).optional(), email: emailField, password: passwordField, name: z.string().optional() }),
};
export type MemberCreate = z.input<typeof teamRequests.create>;
export type MemberPatch = z.input<typeof teamRequests.patch>;
export type TeamInvite = z.input<typeof teamRequests.invite>;
export type InviteAccept = z.input<typeof teamRequests.accept>;
