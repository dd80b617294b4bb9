import type { DockReservation } from '../../../shared/api/schemas';
import { api } from '../api';
import { CrudTable } from '../components/crud-table';

export function DockScreen() {
  return (
    <CrudTable<DockReservation>
      what="搬入出予約"
      load={async () => (await api.dockReservations()).reservations}
      idOf={(r) => r.id}
      columns={[
        { key: 'id', label: '予約番号', width: 80, className: 'mono' },
        { key: 'date', label: '日付', width: 92 },
        { key: 'start', label: '開始', width: 56 },
        { key: 'dur', label: '所要(分)', width: 70, className: 'num' },
        { key: 'dir', label: '区分', width: 56 },
        { key: 'cust', label: '顧客' },
        { key: 'berth', label: 'バース', width: 64 },
        { key: 'size', label: '車格', width: 64 },
        { key: 'note', label: 'メモ' },
      ]}
      fields={[
        { key: 'date', label: '日付', type: 'date', required: true },
        { key: 'start', label: '開始(HH:MM)', max: 5 },
        { key: 'dur', label: '所要時間(分)', type: 'number' },
        { key: 'dir', label: '区分', type: 'select', options: ['入荷', '出荷'] },
        { key: 'cust', label: '顧客' },
        { key: 'berth', label: 'バース' },
        { key: 'size', label: '車格', type: 'select', options: ['軽', '2t', '4t', '10t'] },
        { key: 'note', label: 'メモ', type: 'textarea' },
      ]}
      defaults={{ dur: 30, dir: '入荷', size: '2t' }}
      create={async (v) => (await api.saveDockReservation(v)).reservation}
      update={async (id, v) => (await api.saveDockReservation({ ...v, id })).reservation}
      remove={(id) => api.deleteDockReservation(id)}
    />
  );
}
