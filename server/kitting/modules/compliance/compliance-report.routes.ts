import { z } from 'zod';
import { clip } from '../../../../shared/fields';
import { randomId } from '../../../core/http/crud';
import { defineRoute } from '../../../core/http/define-route';
import { badRequest, unprocessable } from '../../../core/errors';
import type { Doc } from '../../../core/store/types';
import { isValidRegno, readCompany } from '../settings/settings.service';
import { AUDIT_LOG, CAPA, CUSTODY, CUSTODY_MAX_STEPS, isDate, isMonth, isOpen, isStamp, thisMonth, today } from './compliance.service';

interface Issue {
  code: string;
  message: string;
  [k: string]: unknown;
}

const reportBody = z.object(
  {
    month: z.unknown().optional(),
    claim: z.object({ count: z.unknown().optional() }, { error: 'claim must be an object' }).passthrough().nullish(),
  },
  { error: 'body must be a JSON object' },
);

const stepStr = (n: number) =>
  z
    .union([z.string(), z.number()], { error: 'must be a string' })
    .nullish()
    .transform((v) => (v === null || v === undefined ? '' : clip(String(v).trim(), n)));

const stepSchema = z.object({ label: stepStr(120), role: stepStr(60), who: stepStr(60), dt: stepStr(40), state: stepStr(20), sign: stepStr(200) }, { error: 'steps must be objects' });

const custodyBody = z.object(
  {
    imei: stepStr(40),
    model: stepStr(60),
    cust: stepStr(120),
    steps: z.array(stepSchema, { error: 'steps must be an array' }).nullish(),
  },
  { error: 'body must be a JSON object' },
);

const CONFIRMED = '完了';
const isUnsigned = (sign: string) => sign === '' || sign === '—' || sign === '(未署名)' || sign === '（未署名）';
/** Step time: 'YYYY-MM-DD HH:mm' or 'YYYY-MM-DDTHH:mm', read as a sortable 'YYYY-MM-DD HH:mm'. */
const stepTime = (dt: string) => (isStamp(dt.replace('T', ' ').slice(0, 16)) && dt.length <= 19 ? dt.replace('T', ' ').slice(0, 16) : null);

export const complianceReportRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/compliance/report',
    auth: 'mgmt:view',
    body: reportBody,
    handler: async ({ app, ws, body }) => {
      const issues: Issue[] = [];
      const logs = await app.store.list(ws, AUDIT_LOG);
      for (const l of logs) {
        if (!isStamp(l.ts)) issues.push({ code: 'log_timestamp_invalid', message: `監査ログ ${String(l.id)} の日時「${String(l.ts)}」が YYYY-MM-DD HH:mm 形式ではありません`, id: l.id, ts: l.ts });
      }
      const valid = logs.filter((l) => isStamp(l.ts));

      let month: string;
      if (body.month !== undefined && body.month !== null && body.month !== '') {
        month = String(body.month);
        if (!isMonth(month)) issues.push({ code: 'month_malformed', message: `対象月「${clip(month, 20)}」は YYYY-MM 形式で指定してください` });
        else if (month > thisMonth()) issues.push({ code: 'month_future', message: `対象月 ${month} は未来の月です` });
      } else {
        month = thisMonth();
        if (!valid.some((l) => String(l.ts).startsWith(month))) {
          const newest = valid.map((l) => String(l.ts).slice(0, 7)).sort().pop();
          if (newest) month = newest;
        }
      }

      const capa = await app.store.list(ws, CAPA);
      for (const c of capa) {
        if (!isDate(c.due)) issues.push({ code: 'capa_due_invalid', message: `CAPA ${String(c.id)} の期限「${String(c.due ?? '')}」が YYYY-MM-DD 形式ではありません`, id: c.id, due: c.due ?? null });
      }

      const company = await readCompany(app.store, ws);
      if (!company.regno) issues.push({ code: 'issuer_registration_missing', message: '会社設定に登録番号(regno)がありません' });
      else if (!isValidRegno(company.regno)) issues.push({ code: 'issuer_registration_invalid', message: `登録番号「${company.regno}」が T+13桁の正しい番号ではありません`, regno: company.regno });

      const inMonth = valid.filter((l) => String(l.ts).startsWith(`${month}-`));
      const count = inMonth.length;
      const claimed = body.claim?.count;
      if (claimed !== undefined && claimed !== null && Number(claimed) !== count) {
        issues.push({ code: 'claim_count_mismatch', message: `申告件数 ${String(claimed)} 件と監査ログの ${count} 件が一致しません`, claimed, actual: count });
      }
      if (issues.length) throw unprocessable('report_check_failed', { issues, month });

      const byCat: Record<string, number> = {};
      for (const l of inMonth) byCat[String(l.cat || 'audit')] = (byCat[String(l.cat || 'audit')] ?? 0) + 1;
      const day = today();
      const capaRows = capa.map((c: Doc) => ({ ...c, overdue: isOpen(c) && String(c.due) < day }));
      return {
        doc: {
          month,
          count,
          byCat,
          capa: capaRows,
          overdue: capaRows.filter((c) => c.overdue).length,
          org: { name: company.name, regno: company.regno, addr: company.addr, rep: company.rep },
          issuedAt: Date.now(),
        },
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/compliance/custody',
    auth: 'mgmt:edit',
    body: custodyBody,
    handler: async ({ app, ws, body }) => {
      const steps = body.steps ?? [];
      if (steps.length > CUSTODY_MAX_STEPS) throw badRequest('too many steps', { message: `工程は${CUSTODY_MAX_STEPS}件までです`, max: CUSTODY_MAX_STEPS });
      const invalid: Issue[] = [];
      const incomplete: Issue[] = [];
      if (!body.imei) invalid.push({ code: 'imei_required', message: 'IMEIがありません', step: null, field: 'imei' });
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
      if (invalid.length || incomplete.length) {
        throw unprocessable('custody_incomplete', {
          issues: [...invalid, ...incomplete].map((x) => x.message),
          invalid,
          incomplete,
          draftable: invalid.length === 0,
        });
      }
      const record = { id: randomId('cus-'), imei: body.imei, model: body.model, cust: body.cust, steps, created: Date.now() };
      await app.store.transact(ws, (tx) => tx.put(CUSTODY, record.id, record));
      return { record };
    },
  }),
];
