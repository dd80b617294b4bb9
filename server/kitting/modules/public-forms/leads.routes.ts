import { z } from 'zod';
import { text } from '../../../../shared/fields';
import { crudRoutes } from '../../../core/http/crud';
import { defineRoute } from '../../../core/http/define-route';
import { badRequest } from '../../../core/errors';
import { checkEmail, formLimit, LEADS, newestFirst, putLead, str } from './forms.service';

const leadCrud = crudRoutes({
  scope: 'sales',
  coll: LEADS,
  listPath: '/api/leads',
  listKey: 'leads',
  itemPath: '/api/lead',
  itemKey: 'lead',
  notFoundError: 'lead not found',
  fields: { status: text(30), notes: text(3000), name: text(120), company: text(120), email: text(160), phone: text(40) },
  newId: async () => '',
  sort: newestFirst,
  deleteResponse: () => ({}),
}).filter((r) => !(r.method === 'post' && r.path === '/api/lead'));

export const leadRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/lead',
    auth: 'public',
    body: z.object({ name: str(120), email: str(160), company: str(120), phone: str(40), message: str(1500), source: str(40), tenant: str(120) }),
    handler: async ({ app, ws, req, body }) => {
      formLimit(app, req);
      if (!body.name && !body.email && !body.company) throw badRequest('name, email or company required', { message: '氏名・メール・会社名のいずれかを入力してください' });
      checkEmail(body.email);
      const lead = await app.store.transact(ws, (tx) => putLead(tx, body));
      return { id: lead.id };
    },
  }),
  ...leadCrud,
];
