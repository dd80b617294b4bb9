/** Response shapes of the conversational agent platform (docs/spec/agents-api.md). */
import { z } from 'zod';
import { Ok } from './agents-common';

export { AgentsErrorBody, Ok } from './agents-common';

/** An agent as the API shows it. */
export const Agent = z.looseObject({ id: z.string(), name: z.string(), public_id: z.string() });
/** A knowledge source of an agent. */
export const Source = z.looseObject({ id: z.string(), agentId: z.string(), type: z.string() });

export const AgentList = z.looseObject({ agents: z.array(z.looseObject({ id: z.string(), name: z.string() })) });
export const AgentOne = z.looseObject({ agent: Agent });
export const DefaultPrompt = z.looseObject({ prompt: z.string() });
export const PromptLibrary = z.looseObject({ genres: z.array(z.unknown()) });
export const CompanyInfo = z.looseObject({ name: z.string(), bio: z.string(), logo: z.string().nullable(), url: z.string() });
export const Trained = z.looseObject({ ok: z.literal(true), sources: z.number(), passages: z.number(), last_trained_at: z.string() });
export const SourceList = z.looseObject({ sources: z.array(Source) });
export const SourceOne = z.looseObject({ source: Source });
/** POST /api/agents/:id/test: the playground's answer and the engine that wrote it. */
export const AgentTestReply = z.looseObject({ reply: z.string(), engine: z.string() });
