/** Response contracts of the agent platform's admin routes (docs/spec/agents-api.md). */
import { z } from 'zod';
import {
  AffiliateRecord,
  AgentRecord,
  BillingSummary,
  PayoutRecord,
  TicketRecord,
  UserRecord,
  WorkspaceRecord,
} from './agents-records';

/** An agent as the platform admin sees it: with the workspace it belongs to. */
const AdminAgent = AgentRecord.extend({ workspaceId: z.string() });

/** Success bodies of admin/affiliates.routes.ts, by route. */
export const affiliatesResponses = {
  'GET /api/admin/affiliates': z.looseObject({
    affiliates: z.array(AffiliateRecord),
    total: z.number(),
    page: z.number(),
    limit: z.number(),
  }),
  'GET /api/admin/affiliates/:id/kyc-doc': z.looseObject({
    kyc: z.looseObject({
      id: z.string(),
      status: z.string(),
      mime: z.string(),
      size: z.number(),
      dataBase64: z.string(),
      note: z.string(),
      submitted_at: z.string(),
      reviewed_at: z.unknown(),
    }),
  }),
  'GET /api/admin/affiliates/payouts': z.looseObject({
    payouts: z.array(PayoutRecord),
    total: z.number(),
    page: z.number(),
    limit: z.number(),
  }),
  'POST /api/admin/affiliates/:id/kyc': z.looseObject({ affiliate: AffiliateRecord }),
  'POST /api/admin/affiliates/payouts/:pid': z.looseObject({ payout: PayoutRecord, affiliate: AffiliateRecord }),
};

/**
 * One snapshot: `agents-<YYYYMMDD>-<HHMMSS>-<4 hex>.db` (format sqlite: a SQLite database file) or
 * `….pgexport.gz` (format pgexport: a gzip'd logical export of the PostgreSQL tables, loaded with
 * `npm run agents:restore`).
 */
const BackupRecord = z.looseObject({
  name: z.string().regex(/^agents-\d{8}-\d{6}-[0-9a-f]{4}\.(db|pgexport\.gz)$/),
  format: z.enum(['sqlite', 'pgexport']),
  size: z.number(),
  created_at: z.string(),
});

/** Success bodies of admin/backups.routes.ts, by route. */
export const backupsResponses = {
  'GET /api/backups': z.looseObject({ backups: z.array(BackupRecord) }),
  'POST /api/backups': z.looseObject({ backup: BackupRecord }),
};

/** The platform's settings (PUT /api/admin/settings changes them; GET also answers the defaults). */
const PlatformSettings = z.looseObject({
  announcement: z.string(),
  supportEmail: z.string(),
  allowSignups: z.boolean(),
  /** null: not set by an operator, new accounts get AGENTS_SIGNUP_CREDITS */
  signupCredits: z.number().nullable(),
  maintenanceMode: z.boolean(),
});

/** Success bodies of admin/content.routes.ts, by route. */
export const contentResponses = {
  'GET /api/admin/bundles': z.looseObject({
    bundles: z.array(z.looseObject({ id: z.string(), name: z.string(), credits: z.number(), priceCents: z.number() })),
    overridden: z.boolean(),
  }),
  'GET /api/admin/content': z.looseObject({
    pages: z.array(
      z.looseObject({
        page: z.string(),
        title: z.string(),
        sections: z.array(z.looseObject({ heading: z.string(), body: z.string() })),
        overridden: z.boolean(),
        updated_at: z.string().nullable(),
      }),
    ),
  }),
  'GET /api/admin/tickets': z.looseObject({
    tickets: z.array(TicketRecord),
    total: z.number(),
    page: z.number(),
    limit: z.number(),
  }),
  'GET /api/admin/tickets/:id': z.looseObject({
    ticket: TicketRecord,
    messages: z.array(
      z.looseObject({ id: z.string(), author: z.string(), authorId: z.string(), body: z.string(), created_at: z.string() }),
    ),
  }),
  'PATCH /api/admin/tickets/:id': z.looseObject({
    ticket: TicketRecord,
    messages: z.array(
      z.looseObject({ id: z.string(), author: z.string(), authorId: z.string(), body: z.string(), created_at: z.string() }),
    ),
  }),
  'POST /api/admin/bundles/reset': z.looseObject({
    bundles: z.array(z.looseObject({ id: z.string(), name: z.string(), credits: z.number(), priceCents: z.number() })),
    overridden: z.boolean(),
  }),
  'POST /api/admin/content/:page/reset': z.looseObject({
    page: z.string(),
    title: z.string(),
    sections: z.array(z.looseObject({ heading: z.string(), body: z.string() })),
    overridden: z.boolean(),
    updated_at: z.string().nullable(),
  }),
  'POST /api/admin/settings/reset': z.looseObject({ settings: PlatformSettings }),
  'PUT /api/admin/bundles': z.looseObject({
    bundles: z.array(z.looseObject({ id: z.string(), name: z.string(), credits: z.number(), priceCents: z.number() })),
    overridden: z.boolean(),
  }),
  'PUT /api/admin/content/:page': z.looseObject({
    page: z.string(),
    title: z.string(),
    sections: z.array(z.looseObject({ heading: z.string(), body: z.string() })),
    overridden: z.boolean(),
    updated_at: z.string(),
  }),
  'PUT /api/admin/settings': z.looseObject({ settings: PlatformSettings }),
  'GET /api/admin/settings': z.looseObject({ settings: PlatformSettings, defaults: PlatformSettings }),
};

