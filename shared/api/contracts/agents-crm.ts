/** Response contracts of the agent platform's crm routes (docs/spec/agents-api.md). */
import { z } from 'zod';

export const AttributeRecord = z.looseObject({
  id: z.string(),
  agentId: z.string().nullable(),
  name: z.string(),
  type: z.string(),
  label: z.string(),
  description: z.string(),
  created_at: z.string(),
});

export const ContactRecord = z.looseObject({
  id: z.string(),
  agentId: z.string().nullable(),
  external_id: z.string(),
  email: z.string(),
  name: z.string(),
  phone: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const LeadRecord = z.looseObject({
  id: z.string(),
  agentId: z.string().nullable(),
  conversationId: z.string().nullable(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  company: z.string(),
  status: z.string(),
  score: z.number(),
  source: z.string(),
  notes: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The chat widget's look and behaviour (GET/PUT /api/widget). */
export const WidgetConfig = z.looseObject({
  title: z.string(),
  subtitle: z.string(),
  welcome_message: z.string(),
  placeholder: z.string(),
  primary_color: z.string(),
  accent_color: z.string(),
  text_color: z.string(),
  background_color: z.string(),
  position: z.string(),
  theme: z.string(),
  launcher_icon: z.string(),
  avatar_url: z.string(),
  bubble_text: z.string(),
  suggestions: z.array(z.string()),
  show_branding: z.boolean(),
  collect_leads: z.boolean(),
  lead_fields: z.array(z.string()),
  auto_open: z.boolean(),
  auto_open_delay: z.number(),
  language: z.string(),
  sound: z.boolean(),
});

/** A custom widget an agent can show in a conversation (/api/widgets). */
export const CustomWidget = z.looseObject({
  id: z.string(),
  agentId: z.string(),
  name: z.string(),
  code: z.string(),
  schema: z.looseObject({ type: z.string().optional() }),
  functions: z.array(z.unknown()),
  states: z.array(z.unknown()),
  mode: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** Success bodies of crm/contacts.routes.ts, by route. */
export const contactsResponses = {
  'DELETE /api/contacts/:cid': z.looseObject({ ok: z.boolean() }),
  'GET /api/contacts': z.looseObject({
    contacts: z.array(ContactRecord),
    total: z.number(),
    page: z.number(),
    limit: z.number(),
    pages: z.number(),
  }),
  'PATCH /api/contacts/:cid': z.looseObject({ contact: ContactRecord }),
  'POST /api/contacts': z.looseObject({ contact: ContactRecord }),
};

/** Success bodies of crm/leads.routes.ts, by route. */
export const leadsResponses = {
  'DELETE /api/leads/:lid': z.looseObject({ ok: z.boolean() }),
  'GET /api/leads': z.looseObject({
    leads: z.array(LeadRecord),
    total: z.number(),
    page: z.number(),
    limit: z.number(),
    pages: z.number(),
  }),
  'GET /api/leads/stats': z.looseObject({
    total: z.number(),
    byStatus: z.looseObject({ new: z.number(), contacted: z.number(), qualified: z.number(), won: z.number(), lost: z.number() }),
  }),
  'PATCH /api/leads/:lid': z.looseObject({ lead: LeadRecord }),
  'POST /api/leads': z.looseObject({ lead: LeadRecord }),
};

/** Success bodies of crm/widget.routes.ts, by route. */
export const widgetResponses = {
  'DELETE /api/attributes/:id': z.looseObject({ ok: z.boolean() }),
  'DELETE /api/widgets/:id': z.looseObject({ ok: z.boolean() }),
  'GET /api/attributes': z.looseObject({ attributes: z.array(AttributeRecord) }),
  'GET /api/widget': z.looseObject({ agentId: z.string(), publicId: z.string(), widget: WidgetConfig, embed: z.string() }),
  'GET /api/widgets': z.looseObject({ widgets: z.array(CustomWidget) }),
  'GET /api/widgets/:id': z.looseObject({ widget: CustomWidget }),
  'PATCH /api/widgets/:id': z.looseObject({ widget: CustomWidget }),
  'POST /api/attributes': z.looseObject({ attribute: AttributeRecord }),
  'POST /api/widgets': z.looseObject({ widget: CustomWidget }),
  'PUT /api/widget': z.looseObject({ agentId: z.string(), publicId: z.string(), widget: WidgetConfig, embed: z.string() }),
};
