import { badRequest } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { getAgent } from '../agents/agents.service';
import { csvReply, CSV_MAX_ROWS } from '../csv';
import { iso, pageQuery } from './table';
import { CONTACT_SORTS, createContact, exportContacts, pageContacts, removeContact, updateContact } from './contacts.service';
import { contactsResponses } from '../../../shared/api/contracts/agents-crm';
import { contactsRequests, listQuery, email } from '../../../shared/api/contracts/agents-crm-requests';

type ContactRow = Awaited<ReturnType<typeof createContact>>;
const present = (r: ContactRow) => ({ id: r.id, agentId: r.agent_id, external_id: r.external_id, email: r.email, name: r.name, phone: r.phone, created_at: iso(r.created_at), updated_at: iso(r.updated_at) });

export function contactRoutes(ctx: AgentsContext): AgentRoute[] {
  const agentOf = async (ws: string, id?: string) => (id ? (await getAgent(ctx, ws, id)).id : undefined);
  return [
    route({
      method: 'get',
      path: '/api/contacts', response: contactsResponses['GET /api/contacts'],
      auth: 'bearer',
      query: listQuery,
      handler: async ({ caller, query }) => {
        const p = await pageContacts(ctx, caller.ws, { agentId: await agentOf(caller.ws, query.agent), search: query.search, ...pageQuery(query, CONTACT_SORTS, 'created_at') });
        return { contacts: p.rows.map(present), total: p.total, page: p.page, limit: p.limit, pages: p.pages };
      },
    }),
    route({
      method: 'get',
      path: '/api/contacts/export', produces: 'text/csv',
      auth: 'bearer',
      query: contactsRequests['GET /api/contacts/export'].query,
      handler: async ({ caller, query }) => {
        const rows = await exportContacts(ctx, caller.ws, await agentOf(caller.ws, query.agent), CSV_MAX_ROWS);
        return csvReply('contacts.csv', ['id', 'external_id', 'email', 'name', 'phone', 'created_at'], rows.map((r) => [r.id, r.external_id, r.email, r.name, r.phone, iso(r.created_at)]));
      },
    }),
    route({
      method: 'post',
      path: '/api/contacts', response: contactsResponses['POST /api/contacts'],
      auth: 'editor',
      body: contactsRequests['POST /api/contacts'].body,
      handler: async ({ caller, body }) => {
        const { agentId, ...input } = body;
        if (!input.email && !input.name && !input.phone && !input.external_id) throw badRequest('a contact needs an email, name, phone or external_id');
        return { contact: present(await createContact(ctx, caller.ws, (await agentOf(caller.ws, agentId)) ?? null, input)) };
      },
    }),
    route({
      method: 'patch',
      path: '/api/contacts/:cid', response: contactsResponses['PATCH /api/contacts/:cid'],
      auth: 'editor',
      params: contactsRequests['PATCH /api/contacts/:cid'].params,
      body: contactsRequests['PATCH /api/contacts/:cid'].body,
      handler: async ({ caller, params, body }) => ({ contact: present(await updateContact(ctx, caller.ws, params.cid, body)) }),
    }),
    route({
      method: 'delete',
      path: '/api/contacts/:cid', response: contactsResponses['DELETE /api/contacts/:cid'],
      auth: 'editor',
      params: contactsRequests['DELETE /api/contacts/:cid'].params,
      handler: async ({ caller, params }) => {
        await removeContact(ctx, caller.ws, params.cid);
        return { ok: true };
      },
    }),
  ];
}
