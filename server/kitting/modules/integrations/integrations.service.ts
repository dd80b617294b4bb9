import { z } from 'zod';
import { clip, json } from '../../../../shared/fields';
import { extraRuleList, integrationRuleMap, syncLogFields } from '../../../../shared/api/contracts/backoffice-requests';
import { collectionSchema, ruleFields } from '../../http/collection-schema';
import { badRequest } from '../../../core/errors';
import { declareCap } from '../../store/caps';
import { declareSeries, followSeq, padNumber } from '../../store/series';
import type { Doc } from '../../store/types';

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

/** Built-in automation toggles (semantics not part of the contract; they are switches). */
const DEFAULT_RULES: Record<string, boolean> = { 'r-ship': true, 'r-inv': true, 'r-lost': true, 'r-ade': false, 'r-sla': true, 'r-pay': false };

/** The rule switches as the rules route stores them: ids clipped to 40, true/false. */
export const storedRules = (rules: z.infer<typeof integrationRuleMap>) => Object.fromEntries(Object.entries(rules).map(([k, v]) => [clip(k, 40), v]));
/** Extra rules as the rules route stores them: an id (x-<n> when blank), texts clipped, on false when missing. */
export const storedExtraRules = (list: z.infer<typeof extraRuleList>) => list.map((r, i) => ({ id: r.id || `x-${i + 1}`, trig: r.trig, act: r.act, ic: r.ic, on: r.on ?? false }));

/** A log entry's time as the log route stores it: ISO 8601, normalised (else 400). */
export function logTime(raw: string): string {
  const t = new Date(raw);
  if (Number.isNaN(t.getTime())) throw badRequest('invalid time', { message: '日時(time)はISO 8601形式で指定してください' });
  return t.toISOString();
}

/** The automation rules record: pushed switches and extra rules pass the rules route's readers. */
export const integrationsSchema = collectionSchema(
  INTEGRATIONS,
  ruleFields({ rules: (v) => storedRules(integrationRuleMap.parse(v)), extraRules: (v) => storedExtraRules(extraRuleList.parse(v)) }),
);

/** A log text as the log route stores it: within its limit and not blank (the route puts its default in place of a blank). */
const filledText = (rule: (typeof syncLogFields)['service']) => (v: unknown) => {
  const t = rule.parse(v);
  if (!t) throw badRequest('invalid request', { message: 'must not be blank' });
  return t;
};
/** A pushed sync log entry is one the log route would store: texts within their limits, no blanks, an ISO time; seq numbers it. */
export const syncLogSchema = collectionSchema(
  SYNC_LOG,
  ruleFields({ service: filledText(syncLogFields.service), kind: filledText(syncLogFields.kind), result: filledText(syncLogFields.result), time: (v) => logTime(syncLogFields.time.parse(v)) }),
  { seq: json(z.number().int().positive()) },
);

export function rulesOf(doc: Doc | null) {
  return {
    rules: (doc?.rules as Record<string, boolean> | undefined) ?? { ...DEFAULT_RULES },
    extraRules: (doc?.extraRules as unknown[] | undefined) ?? [],
  };
}
