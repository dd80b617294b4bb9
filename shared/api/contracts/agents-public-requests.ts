/** Request contracts of the agent platform's public routes (docs/spec/agents-api.md): bodies, queries and path parameters. */
import { z } from 'zod';
import { MESSAGE_MAX, VOICES } from './agents-values';

export const publicParam = z.object({ publicId: z.string().max(64) });

export const lang = z.string().trim().regex(/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/, 'must be a language code such as ja or en-US');

/** Request schemas of public/media.routes.ts, by route. */
export const mediaRequests = {
  'POST /api/public/:publicId/tts': { body: z.object({
        text: z.string().trim().min(1, 'text is required').max(MESSAGE_MAX, `text must be at most ${MESSAGE_MAX} characters`),
        voice: z.enum(VOICES, `voice must be one of ${VOICES.join(', ')}`).default('alloy'),
      }) },
  'POST /api/public/:publicId/transcribe': { body: z.object({
        /** base64, or a data: URL carrying the type. */
        audio: z.string().min(1, 'audio is required').max(1_000_000),
        mime: z.string().trim().toLowerCase().optional(),
        lang: lang.optional(),
      }) },
  'POST /api/public/:publicId/translate': { body: z.object({
        text: z.string().trim().min(1, 'text is required').max(MESSAGE_MAX, `text must be at most ${MESSAGE_MAX} characters`),
        target: lang,
        source: lang.optional(),
      }) },
  'POST /api/public/:publicId/avatar-session': { body: z.object({ conversationId: z.string().max(64).optional() }) },
  'GET /api/public/:publicId/avatar-video': { query: z.object({ sessionId: z.string().min(1, 'sessionId is required').max(64) }) },
};

/** Request schemas of public/public.routes.ts, by route. */
export const publicRequests = {
  'POST /api/public/:publicId/chat': { body: z.object({
        message: z.string().trim().min(1, 'message is required').max(MESSAGE_MAX, `message must be at most ${MESSAGE_MAX} characters`),
        conversationId: z.string().max(64).optional(),
        visitorId: z.string().max(100).optional(),
        stream: z.union([z.boolean(), z.string()]).optional(),
      }) },
  'POST /api/public/:publicId/lead': { body: z.object({
        name: z.string().trim().max(200).optional(),
        email: z.union([z.literal(''), z.string().trim().toLowerCase().max(254).pipe(z.email('enter a valid email'))]).optional(),
        phone: z.string().trim().max(40).optional(),
        note: z.string().max(4_000).optional(),
        conversationId: z.string().max(64).optional(),
      }) },
  'GET /api/public/:publicId/poll': { query: z.object({ conversationId: z.string().min(1, 'conversationId is required').max(64), after: z.string().max(64).optional() }) },
  'GET /api/content/:page': { params: z.object({ page: z.string().max(40) }) },
};
