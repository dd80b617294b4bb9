import type { Inquiry } from '../../../shared/api/schemas';
import { api } from '../api';
import { CrudTable } from '../components/crud-table';
import { Chip } from '../components/ui';

const STATUS = ['オープン', '対応中', '返却待ち', '完了'];
const TYPES = ['故障', '紛失', '交換', '返却', '問合せ', 'その他'];

export function InquiriesScreen() {
  return (
    <CrudTable<Inquiry>
      what="問合せ"
      load={async () => (await api.inquiries()).inquiries}
      idOf={(i) => i.id}
      columns={[
        { key: 'id', label: '受付番号', width: 76, className: 'mono' },
        { key: 'inquiryDate', label: '受付日', width: 92 },
        { key: 'type', label: '種別', width: 60, render: (i) => <Chip c={i.type === '故障' ? 'c-orange' : i.type === '紛失' ? 'c-red' : 'c-gray'}>{i.type}</Chip> },
        { key: 'customer', label: '顧客' },
        { key: 'inquirerName', label: '申告者', width: 90 },
        { key: 'summary', label: '内容' },
        { key: 'returnDeadline', label: '返却期限', width: 92 },
        { key: 'status', label: '状態', width: 76, render: (i) => <Chip c={i.status === '完了' ? 'c-green' : i.status === '対応中' ? 'c-cyan' : 'c-blue'}>{i.status}</Chip> },
      ]}
      fields={[
        { key: 'type', label: '種別', type: 'select', options: TYPES },
        { key: 'status', label: '状態', type: 'select', options: STATUS },
        { key: 'customer', label: '顧客' },
        { key: 'title', label: '件名' },
        { key: 'inquirerName', label: '申告者' },
        { key: 'department', label: '部署' },
        { key: 'summary', label: '内容', type: 'textarea' },
        { key: 'faultyDeviceId', label: '故障機IMEI' },
        { key: 'sentDeviceId', label: '代替機IMEI' },
        { key: 'inquiryDate', label: '受付日', type: 'date' },
        { key: 'returnDeadline', label: '返却期限', type: 'date' },
        { key: 'shipDate', label: '代替機発送日', type: 'date' },
        { key: 'returnReceivedDate', label: '返却受領日', type: 'date' },
        { key: 'remarks', label: '備考', type: 'textarea' },
      ]}
      defaults={{ type: '故障', status: 'オープン' }}
      create={async (v) => (await api.createInquiry(v)).inquiry}
      update={async (id, v) => (await api.updateInquiry(id, v)).inquiry}
      remove={(id) => api.deleteInquiry(id)}
    />
  );
}
