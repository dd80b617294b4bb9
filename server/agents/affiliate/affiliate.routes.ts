import type { AgentsContext } from '../context';
import type { AgentRoute } from '../http';

export function affiliateRoutes(_ctx: AgentsContext): AgentRoute[] {
  return [];
}
