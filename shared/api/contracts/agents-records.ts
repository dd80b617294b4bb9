/**
 * Records the conversational agent platform answers with (docs/spec/agents-api.md), shared by the
 * response contracts of its areas (agents-<area>.ts). Each is the shape the routes present: fields the
 * spec names, with the types the services write; `looseObject` lets a newer server add fields.
 */
import { z } from 'zod';

/** Plan, credits and allowance of a workspace (GET /api/auth/me, the admin's subscription change). */
export const BillingSummary = z.looseObject({
  tier: z.string(),
  credits: z.number(),
  creditCost: z.number(),
  status: z.string(),
  allowance: z.number(),
});

export const AgentRecord = z.looseObject({
  id: z.string(),
  name: z.string(),
  model: z.string(),
  temperature: z.number(),
  system_prompt: z.string(),
  welcome_message: z.string(),
  visibility: z.string(),
  status: z.string(),
  emoji: z.string(),
  color: z.string(),
  avatar_url: z.string(),
  companyName: z.string(),
  website: z.string(),
  public_id: z.string(),
  agent_email: z.string(),
  last_trained_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const MessageRecord = z.looseObject({
  id: z.string(),
  role: z.string(),
  text: z.string(),
  engine: z.string().nullable(),
  feedback: z.string().nullable(),
  corrected_source_id: z.string().nullable(),
  created_at: z.string(),
});

export const ConversationRecord = z.looseObject({
  id: z.string(),
  agentId: z.string(),
  channel: z.string(),
  handoff: z.string(),
  feedback: z.string().nullable(),
  country: z.string().nullable(),
  contactId: z.unknown(),
  first_message: z.string(),
  last_message: z.string().nullable(),
  message_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  messages: z.array(MessageRecord).optional(),
});

export const AffiliateRecord = z.looseObject({
  id: z.string(),
  user: z.looseObject({ id: z.string(), email: z.string() }).optional(),
  workspaceId: z.string().optional(),
  displayName: z.string(),
  promoCode: z.string().nullable(),
  kycStatus: z.string(),
  status: z.string(),
  payoutMethod: z.looseObject({ method: z.string(), dest: z.string(), network: z.string().nullable() }).nullable(),
  earnings: z.number().optional(),
  paid: z.number().optional(),
  requested: z.number().optional(),
  available: z.number().optional(),
  created_at: z.string(),
  socials: z.union([z.array(z.string()), z.looseObject({ x: z.string().optional() })]).optional(),
  notify: z.boolean().optional(),
});
export const PayoutRecord = z.looseObject({
  id: z.string(),
  amount: z.number(),
  currency: z.string(),
  method: z.looseObject({ method: z.string(), dest: z.string(), network: z.string().nullable() }),
  status: z.string(),
  note: z.string(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  affiliate: z.looseObject({ id: z.string(), email: z.string() }).optional(),
});
export const SourceRecord = z.looseObject({
  id: z.string(),
  agentId: z.string(),
  type: z.string(),
  name: z.string(),
  content: z.string(),
  chars: z.number(),
  url: z.string().nullable(),
  question: z.string().nullable(),
  answer: z.string().nullable(),
  mime: z.string().nullable(),
  sizeKb: z.number(),
  status: z.string(),
  error: z.string().nullable(),
  pages: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const TicketRecord = z.looseObject({
  id: z.string(),
  subject: z.string(),
  category: z.string(),
  priority: z.string(),
  status: z.string(),
  workspaceId: z.string(),
  userId: z.string(),
  email: z.string().optional(),
  messageCount: z.number().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const WorkspaceRecord = z.looseObject({
  id: z.string(),
  name: z.string(),
  tier: z.string(),
  credits: z.number().optional(),
  status: z.string().optional(),
  role: z.string().optional(),
  owner: z.looseObject({ id: z.string(), email: z.string(), name: z.string().optional() }).optional(),
  billing: z
    .looseObject({ tier: z.string(), credits: z.number(), creditCost: z.number(), status: z.string(), allowance: z.number() })
    .optional(),
  members: z.number().optional(),
  agents: z.number().optional(),
  created_at: z.string().optional(),
  memberList: z.array(z.looseObject({ id: z.string(), email: z.string(), name: z.string(), role: z.string() })).optional(),
  agentList: z.array(AgentRecord).optional(),
  owner_id: z.string().optional(),
  paused: z.boolean().optional(),
  seats: z.looseObject({ used: z.number(), limit: z.number() }).optional(),
  joined_at: z.string().optional(),
  active: z.boolean().optional(),
});
export const UserRecord = z.looseObject({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  admin: z.boolean(),
  platformRole: z.string().optional(),
  suspended: z.boolean().optional(),
  twoFactorEnabled: z.boolean(),
  /** The account proved it owns its address (verification mail, or an invitation link it used). */
  emailVerified: z.boolean().optional(),
  created_at: z.string(),
  workspaces: z.array(WorkspaceRecord).optional(),
  theme: z.string().optional(),
});
