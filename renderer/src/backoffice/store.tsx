import { useState } from 'react';
import type { StoreOrder, StoreProduct } from '../../../shared/api/schemas';
import { api } from '../api';
import { CrudTable } from '../components/crud-table';
import { Chip, Panel, toast, toastError, yen } from '../components/ui';
import { optNum, optStr, s } from './parts';

const STATUS_CHIP: Record<string, string> = { 確定: 'c-blue', 出荷済: 'c-green', キャンセル: 'c-gray' };

function OrderLines({ order }: { order: StoreOrder }) {
  return (
    <Panel title={`受注 ${order.id}`}>
      <div className="body form">
        <label>顧客</label>
        <div>{order.cust || '—'}</div>
        <label>案件</label>
        <div>{order.job || '—'}</div>
        <label>届け先</label>
        <div>{order.dest || '—'}</div>
      </div>
      <table className="t">
        <thead>
          <tr>
            <th>商品</th>
            <th className="num">単価</th>
            <th className="num">数量</th>
            <th className="num">小計</th>
          </tr>
        </thead>
        <tbody>
          {(order.lines ?? []).map((l, i) => (
            <tr key={i}>
              <td>{l.name}</td>
              <td className="num">{yen(l.price)}</td>
              <td className="num">{l.qty}</td>
              <td className="num">{yen(l.price * l.qty)}</td>
            </tr>
          ))}
          <tr>
            <td colSpan={2}>
              <strong>合計（{order.count}点）</strong> <span className="muted">粗利 {yen(order.gp)}</span>
            </td>
            <td colSpan={2} className="num">
              <strong>{yen(order.total)}</strong>
            </td>
          </tr>
        </tbody>
      </table>
    </Panel>
  );
}

export function StoreScreen() {
  const [cart, setCart] = useState<Record<string, number>>({});
  const [head, setHead] = useState({ cust: '', job: '', dest: '' });
  const [busy, setBusy] = useState(false);
  const [orders, setOrders] = useState(0);
  const lines = Object.entries(cart).filter(([, q]) => q > 0);
  const place = async () => {
    if (lines.length === 0) return toast('数量を1つ以上入力してください', true);
    if (!head.cust.trim()) return toast('顧客を入力してください', true);
    setBusy(true);
    try {
      const { order } = await api.createStoreOrder({ ...head, lines: lines.map(([id, qty]) => ({ id, qty })) });
      toast(`受注 ${order.id} を登録しました（${order.count}点・合計 ${yen(order.total)}）`);
      setCart({});
      setHead({ cust: '', job: '', dest: '' });
      setOrders((n) => n + 1);
    } catch (e) {
      toastError(e, '受注を登録できませんでした');
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <CrudTable<StoreProduct>
        what="商品"
        title="商品カタログ"
        testId="store-catalog"
        load={async () => (await api.storeCatalog()).catalog}
        idOf={(p) => p.id}
        columns={[
          { key: 'name', label: '商品名', render: (p) => <>{p.name} {p.custom && <Chip c="c-purple">独自</Chip>}</> },
          { key: 'cat', label: 'カテゴリ', width: 100 },
          { key: 'price', label: '売価', width: 90, className: 'num', render: (p) => yen(p.price) },
          { key: 'cost', label: '原価', width: 90, className: 'num', render: (p) => yen(p.cost) },
          {
            key: 'qty',
            label: '数量',
            width: 90,
            render: (p) => (
              <input
                className="in num"
                type="number"
                min={0}
                style={{ width: 70 }}
                aria-label={`${p.name} の数量`}
                value={cart[p.id] ?? ''}
                onClick={(e) => e.stopPropagation()}
                onChange={(e) => setCart((c) => ({ ...c, [p.id]: Math.max(0, Math.floor(Number(e.target.value) || 0)) }))}
              />
            ),
          },
        ]}
        fields={[
          { key: 'name', label: '商品名', required: true, max: 120 },
          { key: 'cat', label: 'カテゴリ', max: 40, suggest: ['ケース', 'フィルム', '充電器', 'ケーブル', 'その他'] },
          { key: 'price', label: '売価（円）', type: 'number', required: true },
          { key: 'cost', label: '原価（円）', type: 'number' },
          { key: 'note', label: '備考', max: 300 },
        ]}
        create={async (v) => (await api.createStoreProduct({ name: String(v.name), cat: optStr(v.cat), price: optNum(v.price) ?? 0, cost: optNum(v.cost), note: optStr(v.note) })).product}
      />
      <Panel
        title={<>受注の作成 <span className="muted" style={{ fontWeight: 400 }}>{lines.length}品目 選択中（合計・粗利はサーバーで計算）</span></>}
        actions={
          <button className="btn primary" disabled={busy || lines.length === 0} onClick={() => void place()} data-testid="store-place">
            {busy ? '登録中…' : '受注を確定'}
          </button>
        }
      >
        <div className="body row">
          {(
            [
              ['cust', '顧客'],
              ['job', '案件'],
              ['dest', '届け先'],
            ] as const
          ).map(([k, l]) => (
            <input key={k} className="in" placeholder={l} aria-label={`受注の${l}`} value={head[k]} maxLength={k === 'dest' ? 300 : 120} onChange={(e) => setHead((h) => ({ ...h, [k]: e.target.value }))} />
          ))}
        </div>
      </Panel>
      <CrudTable<StoreOrder>
        what="受注"
        title="受注一覧"
        testId="store-orders"
        reloadKey={orders}
        load={async () => (await api.storeOrders()).orders}
        idOf={(o) => o.id}
        columns={[
          { key: 'id', label: '受注番号', width: 150, className: 'mono' },
          { key: 'dateStr', label: '日付', width: 120 },
          { key: 'cust', label: '顧客' },
          { key: 'count', label: '点数', width: 56, className: 'num' },
          { key: 'total', label: '合計', width: 96, className: 'num', render: (o) => yen(o.total) },
          { key: 'gp', label: '粗利', width: 90, className: 'num', render: (o) => yen(o.gp) },
          { key: 'status', label: '状態', width: 70, render: (o) => <Chip c={STATUS_CHIP[s(o.status)]}>{o.status}</Chip> },
        ]}
        fields={[
          { key: 'status', label: '状態', required: true, max: 20, suggest: ['確定', '出荷済', 'キャンセル'] },
          { key: 'cust', label: '顧客', max: 120 },
          { key: 'job', label: '案件', max: 120 },
          { key: 'dest', label: '届け先', max: 300 },
        ]}
        update={async (id, v) => (await api.updateStoreOrder(id, { status: optStr(v.status), cust: optStr(v.cust), job: optStr(v.job), dest: optStr(v.dest) })).order}
        remove={(id) => api.deleteStoreOrder(id)}
        rowActions={(o, replace) =>
          o.status !== '出荷済' && (
            <button
              className="btn small"
              onClick={() =>
                void api
                  .updateStoreOrder(o.id, { status: '出荷済' })
                  .then((r) => {
                    replace(r.order);
                    toast(`${o.id} を出荷済にしました`);
                  })
                  .catch((e: unknown) => toastError(e, '更新できませんでした'))
              }
            >
              出荷済にする
            </button>
          )
        }
        detail={(o) => <OrderLines order={o} />}
      />
    </>
  );
}
