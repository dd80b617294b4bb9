import { useState } from 'react';
import type { Invoice } from '../../../shared/api/schemas';
import { DEFAULT_TAX_RATE, INVOICE_LINES_MAX, invoiceFigures, lineAmount, TAX_BASES, type InvoiceLine, type InvoiceTaxRate, type TaxBasis } from '../../../shared/invoice-tax';
import { api } from '../api';
import { Modal, toast, toastError, yen } from '../components/ui';

interface Row {
  description: string;
  quantity: string;
  unitPrice: string;
  taxRate: InvoiceTaxRate;
}

const toRow = (l: InvoiceLine): Row => ({ description: l.description, quantity: String(l.quantity), unitPrice: String(l.unitPrice), taxRate: l.taxRate });
const emptyRow = (): Row => ({ description: '', quantity: '1', unitPrice: '', taxRate: DEFAULT_TAX_RATE });
const toLine = (r: Row): InvoiceLine => ({ description: r.description.trim(), quantity: Number(r.quantity) || 0, unitPrice: Number(r.unitPrice) || 0, taxRate: r.taxRate });

/**
 * The lines of an invoice (内容・数量・単価・税率) with the per-rate totals a qualified invoice states,
 * figured as the server figures them. Read-only once the invoice has left draft.
 */
export function InvoiceLinesModal({ invoice, onClose, onSaved }: { invoice: Invoice; onClose: () => void; onSaved: (i: Invoice) => void }) {
  const locked = (invoice.status ?? 'draft') !== 'draft';
  const stored = Array.isArray(invoice.lines) ? (invoice.lines as InvoiceLine[]) : [];
  const [rows, setRows] = useState<Row[]>(stored.length ? stored.map(toRow) : [emptyRow()]);
  const [basis, setBasis] = useState<TaxBasis>((invoice.taxBasis as TaxBasis | undefined) ?? '税抜');
  const [busy, setBusy] = useState(false);
  const lines = rows.map(toLine);
  const f = invoiceFigures(lines, basis);
  const set = (i: number, k: keyof Row, v: string) => setRows((rs) => rs.map((r, j) => (j === i ? { ...r, [k]: k === 'taxRate' ? (Number(v) as InvoiceTaxRate) : v } : r)));
  const save = async () => {
    const bad = rows.findIndex((r) => !r.description.trim() || !Number.isFinite(Number(r.quantity)) || Number(r.quantity) < 0 || r.unitPrice.trim() === '' || !Number.isFinite(Number(r.unitPrice)));
    if (bad >= 0) return toast(`明細${bad + 1}行目の内容・数量・単価を入力してください`, true);
    setBusy(true);
    try {
      const { invoice: saved } = await api.updateInvoice(invoice.id, { lines, taxBasis: basis });
      toast(`${invoice.id} の明細を保存しました（合計 ${yen(saved.amount)}）`);
      onSaved(saved);
    } catch (e) {
      toastError(e, '明細を保存できませんでした');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={`請求明細 ${invoice.id}`}
      onClose={onClose}
      footer={
        <>
          <button className="btn" onClick={onClose}>
            {locked ? '閉じる' : 'キャンセル'}
          </button>
          {!locked && (
            <button className="btn primary" disabled={busy} onClick={() => void save()} data-testid="invoice-lines-save">
              {busy ? '保存中…' : '保存'}
            </button>
          )}
        </>
      }
    >
      {locked && (
        <div className="state" role="note" style={{ padding: '0 0 8px', textAlign: 'left' }}>
          発行済の請求書の明細は変更できません。
        </div>
      )}
      <div className="row" style={{ gap: 8, marginBottom: 8 }}>
        <label htmlFor="inv-basis">金額の表示</label>
        <select id="inv-basis" className="in" value={basis} disabled={locked} onChange={(e) => setBasis(e.target.value as TaxBasis)}>
          {TAX_BASES.map((b) => (
            <option key={b}>{b}</option>
          ))}
        </select>
      </div>
      <table className="tbl" data-testid="invoice-lines">
        <thead>
          <tr>
            <th>内容</th>
            <th className="num">数量</th>
            <th className="num">単価</th>
            <th>税率</th>
            <th className="num">金額</th>
            {!locked && <th />}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              <td>
                <input className="in" value={r.description} maxLength={200} disabled={locked} aria-label={`明細${i + 1} 内容`} onChange={(e) => set(i, 'description', e.target.value)} />
              </td>
              <td>
                <input className="in num" style={{ width: 70 }} inputMode="decimal" value={r.quantity} disabled={locked} aria-label={`明細${i + 1} 数量`} onChange={(e) => set(i, 'quantity', e.target.value)} />
              </td>
              <td>
                <input className="in num" style={{ width: 100 }} inputMode="numeric" value={r.unitPrice} disabled={locked} aria-label={`明細${i + 1} 単価`} onChange={(e) => set(i, 'unitPrice', e.target.value)} />
              </td>
              <td>
                <select className="in" value={r.taxRate} disabled={locked} aria-label={`明細${i + 1} 税率`} onChange={(e) => set(i, 'taxRate', e.target.value)}>
                  <option value={10}>10%</option>
                  <option value={8}>8%（軽減）</option>
                </select>
              </td>
              <td className="num">{yen(lineAmount(toLine(r)))}</td>
              {!locked && (
                <td>
                  <button className="btn small" aria-label={`明細${i + 1}を削除`} onClick={() => setRows((rs) => (rs.length > 1 ? rs.filter((_, j) => j !== i) : [emptyRow()]))}>
                    削除
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {!locked && rows.length < INVOICE_LINES_MAX && (
        <button className="btn small" style={{ marginTop: 6 }} onClick={() => setRows((rs) => [...rs, emptyRow()])}>
          ＋ 明細を追加
        </button>
      )}
      <table className="tbl" data-testid="invoice-tax" style={{ marginTop: 10 }}>
        <tbody>
          {f.taxes.map((t) => (
            <tr key={t.rate}>
              <td>{t.rate}%対象</td>
              <td className="num">税抜 {yen(t.taxable)}</td>
              <td className="num">消費税 {yen(t.tax)}</td>
              <td className="num">税込 {yen(t.total)}</td>
            </tr>
          ))}
          <tr>
            <td>
              <b>合計（税込）</b>
            </td>
            <td />
            <td className="num">うち消費税 {yen(f.tax)}</td>
            <td className="num">
              <b>{yen(f.total)}</b>
            </td>
          </tr>
        </tbody>
      </table>
    </Modal>
  );
}
