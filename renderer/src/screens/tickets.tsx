import { useState } from 'react';
import type { Ticket } from '../../../shared/api/schemas';
import { api } from '../api';
import { CrudTable } from '../components/crud-table';
import { Async, Chip, Panel, fmtTs, toast, toastError, useLoad } from '../components/ui';

const STATUS_CHIP: Record<string, string> = { 受付: 'c-blue', 対応中: 'c-cyan', 解決: 'c-green' };

function Messages({ ticket }: { ticket: Ticket }) {
  const state = useLoad(() => api.ticketMessages(ticket.id), [ticket.id]);
  const [text, setText] = useState('');
  const [from, setFrom] = useState('センター');
  const send = async () => {
    if (!text.trim()) return toast('本文を入力してください', true);
    try {
      const { message } = await api.postTicketMessage(ticket.id, { from, text });
      state.setData((d) => d && { ...d, messages: [...d.messages, message] });
      setText('');
    } catch (e) {
      toastError(e, '送信できませんでした');
    }
  };
  return (
    <Panel title={<>{ticket.id} <span className="muted" style={{ fontWeight: 400 }}>{ticket.subject}</span></>}>
      <div className="body">
        <div className="row muted" style={{ marginBottom: 8 }}>
          <span>{ticket.cust}</span>・<span>担当 {ticket.owner}</span>・<span>SLA {ticket.sla}</span>
        </div>
        <Async state={state} what="メッセージ">
          {(d) => (
            <div className="msgs" data-testid="messages">
              {d.messages.length === 0 && <div className="muted">メッセージはまだありません</div>}
              {d.messages.map((m) => (
                <div className="m" key={m.id}>
                  <b>{m.from}</b> <span className="muted">{fmtTs(m.ts)}</span>
                  <div style={{ whiteSpace: 'pre-wrap' }}>{m.text}</div>
                </div>
              ))}
            </div>
          )}
        </Async>
        <div style={{ display: 'grid', gap: 6, marginTop: 10 }}>
          <input className="in" value={from} maxLength={60} onChange={(e) => setFrom(e.target.value)} aria-label="差出人" />
          <textarea className="in" rows={3} maxLength={2000} placeholder="返信を入力（Ctrl+Enterで送信）" value={text} onChange={(e) => setText(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && e.ctrlKey && void send()} />
          <div>
            <button className="btn primary" onClick={() => void send()}>
              送信
            </button>
          </div>
        </div>
      </div>
    </Panel>
  );
}

export function TicketsScreen() {
  return (
    <CrudTable<Ticket>
      what="チケット"
      load={async () => (await api.tickets()).tickets}
      idOf={(t) => t.id}
      columns={[
        { key: 'id', label: '番号', width: 80, className: 'mono' },
        { key: 'kind', label: '種別', width: 60 },
        { key: 'cust', label: '顧客' },
        { key: 'subject', label: '件名' },
        { key: 'priority', label: '優先', width: 40 },
        { key: 'sla', label: 'SLA', width: 64 },
        { key: 'status', label: '状態', width: 64, render: (t) => <Chip c={STATUS_CHIP[t.status ?? '']}>{t.status}</Chip> },
      ]}
      fields={[
        { key: 'cust', label: '顧客', max: 120 },
        { key: 'kind', label: '種別', type: 'select', options: ['問合せ', '故障', '交換', '紛失', '返却', 'その他'] },
        { key: 'subject', label: '件名', max: 300, required: true },
        { key: 'owner', label: '担当', max: 60 },
        { key: 'sla', label: 'SLA', max: 60 },
        { key: 'status', label: '状態', type: 'select', options: ['受付', '対応中', '解決'] },
        { key: 'priority', label: '優先度', type: 'select', options: ['', '高', '中', '低'] },
      ]}
      defaults={{ kind: '問合せ', status: '受付', sla: '4h 00m' }}
      create={async (v) => (await api.createTicket(v)).ticket}
      update={async (id, v) => (await api.updateTicket(id, v)).ticket}
      remove={(id) => api.deleteTicket(id)}
      detail={(t) => <Messages key={t.id} ticket={t} />}
    />
  );
}
