import { useState } from 'react';
import type { Customer } from '../../../shared/api/schemas';
import { api } from '../api';
import { CrudTable } from '../components/crud-table';
import { Async, Chip, Panel, useLoad } from '../components/ui';
import { PortalActions, PortalCell, usePortals } from './customers-portal';

function Renewals() {
  const state = useLoad(() => api.renewals());
  return (
    <Panel title="更新予定">
      <Async state={state} what="更新予定">
        {(d) =>
          d.renewals.length === 0 ? (
            <div className="state">更新予定はありません</div>
          ) : (
            <table className="t">
              <thead>
                <tr>
                  <th>日付</th>
                  <th>顧客</th>
                  <th>種別</th>
                  <th>内容</th>
                  <th>確度</th>
                </tr>
              </thead>
              <tbody>
                {d.renewals.map((r) => (
                  <tr key={r.id}>
                    <td className="mono">{r.date}</td>
                    <td>{r.customer}</td>
                    <td>
                      <Chip c={r.kindChip}>{r.kind}</Chip>
                    </td>
                    <td>
                      {r.what} <span className="muted">{r.detail}</span>
                    </td>
                    <td>
                      <Chip c={r.confColor}>{r.confidence}</Chip>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Async>
    </Panel>
  );
}

export function CustomersScreen() {
  const [tab, setTab] = useState<'list' | 'renew'>('list');
  const portals = usePortals();
  return (
    <>
      <div className="tabs">
        <button className={tab === 'list' ? 'on' : ''} onClick={() => setTab('list')}>
          顧客一覧
        </button>
        <button className={tab === 'renew' ? 'on' : ''} onClick={() => setTab('renew')}>
          更新予定
        </button>
      </div>
      {tab === 'renew' ? (
        <Renewals />
      ) : (
        <CrudTable<Customer>
          what="顧客"
          load={async () => (await api.customers()).customers}
          idOf={(c) => c.id}
          columns={[
            { key: 'name', label: '顧客名' },
            { key: 'industry', label: '業種', width: 110 },
            { key: 'mdm', label: 'MDM', width: 90 },
            { key: 'devices', label: '台数', width: 70, className: 'num' },
            { key: 'monthly', label: '月額', width: 100, className: 'num' },
            { key: 'since', label: '取引開始', width: 80 },
            { key: 'status', label: '状態', width: 80, render: (c) => <Chip c={c.statusChip}>{c.status}</Chip> },
            { key: 'portal', label: 'ポータル', width: 150, render: (c) => <PortalCell customer={c} portals={portals} /> },
          ]}
          rowActions={(c) => <PortalActions customer={c} portals={portals} />}
          fields={[
            { key: 'name', label: '顧客名', required: true },
            { key: 'industry', label: '業種' },
            { key: 'mdm', label: 'MDM' },
            { key: 'monthly', label: '月額' },
            { key: 'devices', label: '台数' },
            { key: 'since', label: '取引開始' },
            { key: 'status', label: '状態', type: 'select', options: ['契約中', '提案中', 'トライアル', '休止'] },
            { key: 'note', label: 'メモ', type: 'textarea' },
          ]}
          create={async (v) => (await api.createCustomer(v)).customer}
          update={async (id, v) => (await api.updateCustomer(id, v)).customer}
          remove={(id) => api.deleteCustomer(id)}
        />
      )}
    </>
  );
}
