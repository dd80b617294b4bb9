import { useState } from 'react';
import { COMPLIANCE_KEYS, type Capa, type ComplianceDoc, type ComplianceKey } from '../../../shared/api/schemas';
import { api } from '../api';
import { CrudTable } from '../components/crud-table';
import { Async, Chip, Panel, fmtTs, toast, toastError, todayJst, useLoad } from '../components/ui';
import { CustodyForm } from './compliance-custody';
import { ErrorBox, Kpis, optStr, s } from './parts';
import { AUDIT_CATEGORIES, auditCategoryKey, auditCategoryLabel, controlName, periodLabel } from '../lib/labels';

const FRAMEWORK: Record<ComplianceKey, string> = { isms: 'ISMS（ISO 27001）', pmark: 'プライバシーマーク', soc2: 'SOC 2', appi: '個人情報保護法' };
const CAPA_STATES = ['対応中', '是正待ち', '是正済', '完了'];
const CAPA_CHIP: Record<string, string> = { 対応中: 'c-orange', 是正待ち: 'c-red', 是正済: 'c-blue', 完了: 'c-green' };

function Controls() {
  const state = useLoad(() => api.compliance());
  const save = async (key: ComplianceKey, next: boolean[]) => {
    const prev = state.data?.controls[key] ?? [];
    state.setData((d) => d && { ...d, controls: { ...d.controls, [key]: next } });
    try {
      await api.setControls(key, next);
    } catch (e) {
      state.setData((d) => d && { ...d, controls: { ...d.controls, [key]: prev } });
      toastError(e, '保存できませんでした');
    }
  };
  return (
    <Panel title="管理策の実施状況">
      <Async state={state} what="管理策">
        {(d) => (
          <div className="body grid2" style={{ gridTemplateColumns: 'repeat(4, 1fr)' }} data-testid="controls">
            {COMPLIANCE_KEYS.map((k) => {
              const list = d.controls[k] ?? [];
              const done = list.filter(Boolean).length;
              return (
                <div key={k}>
                  <div className="row" style={{ fontWeight: 600 }}>
                    {FRAMEWORK[k]} <Chip c={done === list.length && list.length > 0 ? 'c-green' : 'c-orange'}>{`${done}/${list.length}`}</Chip>
                  </div>
                  {list.map((on, i) => (
                    <label key={i} className="row" style={{ fontSize: 12.5 }}>
                      <input type="checkbox" checked={on} aria-label={`${FRAMEWORK[k]} ${controlName(k, i)}`} onChange={(e) => void save(k, list.map((x, j) => (j === i ? e.target.checked : x)))} />
                      {controlName(k, i)}
                    </label>
                  ))}
                  {list.length < 100 && (
                    <button className="btn small" onClick={() => void save(k, [...list, false])}>
                      ＋ 管理策を追加
                    </button>
                  )}
                </div>
              );
            })}
          </div>
        )}
      </Async>
    </Panel>
  );
}

type AuditRec = { id: string; ts: string; user: string; action: string; target: string; result: string; cat: string };
let auditSeq = 0;
const auditRec = (r: string[]): AuditRec => ({ id: `${r[0] ?? ''}#${++auditSeq}`, ts: r[0] ?? '', user: r[1] ?? '', action: r[2] ?? '', target: r[3] ?? '', result: r[4] ?? '', cat: r[5] ?? '' });

