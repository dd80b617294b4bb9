import { useState } from 'react';
import type { Invoice } from '../../../shared/api/schemas';
import { api } from '../api';
import { CrudTable } from '../components/crud-table';
import { Chip, ErrorState, Loading, confirmAction, todayJst, toast, toastError, useLoad, yen } from '../components/ui';
import { periodLabel } from '../lib/labels';
import { InvoiceLinesModal } from './invoice-lines';

/** This month in Japan as YYMM (the server's default month for invoices). */
const thisYymm = () => todayJst().slice(2, 7).replace('-', '');

const STATUS: Record<string, [string, string]> = { draft: ['下書き', 'c-gray'], issued: ['発行済', 'c-blue'], paid: ['入金済', 'c-green'], overdue: ['期限超過', 'c-red'] };

function Summary({ version }: { version: number }) {
  const s = useLoad(() => api.billingSummary(), [version]);
  if (s.error && !s.data) return <ErrorState error={s.error} what="請求サマリー" onRetry={s.reload} />;
  if (!s.data) return <Loading what="請求サマリー" />;
  const x = s.data.summary;
  const m = typeof x.month === 'string' && /^\d{4}$/.test(x.month) ? periodLabel(x.month) : '今月';
  const k: [string, string][] = [
    ['MRR', yen(x.mrr)],
    ['ARR', yen(x.arr)],
    ['請求額', yen(x.billed)],
    ['入金済', yen(x.paid)],
    ['未入金', yen(x.unpaid)],
    ['期限超過', yen(x.overdue)],
    ['継続:単発', x.ratio ?? '—'],
  ];
  return (
    <>
    <div className="muted" data-testid="billing-period" style={{ margin: '0 0 4px' }}>
      集計期間: {m}分の請求書（対象月 = {m}）。MRR・ARRは継続請求から算出。
    </div>
    <div className="kpis" data-testid="billing-summary">
      {k.map(([l, v]) => (
        <div className="kpi" key={l}>
          <div className="label">{l}</div>
          <div className="value" style={{ fontSize: 18 }}>
            {v}
          </div>
        </div>
      ))}
    </div>
    </>
  );
}

export function InvoicesScreen() {
  // Bumped after any change so the summary (and, after a bulk issue, the list) load again.
  const [version, setVersion] = useState(0);
  const [linesOf, setLinesOf] = useState<Invoice | null>(null);
  const issueAll = async () => {
    if (!(await confirmAction(`${periodLabel(thisYymm())}分の下書き請求書をすべて発行します。発行後は内容を変更できません。よろしいですか？`, '発行する'))) return;
    try {
      const { count } = await api.issueInvoices();
      toast(`${count}件を発行しました`);
      setVersion((v) => v + 1);
    } catch (e) {
      toastError(e, '発行できませんでした');
    }
  };
  return (
    <>
      {linesOf && (
        <InvoiceLinesModal
          invoice={linesOf}
          onClose={() => setLinesOf(null)}
          onSaved={() => {
            setLinesOf(null);
            setVersion((v) => v + 1);
          }}
        />
      )}
      <Summary version={version} />
      <CrudTable<Invoice>
        what="請求書"
        load={async () => (await api.invoices()).invoices}
        idOf={(i) => i.id}
        testId="invoices"
        reloadKey={version}
        onChanged={() => setVersion((v) => v + 1)}
        toolbar={
          <button className="btn" onClick={() => void issueAll()}>
            {periodLabel(thisYymm())}分を一括発行
          </button>
        }
        columns={[
          { key: 'id', label: '請求番号', width: 120, className: 'mono' },
          { key: 'month', label: '対象月', width: 96, render: (i) => periodLabel(i.month) },
          { key: 'cust', label: '顧客' },
          { key: 'desc', label: '内容' },
          { key: 'amount', label: '合計（税込）', width: 110, className: 'num', render: (i) => yen(i.amount) },
          { key: 'tax', label: 'うち消費税', width: 96, className: 'num', render: (i) => (typeof i.tax === 'number' ? yen(i.tax) : '—') },
          { key: 'due', label: '支払期限', width: 90 },
          { key: 'recurring', label: '区分', width: 50, render: (i) => (i.recurring ? '継続' : '単発') },
          { key: 'status', label: '状態', width: 80, render: (i) => <Chip c={STATUS[i.status ?? '']?.[1]}>{STATUS[i.status ?? '']?.[0] ?? i.status}</Chip> },
          {
            key: 'lines',
            label: '明細',
            width: 60,
            render: (i) => (
              <button
                className="btn small"
                onClick={(e) => {
                  e.stopPropagation();
                  setLinesOf(i);
                }}
              >
                明細
              </button>
            ),
          },
          {
            key: 'pdf',
            label: 'PDF',
            width: 60,
            render: (i) => (
              <a className="btn small" href={`/api/invoice/${encodeURIComponent(i.id)}/pdf`} target="_blank" rel="noopener" onClick={(e) => e.stopPropagation()}>
                PDF
              </a>
            ),
          },
        ]}
        fields={[
          { key: 'cust', label: '顧客', required: true, max: 120 },
          { key: 'amount', label: '合計金額（円・税込）', type: 'number', required: true, hint: '税率ごとの明細は作成後に「明細」で入力' },
          { key: 'month', label: '対象月(YYMM)', max: 4 },
          { key: 'desc', label: '内容', max: 300 },
          { key: 'due', label: '支払期限', max: 20 },
          { key: 'status', label: '状態', type: 'select', options: ['draft', 'issued', 'paid', 'overdue'], optionLabels: Object.fromEntries(Object.entries(STATUS).map(([k, v]) => [k, v[0]])) },
          { key: 'recurring', label: '継続請求', type: 'checkbox' },
        ]}
        defaults={{ status: 'draft' }}
        create={async (v) => (await api.createInvoice(v)).invoice}
        update={async (id, v) => (await api.updateInvoice(id, v)).invoice}
        locked={(i) =>
          (i.status ?? 'draft') === 'draft'
            ? null
            : { fields: ['cust', 'amount', 'month', 'desc', 'due', 'recurring'], note: '発行済の請求書は内容を変更できません。状態（入金済・期限超過など）のみ変更できます。訂正する場合は状態を「下書き」に戻して保存してから編集してください。' }
        }
      />
    </>
  );
}
