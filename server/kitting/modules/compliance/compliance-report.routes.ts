import { clip } from '../../../../shared/fields';
import { randomKey } from '../../../core/ids';
import { defineRoute } from '../../http/define-route';
import { badRequest, unprocessable } from '../../../core/errors';
import type { Doc } from '../../store/types';
import { isValidRegno, readCompany } from '../settings/settings.service';
import { AUDIT_LOG, CAPA, CUSTODY, CUSTODY_MAX_STEPS, isDate, isMonth, isOpen, isStamp, thisMonth, today } from './compliance.service';
import { stepIssues, type Issue } from './compliance.schema';
import { complianceResponses } from '../../../../shared/api/contracts/backoffice';
import { complianceRequests } from '../../../../shared/api/contracts/backoffice-requests';

const { report: reportBody, custody: custodyBody } = complianceRequests;

export const complianceReportRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/compliance/report',
    response: complianceResponses.report,
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
    response: complianceResponses.custody,
    auth: 'mgmt:edit',
    body: custodyBody,
    handler: async ({ app, ws, body }) => {
      const steps = body.steps ?? [];
      if (steps.length > CUSTODY_MAX_STEPS) throw badRequest('too many steps', { message: `工程は${CUSTODY_MAX_STEPS}件までです`, max: CUSTODY_MAX_STEPS });
      const found = stepIssues(steps);
      const invalid: Issue[] = [...(body.imei ? [] : [{ code: 'imei_required', message: 'IMEIがありません', step: null, field: 'imei' }]), ...found.invalid];
      const incomplete = found.incomplete;
      if (invalid.length || incomplete.length) {
        throw unprocessable('custody_incomplete', {
          issues: [...invalid, ...incomplete].map((x) => x.message),
          invalid,
          incomplete,
          draftable: invalid.length === 0,
        });
      }
      const record = { id: randomKey('cus-', 4), imei: body.imei, model: body.model, cust: body.cust, steps, created: Date.now() };
      await app.store.transact(ws, (tx) => tx.put(CUSTODY, record.id, record));
      return { record };
    },
  }),
];
