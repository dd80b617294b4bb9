/** Response contracts of the agent platform's public routes (docs/spec/agents-api.md). */
import { z } from 'zod';

/** Success bodies of public/media.routes.ts, by route. */
export const mediaResponses = {
  /** Answered once an avatar provider is configured (until then the route answers 503 avatar not configured). */
  avatarSession: z.looseObject({ sessionId: z.string() }),
  'POST /api/public/:publicId/transcribe': z.looseObject({ text: z.string(), lang: z.string().nullable() }),
  'POST /api/public/:publicId/translate': z.looseObject({ text: z.string(), source: z.string().nullable(), target: z.string() }),
};

/** Success bodies of public/public.routes.ts, by route. */
export const publicResponses = {
  'GET /api/config': z.looseObject({
    announcement: z.string(),
    maintenance: z.boolean(),
    signupsOpen: z.boolean(),
    supportEmail: z.string(),
    name: z.string(),
    engines: z.array(z.string()),
    signupCredits: z.number(),
    creditCost: z.number(),
    sourceTypes: z.array(z.string()),
    features: z.looseObject({
      streaming: z.boolean(),
      twoFactor: z.boolean(),
      widget: z.boolean(),
      handoff: z.boolean(),
      advisor: z.boolean(),
    }),
    limits: z.looseObject({
      messageMaxChars: z.number(),
      bodyBytes: z.number(),
      sourceUploadBytes: z.number(),
      advisorBytes: z.number(),
      csvMaxRows: z.number(),
      crawlPages: z.number(),
    }),
  }),
  'GET /api/content/:page': z.looseObject({
    page: z.string(),
    title: z.string(),
    sections: z.array(z.looseObject({ heading: z.string(), body: z.string() })),
    updated_at: z.string().nullable(),
  }),
  'GET /api/health': z.looseObject({ ok: z.boolean(), db: z.string(), uptime_s: z.number() }),
  'GET /api/public/:publicId': z.looseObject({
    publicId: z.string(),
    name: z.string(),
    emoji: z.string(),
    avatar_url: z.string(),
    status: z.string(),
    welcome: z.string(),
    welcome_default: z.boolean(),
    title: z.string(),
    subtitle: z.string(),
    placeholder: z.string(),
    colors: z.looseObject({ primary: z.string(), accent: z.string(), text: z.string(), background: z.string() }),
    position: z.string(),
    theme: z.string(),
    suggestions: z.array(z.string()),
    collect_leads: z.boolean(),
    lead_fields: z.array(z.string()),
    auto_open: z.boolean(),
    auto_open_delay: z.number(),
    show_branding: z.boolean(),
    language: z.string(),
  }),
  'GET /api/public/:publicId/poll': z.looseObject({
    conversationId: z.string(),
    handoff: z.string(),
    messages: z.array(z.looseObject({ id: z.string(), role: z.string(), text: z.string(), created_at: z.string() })),
    cursor: z.string(),
  }),
  'POST /api/public/:publicId/chat': z.looseObject({
    reply: z.string(),
    conversationId: z.string(),
    messageId: z.string(),
    engine: z.string(),
    creditCost: z.number(),
    captured: z.unknown(),
    handoff: z.string(),
  }),
  'POST /api/public/:publicId/lead': z.looseObject({ ok: z.boolean(), leadId: z.string() }),
};
