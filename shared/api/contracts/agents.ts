/** Response shapes of the conversational agent platform (docs/spec/agents-api.md). */
import { z } from 'zod';

/** Failure body of the platform: `{ error }` with an HTTP status. */
export const AgentsErrorBody = z.looseObject({ error: z.string() });
export type AgentsErrorBody = z.infer<typeof AgentsErrorBody>;
