import { describe, expect, it } from 'vitest';
import { e2eSession } from './session';

const t = e2eSession();
const { api, go } = t;

interface Line { n: string; q: number; p: number }
interface Quote { id: string; qty: number; ini: Line[]; issuedAt: number | null }

describe('quotes keep what the manager typed', () => {
  it('台数 as typed builds the lines; an issued quote is read-only on screen; 見積から請求書を作成 copies its lines', async () => {
    const { page } = t.b;
    await go('/quotes');
    await page.getByLabel('顧客', { exact: true }).selectOption('cust-tkm');
    // the ledger count pre-fills 台数; the manager types another number
    const qty = page.getByLabel('台数', { exact: true });
    await expect.poll(async () => Number(await qty.inputValue())).toBeGreaterThan(0);
    const ledger = Number(await qty.inputValue());
    const typed = ledger + 5;
    await qty.fill(String(typed));
    await page.getByRole('button', { name: '標準構成で作成' }).click();
    await expect.poll(async () => page.getByLabel('数量').first().inputValue()).toBe(String(typed));
    await page.getByLabel('件名').fill('営業部 iPhone 入替');
    await page.getByTestId('quote-save').click();
    await page.getByText(/見積 Q-.* を保存しました/).waitFor();
    const saved = (await api<{ quotes: Quote[] }>('/api/quotes')).quotes[0]!;
    expect(saved.qty).toBe(typed);
    expect(saved.ini.filter((l) => l.p < 100000).every((l) => l.q === typed)).toBe(true);

    await page.getByRole('button', { name: '発行', exact: true }).click();
    await page.getByRole('button', { name: '発行する' }).click();
    await page.getByTestId('quote-locked').waitFor();
    for (const field of [page.getByLabel('数量').first(), page.getByLabel('単価').first(), page.getByLabel('項目').first(), qty, page.getByLabel('件名')]) expect(await field.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: '＋ 行を追加' }).count()).toBe(0);

    await page.getByTestId('quote-invoice').click();
    await page.getByRole('button', { name: '作成する' }).click();
    await page.getByText(/請求書 INV-.*（下書き・合計 ¥[\d,]+）を作成しました/).waitFor();
    const { invoices } = await api<{ invoices: { quoteId?: string; lines: { quantity: number }[]; tax: number }[] }>('/api/invoices');
    const inv = invoices.find((i) => i.quoteId === saved.id);
    expect(inv?.lines.length).toBeGreaterThan(0);
    expect(inv?.tax).toBeGreaterThan(0);
  });
});