/** Success bodies of admin/platform.routes.ts, by route. */
export const platformResponses = {
  'DELETE /api/admin/agents/:id': z.looseObject({ ok: z.boolean() }),
  'GET /api/admin/activity': z.looseObject({
    activity: z.array(
      z.looseObject({
        type: z.string(),
        id: z.number().optional(),
        admin: z.looseObject({ id: z.string(), email: z.string() }).optional(),
        action: z.string().optional(),
        target: z.looseObject({ type: z.string(), id: z.string() }).optional(),
        detail: z
          .looseObject({
            email: z.string().optional(),
            userId: z.string().optional(),
            status: z.string().optional(),
            tier: z.string().optional(),
            role: z.string().optional(),
            amount: z.number().optional(),
            note: z.string().optional(),
            balance: z.number().optional(),
            suspended: z.boolean().optional(),
            name: z.string().optional(),
          })
          .optional(),
        created_at: z.string(),
        userId: z.string().optional(),
        email: z.string().optional(),
        conversationId: z.string().optional(),
        workspaceId: z.string().optional(),
        agentId: z.string().optional(),
        channel: z.string().optional(),
        handoff: z.string().optional(),
      }),
    ),
  }),
  'GET /api/admin/agents': z.looseObject({
    agents: z.array(AdminAgent),
    total: z.number(),
    page: z.number(),
    limit: z.number(),
  }),
  'GET /api/admin/agents/:id': z.looseObject({
    agent: AdminAgent,
    counts: z.looseObject({ sources: z.number(), passages: z.number(), conversations: z.number(), leads: z.number() }),
  }),
  'GET /api/admin/llm-diagnostics': z.looseObject({
    engines: z.array(z.string()),
    providers: z.looseObject({
      anthropic: z.looseObject({ configured: z.boolean() }),
      openai: z.looseObject({ configured: z.boolean() }),
      local: z.looseObject({ configured: z.boolean() }),
    }),
    repliesByEngine: z.looseObject({
      // replies per engine that answered in the window (an engine without replies is absent)
      last24h: z.record(z.string(), z.number()),
      last7d: z.record(z.string(), z.number()),
    }),
    agentsNamingAModel: z.number(),
    note: z.string(),
  }),
  'GET /api/admin/revenue': z.looseObject({
    currency: z.string(),
    totalCents: z.number(),
    total: z.number(),
    last30DaysCents: z.number(),
    payments: z.number(),
    byMonth: z.array(z.unknown()),
    byProvider: z.array(z.unknown()),
    byKind: z.array(z.unknown()),
  }),
  'GET /api/admin/stats': z.looseObject({
    users: z.number(),
    suspendedUsers: z.number(),
    workspaces: z.number(),
    pausedWorkspaces: z.number(),
    agents: z.number(),
    sources: z.number(),
    passages: z.number(),
    conversations: z.number(),
    messages: z.number(),
    leads: z.number(),
    contacts: z.number(),
    openTickets: z.number(),
    creditsOutstanding: z.number(),
    tiers: z.looseObject({ free: z.number(), starter: z.number(), pro: z.number(), business: z.number() }),
    last7Days: z.looseObject({ signups: z.number(), conversations: z.number(), messages: z.number(), leads: z.number() }),
  }),
  'GET /api/admin/workspaces': z.looseObject({
    workspaces: z.array(WorkspaceRecord),
    total: z.number(),
    page: z.number(),
    limit: z.number(),
  }),
  'GET /api/admin/workspaces/:id': z.looseObject({ workspace: WorkspaceRecord }),
  'PATCH /api/admin/agents/:id': z.looseObject({ agent: AdminAgent }),
  'PATCH /api/admin/workspaces/:id': z.looseObject({ workspace: WorkspaceRecord }),
};

/** Success bodies of admin/users.routes.ts, by route. */
export const usersResponses = {
  'DELETE /api/admin/users/:id': z.looseObject({ ok: z.boolean(), workspacesDeleted: z.number() }),
  'GET /api/admin/users': z.looseObject({ users: z.array(UserRecord), total: z.number(), page: z.number(), limit: z.number() }),
  'GET /api/admin/users/:id': z.looseObject({ user: UserRecord }),
  'PATCH /api/admin/users/:id': z.looseObject({ user: UserRecord }),
  'POST /api/admin/users/:id/credits': z.looseObject({ workspaceId: z.string(), balance: z.number() }),
  'POST /api/admin/users/:id/edit-session': z.looseObject({ user: UserRecord }),
  'POST /api/admin/users/:id/impersonate': z.looseObject({
    token: z.string(),
    user: UserRecord,
    impersonator: z.looseObject({ id: z.string(), email: z.string(), name: z.string() }),
    expiresIn: z.number(),
  }),
  'POST /api/admin/users/:id/password': z.looseObject({ ok: z.boolean(), sessionsEnded: z.boolean() }),
  'POST /api/admin/users/:id/role': z.looseObject({ user: UserRecord }),
  'POST /api/admin/users/:id/subscription': z.looseObject({
    workspaceId: z.string(),
    billing: BillingSummary,
  }),
};
