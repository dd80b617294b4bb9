import { useEffect, useRef, useState } from 'react';
import type { ExtraRule } from '../../../shared/api/schemas';
import { api } from '../api';
import { Async, Chip, ErrorState, Loading, Panel, confirmAction, toast, toastError, useLoad } from '../components/ui';
import { RecordTable, s } from './parts';
import { INTEGRATION_RULES, integrationKindLabel, integrationRuleLabel } from '../lib/labels';

const resultChip = (v: unknown) => <Chip c={/成功|ok|success/i.test(s(v)) ? 'c-green' : /失敗|error|fail/i.test(s(v)) ? 'c-red' : 'c-gray'}>{s(v)}</Chip>;

function Rules() {
  const state = useLoad(() => api.integrationRules());
  const [extra, setExtra] = useState<ExtraRule[]>([]);
  const [dirty, setDirtyState] = useState(false);
  const dirtyRef = useRef(false);
  const setDirty = (v: boolean) => {
    dirtyRef.current = v;
    setDirtyState(v);
  };
  const [busy, setBusy] = useState(false);
  // Saved rules replace the editor's rows only while it holds no unsaved edits.
  useEffect(() => {
    if (state.data && !dirtyRef.current) setExtra(state.data.extraRules);
  }, [state.data]);
  if (state.error && !state.data) return <ErrorState error={state.error} what="自動化ルール" onRetry={state.reload} />;
  if (!state.data) return <Loading what="自動化ルール" />;
  const rules = state.data.rules;
  const put = async (nextRules: Record<string, boolean>, nextExtra: ExtraRule[]) => {
    setBusy(true);
    try {
      const r = await api.saveIntegrationRules({ rules: nextRules, extraRules: nextExtra });
      state.setData(() => r);
      return r;
    } catch (e) {
      toastError(e, '保存できませんでした');
      return null;
    } finally {
      setBusy(false);
    }
  };
  // Toggling a built-in rule keeps the saved extra rules (unsaved edits stay in the editor).
  const toggle = async (id: string, on: boolean) => {
    const saved = state.data?.extraRules ?? [];
    state.setData((d) => d && { ...d, rules: { ...d.rules, [id]: on } });
    if (!(await put({ ...rules, [id]: on }, saved))) state.setData((d) => d && { ...d, rules: { ...d.rules, [id]: !on } });
  };
  const edit = (i: number, patch: Partial<ExtraRule>) => {
    setExtra((l) => l.map((r, j) => (j === i ? { ...r, ...patch } : r)));
    setDirty(true);
  };
  const removeRow = async (i: number) => {
    const r = extra[i];
    if (!(await confirmAction(`ルール「${r?.trig || r?.id || i + 1}」を削除します。保存すると元に戻せません。`))) return;
    setExtra((l) => l.filter((_, j) => j !== i));
    setDirty(true);
  };
  const saveExtra = async () => {
    if (extra.some((r) => !(r.trig ?? '').trim() || !(r.act ?? '').trim())) return toast('条件と動作を入力してください', true);
    const r = await put(rules, extra);
    if (r) {
      setDirty(false);
      setExtra(r.extraRules);
      toast('追加ルールを保存しました');
    }
  };
  return (
    <>
      <Panel title="自動化ルール">
        <div className="body" style={{ display: 'grid', gap: 6 }} data-testid="rules">
          {[...Object.keys(INTEGRATION_RULES), ...Object.keys(rules).filter((k) => !INTEGRATION_RULES[k])].map((id, i) => (
            <label key={id} className="row">
              <input type="checkbox" checked={rules[id] === true} onChange={(e) => void toggle(id, e.target.checked)} />
              {INTEGRATION_RULES[id] ?? `${integrationRuleLabel(id)} ${i + 1 - Object.keys(INTEGRATION_RULES).length}`}
            </label>
          ))}
        </div>
      </Panel>
      <Panel
        title={<>追加ルール {dirty && <Chip c="c-orange">未保存</Chip>}</>}
        actions={
          <>
            <button className="btn" onClick={() => (setExtra((l) => [...l, { id: '', trig: '', act: '', ic: '⚙', on: true }]), setDirty(true))}>
              ＋ ルールを追加
            </button>
            <button className="btn primary" disabled={!dirty || busy} onClick={() => void saveExtra()} data-testid="extra-save">
              {busy ? '保存中…' : '保存'}
            </button>
          </>
        }
      >
        {extra.length === 0 ? (
          <div className="state">追加ルールはありません</div>
        ) : (
          <table className="t" data-testid="extra-rules">
            <thead>
              <tr>
                <th style={{ width: 50 }}>有効</th>
                <th>条件（トリガー）</th>
                <th>動作（アクション）</th>
                <th style={{ width: 60 }}>アイコン</th>
                <th style={{ width: 60 }} />
              </tr>
            </thead>
            <tbody>
              {extra.map((r, i) => (
                <tr key={i}>
                  <td>
                    <input type="checkbox" checked={r.on === true} aria-label={`追加ルール${i + 1} 有効`} onChange={(e) => edit(i, { on: e.target.checked })} />
                  </td>
                  <td>
                    <input className="in" style={{ width: '100%' }} maxLength={200} value={r.trig ?? ''} aria-label={`追加ルール${i + 1} 条件`} onChange={(e) => edit(i, { trig: e.target.value })} />
                  </td>
                  <td>
                    <input className="in" style={{ width: '100%' }} maxLength={200} value={r.act ?? ''} aria-label={`追加ルール${i + 1} 動作`} onChange={(e) => edit(i, { act: e.target.value })} />
                  </td>
                  <td>
                    <input className="in" style={{ width: 48 }} maxLength={20} value={r.ic ?? ''} aria-label={`追加ルール${i + 1} アイコン`} onChange={(e) => edit(i, { ic: e.target.value })} />
                  </td>
                  <td>
                    <button className="btn small danger" onClick={() => void removeRow(i)}>
                      削除
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Panel>
    </>
  );
}

export function IntegrationsScreen() {
  const log = useLoad(() => api.integrationLog());
  return (
    <>
      <Rules />
      <Panel title="連携ログ（最新60件）" actions={<button className="btn small" onClick={log.reload}>再読み込み</button>}>
        <Async state={log} what="連携ログ">
          {(d) => (
            <RecordTable
              rows={d.log}
              cols={[['id', '番号'], ['time', '日時', (v) => (v ? new Date(s(v)).toLocaleString('ja-JP', { timeZone: 'Asia/Tokyo' }) : '—')], ['service', 'サービス'], ['kind', '種別', (v) => integrationKindLabel(s(v))], ['result', '結果', resultChip]]}
              empty="連携ログはありません"
            />
          )}
        </Async>
      </Panel>
    </>
  );
}
