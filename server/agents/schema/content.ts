import type { Generated } from 'kysely';

/** Agents, their knowledge, conversations and the CRM around them. Times are epoch milliseconds; flags are 0/1 integers; JSON documents are TEXT. */

export interface AgentsTable {
  id: string;
  workspace_id: string;
  name: string;
  model: Generated<string>;
  temperature: Generated<number>;
  system_prompt: Generated<string>;
  welcome_message: Generated<string>;
  visibility: Generated<string>;
  status: Generated<string>;
  emoji: Generated<string>;
  color: Generated<string>;
  avatar_url: Generated<string>;
  company_name: Generated<string>;
  website: Generated<string>;
  public_id: string;
  agent_email: string;
  widget: Generated<string>;
  last_trained_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface SourcesTable {
  id: string;
  workspace_id: string;
  agent_id: string;
  type: string;
  name: string;
  content: Generated<string>;
  url: Generated<string>;
  question: Generated<string>;
  answer: Generated<string>;
  mime: Generated<string>;
  size_kb: Generated<number>;
  status: Generated<string>;
  error: string | null;
  pages: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface PassagesTable {
  id: Generated<number>;
  workspace_id: string;
  agent_id: string;
  source_id: string;
  kind: string;
  question: Generated<string>;
  text: string;
}

export interface PassagesFtsTable {
  question: string | null;
  text: string | null;
}

export interface PassagesVocabTable {
  term: string | null;
  doc: string | null;
  cnt: string | null;
}

export interface ConversationsTable {
  id: string;
  workspace_id: string;
  agent_id: string;
  channel: Generated<string>;
  handoff: Generated<string>;
  feedback: string | null;
  visitor: Generated<string>;
  country: Generated<string>;
  contact_id: string | null;
  first_message: Generated<string>;
  message_count: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface MessagesTable {
  seq: Generated<number>;
  id: string;
  conversation_id: string;
  workspace_id: string;
  role: string;
  text: string;
  engine: string | null;
  feedback: string | null;
  corrected_source_id: string | null;
  created_at: number;
}

export interface ContactsTable {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  external_id: Generated<string>;
  email: Generated<string>;
  name: Generated<string>;
  phone: Generated<string>;
  created_at: number;
  updated_at: number;
  /** 'email:<address>' or 'phone:<number>' of a captured contact/lead (unique per workspace); NULL when typed in by hand. */
  capture_key: Generated<string | null>;
}

export interface LeadsTable {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  conversation_id: string | null;
  name: Generated<string>;
  email: Generated<string>;
  phone: Generated<string>;
  company: Generated<string>;
  status: Generated<string>;
  score: Generated<number>;
  source: Generated<string>;
  notes: Generated<string>;
  created_at: number;
  updated_at: number;
  /** 'email:<address>' or 'phone:<number>' of a captured contact/lead (unique per workspace); NULL when typed in by hand. */
  capture_key: Generated<string | null>;
}

export interface AttributesTable {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  name: string;
  type: Generated<string>;
  label: Generated<string>;
  description: Generated<string>;
  created_at: number;
}

export interface BuilderWidgetsTable {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  name: Generated<string>;
  code: Generated<string>;
  schema: Generated<string>;
  functions: Generated<string>;
  states: Generated<string>;
  mode: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface EventsTable {
  id: Generated<number>;
  workspace_id: string;
  agent_id: string | null;
  event: string;
  payload: string;
  delivered: Generated<number>;
  created_at: number;
}
