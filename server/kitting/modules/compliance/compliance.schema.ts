import { z } from 'zod';
import { clip, json } from '../../../../shared/fields';
import { auditFields, custodyFields, custodyStepSchema } from '../../../../shared/api/contracts/backoffice-requests';
import { collectionSchema, derivedText, ruleField, ruleFields, stamp } from '../../http/collection-schema';
import { badRequest } from '../../../core/errors';
import { AUDIT_LOG, CAPA, COMPLIANCE, CONTROL_KEYS, CONTROLS_MAX, CUSTODY, CUSTODY_MAX_STEPS, isDate, isStamp } from './compliance.service';

/**
 * The rules the compliance routes read their bodies with (CAPA state, control sets; the audit row and
 * custody field maps are in the shared contract), and the schemas of the collections they write: a pushed
 * record passes the same rules.
 */

const filled = (v: string) => v !== '';

/** A CAPA item's state: a non-empty text after trimming, clipped to 20 (else 400). */
export function readCapaState(v: unknown): string {
  const state = typeof v === 'string' ? clip(v.trim(), 20) : '';
  if (!state) throw badRequest('state required', { message: '状態(state)を入力してください' });
  return state;
}

/** A control set: true/false values only (an entry that is not a boolean is refused, never read as false), first 100 kept. */
export function readControls(v: unknown): boolean[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'boolean')) {
    throw badRequest('controls required', { message: 'controls を真偽値(true/false)の配列で指定してください' });
  }
  return (v as boolean[]).slice(0, CONTROLS_MAX);
}

export type CustodyStep = z.infer<typeof custodyStepSchema>;

export interface Issue {
  code: string;
  message: string;
  [k: string]: unknown;
}

const CONFIRMED = '完了';
const isUnsigned = (sign: string) => sign === '' || sign === '—' || sign === '(未署名)' || sign === '（未署名）';
/** Step time: 'YYYY-MM-DD HH:mm' or 'YYYY-MM-DDTHH:mm', read as a sortable 'YYYY-MM-DD HH:mm'. */
const stepTime = (dt: string) => (isStamp(dt.replace('T', ' ').slice(0, 16)) && dt.length <= 19 ? dt.replace('T', ' ').slice(0, 16) : null);

/** What keeps custody steps from being recorded: invalid entries, and steps not yet complete (confirmed, signed, dated, with a person). */
export function stepIssues(steps: CustodyStep[]): { invalid: Issue[]; incomplete: Issue[] } {
  const invalid: Issue[] = [];
  const incomplete: Issue[] = [];
  if (steps.length === 0) incomplete.push({ code: 'steps_required', message: '工程がありません', step: null, field: 'steps' });
  let last: string | null = null;
  steps.forEach((s, i) => {
    const n = i + 1;
    const confirmed = s.state === CONFIRMED;
    const unsigned = isUnsigned(s.sign);
    if (!s.label) invalid.push({ code: 'label_required', message: `工程${n}: 工程名がありません`, step: i, field: 'label' });
    const t = s.dt ? stepTime(s.dt) : null;
    if (s.dt && !t) invalid.push({ code: 'dt_invalid', message: `工程${n}: 日時「${s.dt}」が読めません (YYYY-MM-DD HH:mm)`, step: i, field: 'dt' });
    if (t && last && t < last) invalid.push({ code: 'dt_out_of_order', message: `工程${n}: 日時が前の工程より前になっています`, step: i, field: 'dt' });
    if (t) last = t;
    if (confirmed && unsigned) invalid.push({ code: 'confirmed_unsigned', message: `工程${n}: 完了なのに署名がありません`, step: i, field: 'sign' });
    if (confirmed && !s.who) invalid.push({ code: 'confirmed_without_person', message: `工程${n}: 完了なのに担当者がありません`, step: i, field: 'who' });
    const missing = [!confirmed && 'state', unsigned && 'sign', !s.dt && 'dt', !s.who && 'who'].filter((x): x is string => !!x);
    if (missing.length) incomplete.push({ code: 'step_incomplete', message: `工程${n}「${s.label || '—'}」が未完了です`, step: i, label: s.label, missing });
  });
  return { invalid, incomplete };
}

/** Steps as the custody route records them: at most 50, every one complete and in time order, else refused. */
function readSteps(v: unknown): CustodyStep[] {
  const steps = custodyFields.steps.max(CUSTODY_MAX_STEPS, `工程は${CUSTODY_MAX_STEPS}件までです`).parse(v);
  const { invalid, incomplete } = stepIssues(steps);
  const first = invalid[0] ?? incomplete[0];
  if (first) throw badRequest('custody_incomplete', { message: first.message });
  return steps;
}

/** The control sets record: each set as the controls route stores it. */
export const complianceSchema = collectionSchema(COMPLIANCE, ruleFields(Object.fromEntries(CONTROL_KEYS.map((k) => [k, readControls]))));

/**
 * CAPA items: the state as the CAPA route stores it; the finding itself (source, finding, due date, owner) is
 * the center's record, its due a real date (the compliance report refuses to issue otherwise).
 */
export const capaSchema = collectionSchema(
  CAPA,
  { state: ruleField(readCapaState) },
  { src: derivedText(60), finding: derivedText(1000), owner: derivedText(60), due: json(z.string().refine(isDate, 'due must be a real YYYY-MM-DD')), updated: stamp() },
);

/** Audit rows as the audit route stores them: trimmed texts, defaults in place of blanks, ts 'YYYY-MM-DD HH:mm'; seq numbers the row. */
export const auditLogSchema = collectionSchema(
  AUDIT_LOG,
  {
    action: json(auditFields.action.refine(filled, 'action required')),
    ts: json(auditFields.ts.refine(isStamp, 'ts must be YYYY-MM-DD HH:mm')),
    user: json(auditFields.user.refine(filled, 'user must not be blank')),
    target: json(auditFields.target.refine(filled, 'target must not be blank')),
    result: json(auditFields.result.refine(filled, 'result must not be blank')),
    cat: json(auditFields.cat.refine(filled, 'cat must not be blank')),
  },
  { seq: json(z.number().int().positive()), created: stamp() },
);

/** Custody records as the custody route records them: an IMEI, and steps that are all complete. */
export const custodySchema = collectionSchema(
  CUSTODY,
  { imei: json(custodyFields.imei.refine(filled, 'imei required')), model: json(custodyFields.model), cust: json(custodyFields.cust), steps: ruleField(readSteps) },
  { created: stamp() },
);
