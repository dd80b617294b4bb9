/**
 * Values and shapes of the agent platform's requests that the routes and services share
 * (docs/spec/agents-api.md): choices, limits, and the bodies several routes accept.
 */
import { z } from 'zod';

/** Roles an invitation or a role change can give (there is one owner). */
export const ASSIGNABLE_ROLES = ['member', 'viewer'] as const;

/** A public chat message is at most 4,000 characters. */
export const MESSAGE_MAX = 4_000;
/** Monthly message allowance of each plan tier. */
export const TIER_ALLOWANCE: Record<string, number> = { free: 100, starter: 2000, pro: 10000, business: 50000 };
export const TIERS = Object.keys(TIER_ALLOWANCE);

export const TICKET_CATEGORIES = ['general', 'billing', 'technical', 'account', 'affiliate', 'feature_request', 'bug'] as const;
export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
/** open: waits for the team; answered: the team replied; pending: waits for something outside; closed. */
export const TICKET_STATUSES = ['open', 'answered', 'pending', 'closed'] as const;

export const SOURCE_TYPES = ['text', 'qa', 'file', 'website', 'social'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];
/** What each handoff action sets the conversation to. */
export const HANDOFF_ACTIONS = { takeover: 'operator', resolve: 'resolved', bot: 'bot' } as const;
/** Stages of a lead. */
export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'won', 'lost'] as const;
/** Events a webhook can subscribe to. */
export const EVENT_NAMES = ['message.created', 'lead.captured', 'leads.submit', 'handoff.requested'] as const;
export type EventName = (typeof EVENT_NAMES)[number];
/** Voices of text to speech. */
export const VOICES = ['alloy', 'ash', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer'] as const;

/** Body of a new source (both /api/sources and /api/agents/{id}/sources). */
export const sourceBody = z.object({
  type: z.enum(SOURCE_TYPES, 'type must be text, qa, file, website or social'),
  name: z.string().trim().max(200).optional(),
  content: z.string().max(5_000_000).optional(),
  url: z.string().trim().max(2_000).optional(),
  question: z.string().max(4_000).optional(),
  answer: z.string().max(20_000).optional(),
  dataBase64: z.string().optional(),
  mime: z.string().max(200).optional(),
  sizeKb: z.number().int().min(0).max(1_000_000).optional(),
  maxPages: z.number().int().min(1).max(200).optional(),
});

/** Appearance and behaviour of the embeddable chat widget. */
export const widgetFields = {
  title: z.string().trim().max(80),
  subtitle: z.string().trim().max(160),
  welcome_message: z.string().max(2_000),
  placeholder: z.string().max(120),
  primary_color: z.string().max(32),
  accent_color: z.string().max(32),
  text_color: z.string().max(32),
  background_color: z.string().max(32),
  position: z.enum(['right', 'left']),
  theme: z.enum(['light', 'dark', 'auto']),
  launcher_icon: z.string().max(2_000),
  avatar_url: z.string().max(2_000),
  bubble_text: z.string().max(120),
  suggestions: z.array(z.string().trim().min(1).max(120)).max(6),
  show_branding: z.boolean(),
  collect_leads: z.boolean(),
  lead_fields: z.array(z.enum(['name', 'email', 'phone', 'company'])).max(4),
  auto_open: z.boolean(),
  auto_open_delay: z.number().int().min(0).max(60_000),
  language: z.string().max(10),
  sound: z.boolean(),
};
export const widgetSchema = z.object(widgetFields).partial();

/** Platform settings an operator edits; unset keys take their defaults. */
export const settingsSchema = z.object({
  announcement: z.string().max(1_000),
  supportEmail: z.union([z.literal(''), z.email('supportEmail must be an email address')]),
  allowSignups: z.boolean(),
  /** Credits of a new workspace; null takes AGENTS_SIGNUP_CREDITS. */
  signupCredits: z.number().int().min(0).max(1_000_000).nullable(),
  maintenanceMode: z.boolean(),
});

/** A credit bundle the operator sells. */
export const bundleSchema = z.object({
  id: z.string().trim().min(1, 'id is required').max(64).regex(/^[a-z0-9][a-z0-9_-]*$/, 'id may hold a-z, 0-9, _ and -'),
  name: z.string().trim().min(1, 'name is required').max(120),
  credits: z.number().int().min(1, 'credits must be at least 1').max(10_000_000),
  priceCents: z.number().int().min(50, 'priceCents must be at least 50').max(100_000_000),
});

/** A content page of the public site (title and sections). */
export const contentSchema = z.object({
  title: z.string().trim().min(1, 'title is required').max(200),
  sections: z.array(z.object({ heading: z.string().trim().max(200), body: z.string().max(20_000) })).max(50),
});
