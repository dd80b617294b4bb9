import { defineRoute } from '../../http/define-route';
import { issueNumber } from '../../store/series';
import type { Doc } from '../../store/types';
import { integrationResponses } from '../../../../shared/api/contracts/backoffice';
import { integrationRequests } from '../../../../shared/api/contracts/backoffice-requests';
import { INTEGRATIONS, logTime, RULES_ID, rulesOf, storedExtraRules, storedRules, SYNC_LOG, SYNC_LOG_MAX, SYNC_LOG_NUMBERS } from './integrations.service';

const { rules: rulesBody, log: logBody } = integrationRequests;
const bySeqDesc = (a: Doc, b: Doc) => Number(b.seq) - Number(a.seq);

export const integrationRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/integrations/rules',
    response: integrationResponses.rules,
    auth: 'settings:view',
    handler: async ({ app, ws }) => rulesOf(await app.store.get(ws, INTEGRATIONS, RULES_ID)),
  }),
  defineRoute({
    method: 'put',
    path: '/api/integrations/rules',
    response: integrationResponses.saveRules,
    auth: 'settings:edit',
    body: rulesBody,
    handler: async ({ app, ws, body }) =>
      app.store.transact(ws, async (tx) => {
        const current = rulesOf(await tx.get(INTEGRATIONS, RULES_ID));
        const rules = body.rules ? storedRules(body.rules) : current.rules;
        const extraRules = body.extraRules ? storedExtraRules(body.extraRules) : current.extraRules;
        await tx.put(INTEGRATIONS, RULES_ID, { id: RULES_ID, rules, extraRules });
        return { rules, extraRules };
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/integrations/log',
    response: integrationResponses.log,
    auth: 'settings:view',
    handler: async ({ app, ws }) => {
      const log = await app.store.list(ws, SYNC_LOG);
      return { log: log.sort(bySeqDesc).slice(0, SYNC_LOG_MAX) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/integrations/log',
    response: integrationResponses.addLog,
    auth: 'settings:edit',
    body: logBody,
    handler: async ({ app, ws, body }) => {
      const time = body.time ? logTime(body.time) : new Date().toISOString();
      return app.store.transact(ws, async (tx) => {
        const { n: seq, value: id } = await issueNumber(tx, SYNC_LOG_NUMBERS);
        const entry = { id, seq, service: body.service || '—', kind: body.kind || 'sync', result: body.result || '成功', time };
        await tx.create(SYNC_LOG, entry.id, entry);
        // A capped list is trimmed locally, never synced as deletions (docs/DESIGN.md §4).
        await tx.trimLocal(SYNC_LOG, SYNC_LOG_MAX);
        const all = (await tx.list(SYNC_LOG)).sort(bySeqDesc);
        return { entry, log: all.slice(0, SYNC_LOG_MAX) };
      });
    },
  }),
];
