import { z } from 'zod';
import { clip, json } from '../../../../shared/fields';
import { defineRoute } from '../../../core/http/define-route';
import { collectionSchema, ruleFields } from '../../../core/http/collection-schema';
import { badRequest } from '../../../core/errors';
import { declareCap } from '../../../core/store/caps';
import { declareSeries, followSeq, issueNumber, padNumber } from '../../../core/store/series';
import type { Doc } from '../../../core/store/types';
import { integrationResponses } from '../../../../shared/api/contracts/backoffice';

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

const ruleMap = z.record(z.string(), flag, { error: 'rules must be an object of true/false' });
const extraRuleList = z
  .array(z.object({ id: s(40), trig: s(200), act: s(200), ic: s(20), on: flag.nullish() }, { error: 'extraRules must be objects' }), { error: 'extraRules must be an array' })
  .max(EXTRA_RULES_MAX, `extraRules: at most ${EXTRA_RULES_MAX}`);
const rulesBody = z.object({ rules: ruleMap.nullish(), extraRules: extraRuleList.nullish() }, { error: 'body must be a JSON object' });

/** The rule switches as the rules route stores them: ids clipped to 40, true/false. */
const storedRules = (rules: z.infer<typeof ruleMap>) => Object.fromEntries(Object.entries(rules).map(([k, v]) => [clip(k, 40), v]));
/** Extra rules as the rules route stores them: an id (x-<n> when blank), texts clipped, on false when missing. */
const storedExtraRules = (list: z.infer<typeof extraRuleList>) => list.map((r, i) => ({ id: r.id || `x-${i + 1}`, trig: r.trig, act: r.act, ic: r.ic, on: r.on ?? false }));

const logFields = { service: s(60), kind: s(60), result: s(60), time: s(40) };
const logBody = z.object(logFields, { error: 'body must be a JSON object' });

/** A log entry's time as the log route stores it: ISO 8601, normalised (else 400). */
function logTime(raw: string): string {
  const t = new Date(raw);
  if (Number.isNaN(t.getTime())) throw badRequest('invalid time', { message: '日時(time)はISO 8601形式で指定してください' });
  return t.toISOString();
}

/** The automation rules record: pushed switches and extra rules pass the rules route's readers. */
export const integrationsSchema = collectionSchema(
  INTEGRATIONS,
  ruleFields({ rules: (v) => storedRules(ruleMap.parse(v)), extraRules: (v) => storedExtraRules(extraRuleList.parse(v)) }),
);

/** A log text as the log route stores it: within its limit and not blank (the route puts its default in place of a blank). */
const filledText = (rule: (typeof logFields)['service']) => (v: unknown) => {
  const t = rule.parse(v);
  if (!t) throw badRequest('invalid request', { message: 'must not be blank' });
  return t;
};
/** A pushed sync log entry is one the log route would store: texts within their limits, no blanks, an ISO time; seq numbers it. */
export const syncLogSchema = collectionSchema(
  SYNC_LOG,
  ruleFields({ service: filledText(logFields.service), kind: filledText(logFields.kind), result: filledText(logFields.result), time: (v) => logTime(logFields.time.parse(v)) }),
  { seq: json(z.number().int().positive()) },
);

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
        await tx.put(SYNC_LOG, entry.id, entry);
        // A capped list is trimmed locally, never synced as deletions (docs/DESIGN.md §4).
        await tx.trimLocal(SYNC_LOG, SYNC_LOG_MAX);
        const all = (await tx.list(SYNC_LOG)).sort(bySeqDesc);
        return { entry, log: all.slice(0, SYNC_LOG_MAX) };
      });
    },
  }),
];
