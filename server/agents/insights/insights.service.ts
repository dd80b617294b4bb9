import type { AgentsContext } from '../context';
import * as repo from './insights.repository';

/** The dashboard's ten newest conversations, each with its last message. */
export const recentConversations = (ctx: AgentsContext, ws: string) => repo.recentConversations(ctx.db, ws, 10);

/** Per agent: assistant replies and conversations since the month began. */
export const usagePerAgent = (ctx: AgentsContext, ws: string, monthStart: number) => repo.usagePerAgent(ctx.db, ws, monthStart);
