import { crudRoutes } from '../../http/crud';
import { defineRoute } from '../../http/define-route';
import { badRequest } from '../../../core/errors';
import { checkEmail, formLimit, LEADS, newestFirst, putLead } from './forms.service';
import { formRequests, formResponses, leadEditFields } from '../../../../shared/api/contracts/public';

const leadCrud = crudRoutes({
  scope: 'sales',
  coll: LEADS,
  listPath: '/api/leads',
  listKey: 'leads',
  itemPath: '/api/lead',
  itemKey: 'lead',
  responses: formResponses.leads,
  notFoundError: 'lead not found',
  fields: leadEditFields,
  requests: formRequests.leadEdit,
  newId: async () => '',
  sort: newestFirst,
  deleteResponse: () => ({}),
}).filter((r) => !(r.method === 'post' && r.path === '/api/lead'));

export const leadRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/lead',
    response: formResponses.lead,
    auth: 'public',
    body: formRequests.lead,
    handler: async ({ app, ws, req, body }) => {
      await formLimit(app, req);
      if (!body.name && !body.email && !body.company) throw badRequest('name, email or company required', { message: '氏名・メール・会社名のいずれかを入力してください' });
      checkEmail(body.email);
      const lead = await app.store.transact(ws, (tx) => putLead(tx, body));
      return { id: lead.id };
    },
  }),
  ...leadCrud,
];
