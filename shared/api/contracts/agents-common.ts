/** Shapes every area of the conversational agent platform shares (docs/spec/agents-api.md). */
import { z } from 'zod';

/** Failure body of the platform: `{ error }` with an HTTP status. */
export const AgentsErrorBody = z.looseObject({ error: z.string() });
export type AgentsErrorBody = z.infer<typeof AgentsErrorBody>;

/** `{ ok: true }`: the answer of a write that returns nothing else. */
export const Ok = z.looseObject({ ok: z.literal(true) });

/** `:id` in a path (agent, source, webhook, campaign… ids are at most 64 characters). */
export const IdParam = z.object({ id: z.string().max(64) });
/** `:cid` in a path: a conversation or contact id. */
export const CidParam = z.object({ cid: z.string().max(64) });
/** `:publicId` in a path: an agent's public id. */
export const PublicIdParam = z.object({ publicId: z.string().max(64) });
/** `?agent=` of the routes that work on one agent of the workspace (the first agent when left out). */
export const AgentQuery = z.object({ agent: z.string().max(64).optional() });
