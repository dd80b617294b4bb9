import type { Shipment } from '../../../shared/api/schemas';
import { api } from '../api';
import { CrudTable } from '../components/crud-table';
import { Chip } from '../components/ui';

const STATUS_CHIP: Record<string, string> = { 予定: 'c-blue', 出荷済: 'c-green', 入荷済: 'c-green', 超過: 'c-red' };

export function ShipmentsScreen() {
  return (
    <CrudTable<Shipment>
      what="入出荷"
      load={async () => (await api.shipments()).shipments}
      idOf={(s) => s.id}
      columns={[
        { key: 'id', label: '番号', width: 90, className: 'mono' },
        { key: 'date', label: '日付', width: 60 },
        { key: 'kind', label: '区分', width: 56, render: (s) => <Chip c={s.kind === 'in' ? 'c-cyan' : 'c-blue'}>{s.kind === 'in' ? '入荷' : '出荷'}</Chip> },
        { key: 'customer', label: '顧客' },
        { key: 'detail', label: '内容' },
        { key: 'carrier', label: '運送会社', width: 100 },
        { key: 'status', label: '状態', width: 90, render: (s) => <Chip c={s.late ? 'c-red' : STATUS_CHIP[s.status ?? '']}>{s.late ? `${s.status}（遅延）` : s.status}</Chip> },
      ]}
      fields={[
        { key: 'kind', label: '区分(out/in)', type: 'select', options: ['out', 'in'] },
        { key: 'date', label: '日付', max: 20 },
        { key: 'customer', label: '顧客', required: true },
        { key: 'detail', label: '内容', type: 'textarea' },
        { key: 'carrier', label: '運送会社', type: 'select', options: ['ヤマト運輸', '佐川急便', '日本郵便', '西濃運輸', '自社便'] },
        { key: 'status', label: '状態', type: 'select', options: ['予定', '出荷済', '入荷済', '超過'] },
        { key: 'late', label: '遅延', type: 'checkbox' },
      ]}
      defaults={{ kind: 'out', status: '予定', carrier: 'ヤマト運輸' }}
      create={async (v) => (await api.createShipment(v)).shipment}
      update={async (id, v) => (await api.updateShipment(id, v)).shipment}
      remove={(id) => api.deleteShipment(id)}
    />
  );
}
