import { describe, expect, it } from 'vitest';
import { shot } from './harness.testkit';
import { e2eSession } from './session.testkit';

/** DaaS simulator and sends, custody records, portal links from the customers screen (bench mode). */
const t = e2eSession({ timeout: 8000 });
const { api, go } = t;

interface Sim {
  cust: string;
  model: string;
  qty: number;
  term: number;
  res: number;
  lcm: boolean;
  war: boolean;
}
interface Send {
  ts: number;
  cust: string;
  channel: string;
  to: string;
  doc: string;
  quoteId: string | null;
}

describe('back-office extras', () => {
  it('DaaS simulator conditions are saved and shown again after a reload', async () => {
    const { page } = t.b;
    expect((await api<{ sim: Sim | null }>('/api/daas')).sim).toBeNull();
    await go('/daas');
    await page.getByText('まだ条件は保存されていません').waitFor();
    await page.getByLabel('シミュレーションの顧客').fill('株式会社E2Eシミュ');
    await page.getByLabel('シミュレーションの機種').fill('Pixel 8a');
    await page.getByLabel('シミュレーションの台数').fill('42');
    await page.getByLabel('シミュレーションの契約期間').fill('99');
    await page.getByLabel('シミュレーションの残価率').fill('10');
    await page.getByTestId('daas-sim').getByLabel('延長保証').uncheck();
    await page.getByTestId('sim-save').click();
    await page.getByText('シミュレーション条件を保存しました').waitFor();
    // The term is clamped to 60 by the server and the form shows the stored value.
    await expect.poll(() => page.getByLabel('シミュレーションの契約期間').inputValue()).toBe('60');
    expect((await api<{ sim: Sim }>('/api/daas')).sim).toMatchObject({ cust: '株式会社E2Eシミュ', model: 'Pixel 8a', qty: 42, term: 60, res: 10, lcm: true, war: false });

    await page.reload();
    await page.getByText(/保存済みの条件/).waitFor();
    expect(await page.getByLabel('シミュレーションの顧客').inputValue()).toBe('株式会社E2Eシミュ');
    expect(await page.getByLabel('シミュレーションの機種').inputValue()).toBe('Pixel 8a');
    expect(await page.getByLabel('シミュレーションの台数').inputValue()).toBe('42');
    expect(await page.getByLabel('シミュレーションの残価率').inputValue()).toBe('10');
    expect(await page.getByTestId('daas-sim').getByLabel('延長保証').isChecked()).toBe(false);
    expect(await page.getByTestId('daas-sim').getByLabel('LCM').isChecked()).toBe(true);
    await shot(page, 'ex-01-daas-sim');

    // The kept conditions become a draft quote priced by the server.
    await page.getByTestId('sim-quote').click();
    await page.getByText(/下書き見積 DQ-[\w-]+ を作成しました/).waitFor();
    await page.getByTestId('daas-quotes').locator('tbody tr', { hasText: '株式会社E2Eシミュ' }).getByText('Pixel 8a × 42台').waitFor();
    const made = (await api<{ quotes: { cust: string; model: string; qty: number; term: number; res: number; war: boolean; status: string; monthly: number; mrr: number }[] }>('/api/daas')).quotes.find((x) => x.cust === '株式会社E2Eシミュ');
    expect(made).toMatchObject({ model: 'Pixel 8a', qty: 42, term: 60, res: 10, war: false, status: 'draft' });
    expect(made!.mrr).toBe(made!.monthly * 42);
  });

  it('a DaaS quote sent from the detail panel appears first in the send history', async () => {
    const { page } = t.b;
    const { quotes } = await api<{ quotes: { id: string; cust: string; model: string; qty: number }[] }>('/api/daas');
    const q = quotes.find((x) => x.cust)!;
    await go('/daas');
    await page.getByTestId('daas-quotes').locator('tbody tr', { hasText: q.id }).click();
    const form = page.getByTestId('daas-send');
    expect(await form.getByLabel('送付先の顧客').inputValue()).toBe(q.cust);
    await form.getByLabel('送付方法').selectOption('FAX');
    await form.getByLabel('宛先').fill('03-1234-5678');
    await page.getByTestId('send-submit').click();
    const first = page.getByTestId('daas-sends').locator('tbody tr').first();
    await first.getByText('03-1234-5678').waitFor();
    await first.getByText(`DaaS見積書 ${q.id}`).waitFor();
    await first.getByText(`${q.model} × ${q.qty}台`).waitFor();
    await shot(page, 'ex-02-daas-send-form');
    const { sends } = await api<{ sends: Send[] }>('/api/daas');
    expect(sends[0]).toMatchObject({ cust: q.cust, channel: 'FAX', to: '03-1234-5678', doc: `DaaS見積書 ${q.id}`, quoteId: q.id });
    await page.reload();
    await page.getByTestId('daas-sends').locator('tbody tr').first().getByText('03-1234-5678').waitFor();
    await shot(page, 'ex-02-daas-send');
  });

  it('custody record: an unsigned completed step shows the 422 lists, a complete record is stored', async () => {
    const { page } = t.b;
    await go('/compliance');
    const box = page.getByTestId('custody');
    await box.getByLabel('管理記録のIMEI').fill('356938035643809');
    await box.getByLabel('管理記録の機種').fill('iPhone 15');
    await box.getByLabel('管理記録の顧客').fill('ABC物流株式会社');
    // Step 1 confirmed but unsigned; steps 2 and 3 left open.
    await box.getByLabel('工程1 担当者').fill('佐藤');
    await box.getByLabel('工程1 日時').fill('2026-11-20T09:00');
    await box.getByLabel('工程1 状態').selectOption('完了');
    await page.getByTestId('custody-submit').click();
    await page.getByTestId('custody-invalid').getByText('工程1: 完了なのに署名がありません').waitFor();
    await page.getByTestId('custody-incomplete').getByText('工程2「データ消去」が未完了です').waitFor();
    await page.getByTestId('custody-incomplete').getByText(/未入力: 状態・署名・日時・担当者/).first().waitFor();
    await page.getByTestId('custody-draftable').getByText(/下書き不可/).waitFor();
    expect(await box.getByLabel('工程1 署名').getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('custody-rejected').scrollIntoViewIfNeeded();
    await shot(page, 'ex-03-custody-rejected');

    // Remove a step, add one back, and complete all three.
    await box.getByRole('button', { name: '工程3を削除' }).click();
    await box.getByRole('button', { name: '＋ 工程を追加' }).click();
    await box.getByLabel('工程3 工程名').fill('出荷');
    const fill = [
      ['佐藤', '2026-11-20T09:00', '佐藤'],
      ['鈴木', '2026-11-20T13:30', '鈴木'],
      ['高橋', '2026-11-21T10:00', '高橋'],
    ];
    for (const [i, [who, dt, sign]] of fill.entries()) {
      const n = i + 1;
      await box.getByLabel(`工程${n} 担当者`).fill(who!);
      await box.getByLabel(`工程${n} 日時`).fill(dt!);
      await box.getByLabel(`工程${n} 状態`).selectOption('完了');
      await box.getByLabel(`工程${n} 署名`).fill(sign!);
    }
    await page.getByTestId('custody-submit').click();
    const rec = page.getByTestId('custody-record');
    await rec.getByText(/^cus-/).waitFor();
    await rec.getByText('2026-11-21 10:00').waitFor();
    expect(await rec.locator('tbody tr').count()).toBe(3);
    await rec.locator('tbody tr').nth(2).getByText('出荷').waitFor();
    expect(await page.getByTestId('custody-rejected').count()).toBe(0);
    await rec.scrollIntoViewIfNeeded();
    await shot(page, 'ex-04-custody-stored');
  });

  it('customers screen: portal toggle and an issued link that opens the customer portal', async () => {
    const { page } = t.b;
    const state = (await api<{ state: Record<string, { id: string; name: string; published: boolean }> }>('/api/portals')).state;
    expect(state.tkm?.published).toBe(false);
    await go('/customers');
    // Toggle: the unpublished portal of 東海メディカル (customer cust-tkm, portal key tkm).
    const tkm = page.getByTestId('portal-state-tkm');
    await tkm.getByText('非公開').waitFor();
    await tkm.getByRole('button', { name: /ポータルを公開する/ }).click();
    await tkm.getByText('公開中').waitFor();
    expect((await api<{ state: Record<string, { published: boolean }> }>('/api/portals')).state.tkm?.published).toBe(true);
    await tkm.getByRole('button', { name: /ポータルを非公開にする/ }).click();
    await tkm.getByText('非公開').waitFor();
    expect((await api<{ state: Record<string, { published: boolean }> }>('/api/portals')).state.tkm?.published).toBe(false);

    // Issue a link for 株式会社山下電設 (unpublished): issuing does not publish; the dialog states the expiry and
    // holds the one publish control; once published, the URL opens its portal.
    const name = '株式会社山下電設';
    const row = page.getByTestId('portal-state-ysd').locator('xpath=ancestor::tr');
    await row.getByRole('button', { name: `${name} のポータルリンク発行` }).click();
    const input = page.getByTestId('portal-url');
    await input.waitFor();
    const url = await input.inputValue();
    expect(url.startsWith(`${t.server.url}/portal.html?t=`)).toBe(true);
    await page.getByTestId('portal-expires').getByText(/\d{4}年\d{1,2}月\d{1,2}日/).waitFor();
    await page.getByTestId('portal-state-ysd').getByText('非公開').waitFor();
    await page.getByTestId('portal-dialog-state').getByRole('button', { name: /ポータルを公開する/ }).click();
    await page.getByTestId('portal-state-ysd').getByText('公開中').waitFor();
    await shot(page, 'ex-05-portal-issued');

    const { devices } = await api<{ devices: { imei: string; model: string; cust: string }[] }>('/api/devices');
    const mine = devices.filter((d) => d.cust === name);
    expect(mine.length).toBeGreaterThan(0);
    await page.goto(url);
    const rows = page.getByTestId('portal-devices').locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(mine.length);
    await page.getByText(name).first().waitFor();
    await page.getByTestId('portal-devices').getByText(`••••${mine[0]!.imei.slice(-6)}`).waitFor();
    // customer-facing only: no storage place of the center; documents to download
    await page.getByTestId('portal-documents').getByText('データ消去証明書').waitFor();
    expect(await page.getByTestId('portal-devices').innerText()).not.toMatch(/保管場所|作業台|修理棚|入荷棚/);
    await shot(page, 'ex-06-portal-page');
  });
});
