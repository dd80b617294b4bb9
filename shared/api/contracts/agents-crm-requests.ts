/** Request contracts of the agent platform's crm routes (docs/spec/agents-api.md): bodies, queries and path parameters. */
import { z } from 'zod';
import { LEAD_STATUSES, widgetSchema } from './agents-values';

export const email = z.union([z.literal(''), z.string().trim().toLowerCase().max(254).pipe(z.email('enter a valid email'))]);

export const contactsFields = { external_id: z.string().trim().max(200).optional(), email: email.optional(), name: z.string().trim().max(200).optional(), phone: z.string().trim().max(40).optional() };

export const listQuery = z.object({
  agent: z.string().max(64).optional(),
  search: z.string().max(200).optional(),
  sort: z.string().max(40).optional(),
  dir: z.string().max(4).optional(),
  limit: z.coerce.number().int().catch(25).optional(),
  page: z.coerce.number().int().catch(1).optional(),
});

export const leadsFields = {
  name: z.string().trim().max(200).optional(),
  email: email.optional(),
  phone: z.string().trim().max(40).optional(),
  company: z.string().trim().max(200).optional(),
  status: z.enum(LEAD_STATUSES, `status must be one of ${LEAD_STATUSES.join(', ')}`).optional(),
  score: z.number().int().min(0).max(100).optional(),
  source: z.string().trim().max(60).optional(),
  notes: z.string().max(10_000).optional(),
};

export const widgetBody = {
  name: z.string().trim().max(120).optional(),
  code: z.string().max(200_000).optional(),
  schema: z.record(z.string(), z.unknown()).optional(),
  functions: z.array(z.unknown()).max(200).optional(),
  states: z.array(z.unknown()).max(200).optional(),
  mode: z.enum(['inline', 'modal', 'fullscreen', 'card']).optional(),
};

/** Request schemas of crm/contacts.routes.ts, by route. */
export const contactsRequests = {
  'GET /api/contacts/export': { query: z.object({ agent: z.string().max(64).optional() }) },
  'POST /api/contacts': { body: z.object({ ...contactsFields, agentId: z.string().max(64).optional() }) },
  'PATCH /api/contacts/:cid': { params: z.object({ cid: z.string().max(64) }), body: z.object(contactsFields) },
  'DELETE /api/contacts/:cid': { params: z.object({ cid: z.string().max(64) }) },
};

/** Request schemas of crm/leads.routes.ts, by route. */
export const leadsRequests = {
  'GET /api/leads': { query: z.object({
        agent: z.string().max(64).optional(),
        search: z.string().max(200).optional(),
        status: z.string().max(20).optional(),
        sort: z.string().max(40).optional(),
        dir: z.string().max(4).optional(),
        limit: z.coerce.number().int().catch(25).optional(),
        page: z.coerce.number().int().catch(1).optional(),
      }) },
  'GET /api/leads/stats': { query: z.object({ agent: z.string().max(64).optional() }) },
  'GET /api/leads/export.csv': { query: z.object({ agent: z.string().max(64).optional() }) },
  'POST /api/leads': { body: z.object({ ...leadsFields, agentId: z.string().max(64).optional() }) },
  'PATCH /api/leads/:lid': { params: z.object({ lid: z.string().max(64) }), body: z.object(leadsFields) },
  'DELETE /api/leads/:lid': { params: z.object({ lid: z.string().max(64) }) },
};

/** Request schemas of crm/widget.routes.ts, by route. */
export const widgetRequests = {
  'POST /api/attributes': { body: z.object({
        name: z.string().trim().min(1, 'name is required').max(60).regex(/^[\p{L}\p{N}_.-]+$/u, 'name may hold letters, digits, _ . -'),
        type: z.enum(['text', 'number', 'boolean', 'date', 'list']).default('text'),
        label: z.string().trim().max(120).optional(),
        description: z.string().max(1_000).optional(),
        agentId: z.string().max(64).optional(),
      }) },
  'DELETE /api/attributes/:id': { params: z.object({ id: z.string().max(64) }) },
  'PUT /api/widget': { body: widgetSchema.extend({ agentId: z.string().max(64).optional() }) },
  'GET /api/widgets/:id': { params: z.object({ id: z.string().max(64) }) },
  'POST /api/widgets': { body: z.object({ ...widgetBody, agentId: z.string().max(64).optional() }) },
  'PATCH /api/widgets/:id': { params: z.object({ id: z.string().max(64) }), body: z.object(widgetBody) },
  'DELETE /api/widgets/:id': { params: z.object({ id: z.string().max(64) }) },
};
