import { z } from 'zod';
import { clip } from '../../../../shared/fields';
import { defineRoute } from '../../../core/http/define-route';
import { badRequest } from '../../../core/errors';
import { declareCap } from '../../../core/store/caps';
import { declareSeries, followSeq, issueNumber, padNumber } from '../../../core/store/series';
import type { Doc } from '../../../core/store/types';

export const INTEGRATIONS = 'integrations';
export const RULES_ID = 'rules';
export const SYNC_LOG = 'syncLog';
/** Sync log entries LOG-0001, … (seq repeats the number). */
export const SYNC_LOG_NUMBERS = declareSeries({
  name: 'synclog',
  period: 'none',
  coll: SYNC_LOG,
  field: 'id',
  keyed: true,
  format: (n) => `LOG-${padNumber(n, 4)}`,
  pattern: /^LOG-(?<n>\d{4,})$/,
  reserve: 200,
  follow: followSeq,
});
export const SYNC_LOG_SERIES = SYNC_LOG_NUMBERS.name;
/** The sync log keeps its 60 newest entries. */
export const SYNC_LOG_MAX = 60;
// every replica (central included) trims entries that arrive from elsewhere to the same cap
declareCap(SYNC_LOG, SYNC_LOG_MAX);
const EXTRA_RULES_MAX = 100;

/** Built-in automation toggles (semantics not part of the contract; they are switches). */
export const DEFAULT_RULES: Record<string, boolean> = { 'r-ship': true, 'r-inv': true, 'r-lost': true, 'r-ade': false, 'r-sla': true, 'r-pay': false };

const s = (n: number) =>
  z
    .union([z.string(), z.number()], { error: 'must be a string' })
    .nullish()
    .transform((v) => (v === null || v === undefined ? '' : clip(String(v), n)));

const flag = z.union([z.boolean(), z.literal(0), z.literal(1), z.literal('true'), z.literal('false')], { error: 'must be true or false' }).transform((v) => v === true || v === 1 || v === 'true');

const rulesBody = z.object(
  {
    rules: z.record(z.string(), flag, { error: 'rules must be an object of true/false' }).nullish(),
    extraRules: z
      .array(z.object({ id: s(40), trig: s(200), act: s(200), ic: s(20), on: flag.nullish() }, { error: 'extraRules must be objects' }), { error: 'extraRules must be an array' })
      .max(EXTRA_RULES_MAX, `extraRules: at most ${EXTRA_RULES_MAX}`)
      .nullish(),
  },
  { error: 'body must be a JSON object' },
);

const logBody = z.object({ service: s(60), kind: s(60), result: s(60), time: s(40) }, { error: 'body must be a JSON object' });

function rulesOf(doc: Doc | null) {
  return {
    rules: (doc?.rules as Record<string, boolean> | undefined) ?? { ...DEFAULT_RULES },
    extraRules: (doc?.extraRules as unknown[] | undefined) ?? [],
  };
}

const bySeqDesc = (a: Doc, b: Doc) => Number(b.seq) - Number(a.seq);

export const integrationRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/integrations/rules',
    auth: 'settings:view',
    handler: async ({ app, ws }) => rulesOf(await app.store.get(ws, INTEGRATIONS, RULES_ID)),
  }),
  defineRoute({
    method: 'put',
    path: '/api/integrations/rules',
    auth: 'settings:edit',
    body: rulesBody,
    handler: async ({ app, ws, body }) =>
      app.store.transact(ws, async (tx) => {
        const current = rulesOf(await tx.get(INTEGRATIONS, RULES_ID));
        const rules = body.rules ? Object.fromEntries(Object.entries(body.rules).map(([k, v]) => [clip(k, 40), v])) : current.rules;
        const extraRules = body.extraRules
          ? body.extraRules.map((r, i) => ({ id: r.id || `x-${i + 1}`, trig: r.trig, act: r.act, ic: r.ic, on: r.on ?? false }))
          : current.extraRules;
        await tx.put(INTEGRATIONS, RULES_ID, { id: RULES_ID, rules, extraRules });
        return { rules, extraRules };
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/integrations/log',
    auth: 'settings:view',
    handler: async ({ app, ws }) => {
      const log = await app.store.list(ws, SYNC_LOG);
      return { log: log.sort(bySeqDesc).slice(0, SYNC_LOG_MAX) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/integrations/log',
    auth: 'settings:edit',
    body: logBody,
    handler: async ({ app, ws, body }) => {
      let time = new Date().toISOString();
      if (body.time) {
        const t = new Date(body.time);
        if (Number.isNaN(t.getTime())) throw badRequest('invalid time', { message: '日時(time)はISO 8601形式で指定してください' });
        time = t.toISOString();
      }
      return app.store.transact(ws, async (tx) => {
        const { n: seq, value: id } = await issueNumber(tx, SYNC_LOG_NUMBERS);
        const entry = { id, seq, service: body.service || '—', kind: body.kind || 'sync', result: body.result || '成功', time };
        await tx.put(SYNC_LOG, entry.id, entry);
        // A capped list is trimmed locally, never synced as deletions (DESIGN §4).
        await tx.trimLocal(SYNC_LOG, SYNC_LOG_MAX);
        const all = (await tx.list(SYNC_LOG)).sort(bySeqDesc);
        return { entry, log: all.slice(0, SYNC_LOG_MAX) };
      });
    },
  }),
];