function ReportIssue() {
  const [month, setMonth] = useState(todayJst().slice(0, 7));
  const [claim, setClaim] = useState('');
  const [doc, setDoc] = useState<ComplianceDoc | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const issue = async () => {
    setBusy(true);
    setError(null);
    setDoc(null);
    try {
      const n = claim.trim() === '' ? undefined : Number(claim);
      const r = await api.complianceReport({ month: month.trim() || undefined, claim: n === undefined ? undefined : { count: n } });
      setDoc(r.doc);
      toast(`${periodLabel(r.doc.month)}分のコンプライアンス報告書を発行しました`);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Panel
      title="コンプライアンス報告書の発行"
      actions={
        <button className="btn primary" disabled={busy} onClick={() => void issue()} data-testid="compliance-issue">
          {busy ? '確認中…' : '発行前チェックして発行'}
        </button>
      }
    >
      <div className="body" style={{ display: 'grid', gap: 8 }}>
        <div className="row">
          <label className="row">
            対象月（YYYY-MM）
            <input className="in mono" style={{ width: 96 }} value={month} maxLength={7} onChange={(e) => setMonth(e.target.value)} aria-label="報告書の対象月" />
          </label>
          <label className="row">
            申告件数（任意）
            <input className="in num" style={{ width: 80 }} type="number" value={claim} onChange={(e) => setClaim(e.target.value)} aria-label="申告件数" />
          </label>
        </div>
        {error !== null && <ErrorBox title="発行前チェックで問題が見つかりました。修正してから再度発行してください。" error={error} testId="compliance-issues" />}
        {doc && (
          <div data-testid="compliance-doc">
            <Kpis
              items={[
                ['対象月', periodLabel(doc.month)],
                ['監査ログ', `${doc.count} 件`],
                ['CAPA', `${doc.capa?.length ?? 0} 件（期限超過 ${doc.overdue ?? 0}）`],
                ['発行者', `${s(doc.org?.name)} ${s(doc.org?.regno)}`],
                ['発行日時', fmtTs(doc.issuedAt)],
              ]}
            />
            <div className="muted" style={{ marginTop: 6 }}>
              区分別: {Object.entries(doc.byCat ?? {}).map(([k, v]) => `${auditCategoryLabel(k)} ${v}件`).join('・') || 'なし'}
            </div>
          </div>
        )}
      </div>
    </Panel>
  );
}

export function ComplianceScreen() {
  return (
    <>
      <Controls />
      <CrudTable<Capa>
        what="是正処置（CAPA）"
        title="是正処置（CAPA）"
        testId="capa"
        load={async () => (await api.compliance()).capa}
        idOf={(c) => c.id}
        columns={[
          { key: 'id', label: '番号', width: 90, className: 'mono' },
          { key: 'src', label: '発生源', width: 110 },
          { key: 'finding', label: '指摘事項' },
          { key: 'due', label: '期限', width: 96 },
          { key: 'owner', label: '担当', width: 90 },
          { key: 'state', label: '状態', width: 80, render: (c) => <Chip c={CAPA_CHIP[s(c.state)]}>{c.state}</Chip> },
        ]}
        fields={[{ key: 'state', label: '状態', required: true, max: 20, suggest: CAPA_STATES }]}
        update={async (id, v) => (await api.setCapaState(id, String(v.state).trim())).capa}
      />
      <CrudTable<AuditRec>
        what="監査ログ"
        title="監査ログ"
        testId="audit-log"
        load={async () => (await api.auditLog()).logs.map(auditRec)}
        idOf={(r) => r.id}
        columns={[
          { key: 'ts', label: '日時', width: 130 },
          { key: 'user', label: 'ユーザー', width: 100 },
          { key: 'action', label: '操作' },
          { key: 'target', label: '対象', width: 140 },
          { key: 'result', label: '結果', width: 60 },
          { key: 'cat', label: '区分', width: 90, render: (r) => auditCategoryLabel(r.cat) },
        ]}
        fields={[
          { key: 'action', label: '操作', required: true, max: 200 },
          { key: 'user', label: 'ユーザー', max: 60, hint: '空欄でシステム' },
          { key: 'target', label: '対象', max: 200 },
          { key: 'result', label: '結果', max: 20, suggest: ['成功', '失敗', '却下'] },
          { key: 'cat', label: '区分', max: 20, suggest: Object.values(AUDIT_CATEGORIES), hint: '空欄で監査' },
        ]}
        create={async (v) => auditRec((await api.addAudit({ action: String(v.action), user: optStr(v.user) || undefined, target: optStr(v.target) || undefined, result: optStr(v.result) || undefined, cat: auditCategoryKey(optStr(v.cat) ?? '') || undefined })).entry)}
      />
      <CustodyForm />
      <ReportIssue />
    </>
  );
}
