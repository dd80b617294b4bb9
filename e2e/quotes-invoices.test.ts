import { describe, expect, it } from 'vitest';
import { e2eSession } from './session.testkit';

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

describe('invoice lines', () => {
  it('a draft invoice gets lines at 10 % and 8 %; the screen shows the per-rate tax the server stores', async () => {
    const { page } = t.b;
    const created = await t.post<{ invoice: { id: string } }>('/api/invoice', { cust: '株式会社E2E明細', amount: 1000, desc: '仮' });
    const { id } = created.body.invoice;
    await go('/invoices');
    const row = page.getByTestId('invoices').locator('tr', { hasText: id });
    await row.getByRole('button', { name: '明細', exact: true }).click();
    const dialog = page.getByRole('dialog');
    // made from an amount alone, the invoice states its one line with tax included; these lines are tax-excluded
    expect(await dialog.getByLabel('金額の表示').inputValue()).toBe('税込');
    await dialog.getByLabel('金額の表示').selectOption('税抜');
    await dialog.getByLabel('明細1 内容').fill('キッティング作業');
    await dialog.getByLabel('明細1 数量').fill('40');
    await dialog.getByLabel('明細1 単価').fill('3000');
    await dialog.getByRole('button', { name: '＋ 明細を追加' }).click();
    await dialog.getByLabel('明細2 内容').fill('会議用飲料');
    await dialog.getByLabel('明細2 数量').fill('10');
    await dialog.getByLabel('明細2 単価').fill('150');
    await dialog.getByLabel('明細2 税率').selectOption('8');
    const tax = dialog.getByTestId('invoice-tax');
    await tax.getByText('消費税 ¥12,000').waitFor();
    await tax.getByText('消費税 ¥120').waitFor();
    await tax.getByText('¥133,620').waitFor();
    await dialog.getByTestId('invoice-lines-save').click();
    await row.getByText('¥133,620').waitFor();
    const stored = (await api<{ invoices: { id: string; amount: number; tax: number; taxes: { rate: number; tax: number }[] }[] }>('/api/invoices')).invoices.find((i) => i.id === id);
    expect(stored).toMatchObject({ amount: 133620, tax: 12120, taxes: [{ rate: 10, tax: 12000 }, { rate: 8, tax: 120 }] });
  });
});

describe('capacity of any week', () => {
  it('a chosen week shows public holidays and weekends as closed, and the cards behind a day', async () => {
    const { page } = t.b;
    const created = await t.post<{ job: { id: string } }>('/api/job', { c: '株式会社E2E祝日', t: 'iPhone 16 ×12台 初期設定', s: 2, due: '2027-09-25' });
    expect(created.status).toBe(200);
    await go('/capacity');
    await page.locator('#capacity-from').fill('2027-09-20');
    const week = page.getByTestId('capacity-week');
    await week.getByText('祝日（敬老の日）').waitFor();
    await week.getByText('祝日（秋分の日）').waitFor();
    await week.getByText('土曜休業').waitFor();
    // due on Saturday 9/25: worked on Friday 9/24
    await page.getByTestId('capacity-day-2027-09-24').getByText(/株式会社E2E祝日 iPhone 16 ×12台 初期設定（12台・期限 2027-09-25）/).waitFor();
  });
});
