import type { ReactNode } from 'react';
import { api } from '../api';
import { Async, Chip, ErrorState, Loading, Panel, toast, toastError, useLoad, yen } from '../components/ui';

type Rec = Record<string, unknown>;
type Col = [key: string, label: string, fmt?: (v: unknown, r: Rec) => ReactNode];
const s = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
const money = (v: unknown) => (typeof v === 'number' ? yen(v) : s(v));

function RecordTable({ rows, cols, empty }: { rows: Rec[]; cols: Col[]; empty: string }) {
  if (rows.length === 0) return <div className="state">{empty}</div>;
  return (
    <div style={{ maxHeight: 480, overflow: 'auto' }}>
      <table className="t">
        <thead>
          <tr>
            {cols.map(([k, l]) => (
              <th key={k}>{l}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={s(r.id ?? r.no ?? i)}>
              {cols.map(([k, , f]) => (
                <td key={k}>{f ? f(r[k], r) : s(r[k])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One GET, several lists out of its body. */
function MultiList({ what, path, lists }: { what: string; path: string; lists: { key: string; title: string; cols: Col[] }[] }) {
  const state = useLoad(() => api.raw.get(path));
  return (
    <Async state={state} what={what}>
      {(d) => (
        <>
          {lists.map((l) => (
            <Panel key={l.key} title={l.title}>
              <RecordTable rows={Array.isArray(d[l.key]) ? (d[l.key] as Rec[]) : []} cols={l.cols} empty={`${l.title}はありません`} />
            </Panel>
          ))}
        </>
      )}
    </Async>
  );
}

export function CapacityScreen() {
  const state = useLoad(() => api.raw.get('/api/capacity'));
  if (state.error && !state.data) return <ErrorState error={state.error} what="キャパシティ" onRetry={state.reload} />;
  if (!state.data) return <Loading what="キャパシティ" />;
  const cfg = (state.data.config ?? {}) as Rec;
  const figs: [string, string][] = [
    ['日次キッティング能力', `${s(cfg.kittingDaily)} 台`],
    ['保管', `${s(cfg.storageUsed)} / ${s(cfg.storageMax)}`],
    ['パレット', `${s(cfg.palletUsed)} / ${s(cfg.palletMax)}`],
    ['倉庫', `${s(cfg.warehouseUsed)} / ${s(cfg.warehouseMax)}`],
    ['作業員', `${s(cfg.staffCount)} 名（1人 ${s(cfg.perStaff)} 台/日）`],
  ];
  return (
    <>
      <div className="kpis">
        {figs.map(([l, v]) => (
          <div className="kpi" key={l}>
            <div className="label">{l}</div>
            <div className="value" style={{ fontSize: 17 }}>
              {v}
            </div>
          </div>
        ))}
      </div>
      <Panel title="入荷・作業予定（負荷）">
        <RecordTable rows={(state.data.load as Rec[]) ?? []} cols={[['id', '番号'], ['date', '日付'], ['cust', '顧客'], ['qty', '台数'], ['kind', '種別'], ['note', 'メモ']]} empty="予定はありません" />
      </Panel>
    </>
  );
}

const DAAS_STATUS: Record<string, string> = { draft: 'c-gray', proposed: 'c-blue', approved: 'c-cyan', contracted: 'c-green' };
export function DaasScreen() {
  return (
    <MultiList
      what="DaaS"
      path="/api/daas"
      lists={[
        {
          key: 'quotes',
          title: 'DaaS見積',
          cols: [['id', '番号'], ['cust', '顧客'], ['model', '機種'], ['qty', '台数'], ['term', '期間(月)'], ['monthly', '月額/台', money], ['mrr', 'MRR', money], ['expires', '有効期限'], ['status', '状態', (v, r) => <Chip c={DAAS_STATUS[s(v)]}>{s(r.statusLabel ?? v)}</Chip>]],
        },
        { key: 'sends', title: '送付履歴', cols: [['cust', '顧客'], ['channel', '送付方法'], ['to', '宛先'], ['model', '機種'], ['qty', '台数'], ['mrr', 'MRR', money]] },
      ]}
    />
  );
}

export function StoreScreen() {
  return (
    <>
      <MultiList what="受注" path="/api/store/orders" lists={[{ key: 'orders', title: 'アクセサリー受注', cols: [['id', '受注番号'], ['dateStr', '日付'], ['cust', '顧客'], ['job', '案件'], ['count', '点数'], ['total', '合計', money], ['gp', '粗利', money], ['status', '状態']] }]} />
      <MultiList what="商品カタログ" path="/api/store/catalog" lists={[{ key: 'catalog', title: '商品カタログ', cols: [['name', '商品名'], ['cat', 'カテゴリ'], ['price', '売価', money], ['cost', '原価', money], ['note', '備考']] }]} />
    </>
  );
}

export function TradeinScreen() {
  return (
    <MultiList
      what="下取り・買取"
      path="/api/tradein"
      lists={[
        { key: 'buybacks', title: '買取査定', cols: [['id', '番号'], ['date', '日付'], ['model', '機種'], ['cust', '顧客'], ['grade', 'グレード'], ['bat', '電池'], ['offer', '買取額', money], ['resell', '再販見込', money], ['margin', '粗利', money]] },
        { key: 'inventory', title: 'リファービッシュ在庫', cols: [['id', '番号'], ['model', '機種'], ['grade', 'グレード'], ['cost', '原価', money], ['ask', '販売価格', money], ['margin', '粗利', money]] },
        { key: 'receipts', title: '買取明細書', cols: [['no', '番号'], ['dateJa', '日付'], ['cust', '顧客'], ['person', '担当'], ['items', '点数'], ['total', '合計', money]] },
      ]}
    />
  );
}

export function ReportsScreen() {
  const state = useLoad(() => api.raw.get('/api/reports'));
  const generate = async () => {
    try {
      await api.raw.post('/api/report/generate', {});
      state.reload();
      toast('今月のレポートを作成しました');
    } catch (e) {
      toastError(e, 'レポートを作成できませんでした');
    }
  };
  return (
    <Panel title="月次レポート" actions={<button className="btn primary" onClick={() => void generate()}>今月分を作成</button>}>
      <Async state={state} what="月次レポート">
        {(d) => (
          <RecordTable
            rows={(d.reports as Rec[]) ?? []}
            cols={[
              ['id', 'レポート番号'],
              ['monthLabel', '対象月'],
              ['custLabel', '顧客'],
              ['figures', '端末数', (v) => s((v as Rec | undefined)?.dev)],
              ['figures', 'キッティング', (v) => s((v as Rec | undefined)?.kit)],
              ['hasData', 'データ', (v) => (v ? 'あり' : 'なし')],
            ]}
            empty="作成済みのレポートはありません"
          />
        )}
      </Async>
    </Panel>
  );
}

export function ComplianceScreen() {
  return (
    <>
      <MultiList what="コンプライアンス" path="/api/compliance" lists={[{ key: 'capa', title: '是正処置（CAPA）', cols: [['id', '番号'], ['src', '発生源'], ['finding', '指摘事項'], ['due', '期限'], ['owner', '担当'], ['state', '状態']] }]} />
      <MultiList
        what="監査ログ"
        path="/api/audit-log"
        lists={[{ key: 'logs', title: '監査ログ', cols: [['0', '日時', (_v, r) => s(Array.isArray(r) ? r[0] : r.ts)], ['1', 'ユーザー', (_v, r) => s(Array.isArray(r) ? r[1] : r.user)], ['2', '操作', (_v, r) => s(Array.isArray(r) ? r[2] : r.action)], ['3', '対象', (_v, r) => s(Array.isArray(r) ? r[3] : r.target)], ['4', '結果', (_v, r) => s(Array.isArray(r) ? r[4] : r.result)]] }]}
      />
    </>
  );
}

const RULES: Record<string, string> = { 'r-ship': '出荷時に顧客へ通知', 'r-inv': '請求書の自動発行', 'r-lost': '紛失時のリモートロック', 'r-ade': 'ADE自動登録', 'r-sla': 'SLA超過アラート', 'r-pay': '入金消込' };
export function IntegrationsScreen() {
  const rules = useLoad(() => api.raw.get('/api/integrations/rules'));
  const toggle = async (id: string, on: boolean) => {
    const cur = (rules.data?.rules ?? {}) as Record<string, boolean>;
    try {
      const r = await api.raw.put('/api/integrations/rules', { rules: { ...cur, [id]: on }, extraRules: rules.data?.extraRules ?? [] });
      rules.setData((d) => d && { ...d, rules: r.rules });
    } catch (e) {
      toastError(e, '保存できませんでした');
    }
  };
  return (
    <>
      <Panel title="自動化ルール">
        <Async state={rules} what="自動化ルール">
          {(d) => (
            <div className="body" style={{ display: 'grid', gap: 6 }}>
              {Object.entries(RULES).map(([id, label]) => (
                <label key={id} className="row">
                  <input type="checkbox" checked={((d.rules ?? {}) as Record<string, boolean>)[id] === true} onChange={(e) => void toggle(id, e.target.checked)} />
                  {label} <span className="muted mono">{id}</span>
                </label>
              ))}
            </div>
          )}
        </Async>
      </Panel>
      <MultiList what="連携ログ" path="/api/integrations/log" lists={[{ key: 'log', title: '連携ログ（最新60件）', cols: [['id', '番号'], ['time', '日時'], ['service', 'サービス'], ['kind', '種別'], ['result', '結果']] }]} />
    </>
  );
}
