import type { Buyback, BuybackReceipt, RefurbStock } from '../../../shared/api/schemas';
import { api } from '../api';
import { CrudTable } from '../components/crud-table';
import { yen } from '../components/ui';
import { optNum, optStr } from './parts';

const GRADES = ['S', 'A', 'B', 'C', 'D'];
const signed = (n: number | undefined) => <span style={{ color: typeof n === 'number' && n < 0 ? 'var(--danger)' : undefined }}>{yen(n)}</span>;

export function TradeinScreen() {
  return (
    <>
      <CrudTable<Buyback>
        what="買取査定"
        title="買取査定"
        testId="tradein-buybacks"
        load={async () => (await api.tradein()).buybacks}
        idOf={(b) => b.id}
        columns={[
          { key: 'id', label: '番号', width: 130, className: 'mono' },
          { key: 'date', label: '日付', width: 96 },
          { key: 'model', label: '機種' },
          { key: 'cust', label: '顧客' },
          { key: 'grade', label: 'グレード', width: 60 },
          { key: 'bat', label: '電池', width: 56, className: 'num', render: (b) => `${b.bat ?? '—'}%` },
          { key: 'offer', label: '買取額', width: 90, className: 'num', render: (b) => yen(b.offer) },
          { key: 'resell', label: '再販見込', width: 90, className: 'num', render: (b) => yen(b.resell) },
          { key: 'residual', label: '整備後価値', width: 96, className: 'num', render: (b) => yen(b.residual) },
          { key: 'margin', label: '粗利', width: 90, className: 'num', render: (b) => signed(b.margin) },
        ]}
        fields={[
          { key: 'model', label: '機種', required: true, max: 60 },
          { key: 'cust', label: '顧客', max: 120 },
          { key: 'grade', label: 'グレード', type: 'select', options: GRADES },
          { key: 'bat', label: 'バッテリー（%）', type: 'number' },
          { key: 'offer', label: '買取額（円）', type: 'number', required: true },
          { key: 'resell', label: '再販見込（円）', type: 'number', required: true },
          { key: 'imei', label: 'IMEI', max: 40 },
          { key: 'note', label: 'メモ', max: 300 },
        ]}
        defaults={{ grade: 'B', bat: 100 }}
        create={async (v) =>
          (await api.createBuyback({ model: String(v.model), cust: optStr(v.cust), grade: optStr(v.grade), bat: optNum(v.bat), offer: optNum(v.offer) ?? 0, resell: optNum(v.resell) ?? 0, imei: optStr(v.imei), note: optStr(v.note) })).buyback
        }
        remove={(id) => api.deleteBuyback(id)}
      />
      <CrudTable<RefurbStock>
        what="リファービッシュ在庫"
        title="リファービッシュ在庫"
        testId="tradein-stock"
        load={async () => (await api.tradein()).inventory}
        idOf={(r) => r.id}
        columns={[
          { key: 'id', label: '番号', width: 130, className: 'mono' },
          { key: 'model', label: '機種' },
          { key: 'grade', label: 'グレード', width: 60 },
          { key: 'cost', label: '原価', width: 90, className: 'num', render: (r) => yen(r.cost) },
          { key: 'ask', label: '販売価格', width: 90, className: 'num', render: (r) => yen(r.ask) },
          { key: 'margin', label: '粗利', width: 90, className: 'num', render: (r) => signed(r.margin) },
          { key: 'note', label: 'メモ' },
        ]}
        fields={[
          { key: 'model', label: '機種', required: true, max: 60 },
          { key: 'grade', label: 'グレード', type: 'select', options: GRADES },
          { key: 'cost', label: '原価（円）', type: 'number' },
          { key: 'ask', label: '販売価格（円）', type: 'number' },
          { key: 'note', label: 'メモ', max: 300 },
        ]}
        defaults={{ grade: 'A' }}
        create={async (v) => (await api.createStock({ model: String(v.model), grade: optStr(v.grade), cost: optNum(v.cost), ask: optNum(v.ask), note: optStr(v.note) })).stock}
        remove={(id) => api.deleteStock(id)}
      />
      <CrudTable<BuybackReceipt>
        what="買取明細書"
        title="買取明細書（KIT-BUY）"
        testId="tradein-receipts"
        load={async () => (await api.tradein()).receipts}
        idOf={(r) => r.no}
        columns={[
          { key: 'no', label: '番号', width: 150, className: 'mono' },
          { key: 'dateJa', label: '日付', width: 120 },
          { key: 'cust', label: '顧客' },
          { key: 'person', label: '担当' },
          { key: 'items', label: '明細', render: (r) => (r.items ?? []).map((i) => `${i.model || '—'} ×${i.qty ?? 1}`).join('、') || '—' },
          { key: 'total', label: '合計', width: 100, className: 'num', render: (r) => yen(r.total) },
        ]}
        fields={[
          { key: 'cust', label: '顧客', required: true, max: 120 },
          { key: 'person', label: '担当', max: 60 },
          { key: 'model', label: '明細: 機種', max: 60 },
          { key: 'qty', label: '明細: 台数', type: 'number' },
          { key: 'price', label: '明細: 単価（円）', type: 'number' },
          { key: 'note', label: 'メモ', max: 300 },
        ]}
        defaults={{ qty: 1 }}
        create={async (v) =>
          (
            await api.createReceipt({
              cust: String(v.cust),
              person: optStr(v.person),
              note: optStr(v.note),
              items: optStr(v.model) || optNum(v.price) ? [{ model: optStr(v.model), qty: optNum(v.qty) ?? 1, price: optNum(v.price) ?? 0 }] : [],
            })
          ).receipt
        }
        remove={(no) => api.deleteReceipt(no)}
      />
    </>
  );
}
