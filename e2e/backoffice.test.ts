import { describe, expect, it } from 'vitest';
import { shot } from './harness.testkit';
import { e2eSession } from './session.testkit';

/** Back-office screens of the bench window, driven like a person would, checked against the API. */
const t = e2eSession({ timeout: 8000 });
const { api, go } = t;

const yen = (n: number) => `¥${n.toLocaleString('ja-JP')}`;
const dialog = () => t.b.page.getByRole('dialog');
const confirm = (label: string) => t.b.page.getByRole('dialog', { name: '確認' }).getByRole('button', { name: label }).click();

describe('back office', () => {
  it('creating an issued invoice raises the billing summary', async () => {
    const { page } = t.b;
    const before = (await api<{ summary: { billed: number; mrr: number } }>('/api/billing/summary')).summary;
    await go('/invoices');
    const summary = page.getByTestId('billing-summary');
    await summary.getByText(yen(before.billed)).first().waitFor();
    await page.getByTestId('invoices').getByRole('button', { name: '＋ 新規' }).click();
    await page.locator('#fm-cust').fill('株式会社E2E請求');
    await page.locator('#fm-amount').fill('123456');
    await page.locator('#fm-status').selectOption('issued');
    await page.locator('#fm-recurring').check();
    await page.getByTestId('form-save').click();
    await page.getByTestId('invoices').getByText('株式会社E2E請求').waitFor();
    await summary.getByText(yen(before.billed + 123456)).first().waitFor();
    await summary.getByText(yen(before.mrr + 123456)).first().waitFor();
    await shot(page, 'bo-01-invoices');
  });

  it('shift draft → apply → restore from history', async () => {
    const { page } = t.b;
    const { staff } = await api<{ staff: { id: string; name: string }[] }>('/api/staff');
    const first = staff[0]!;
    const orig = (await api<{ grid: Record<string, string[]> }>('/api/shifts')).grid;
    const was = orig[first.id]?.[0] ?? 'off';
    const to = was === 'night' ? 'day' : 'night';
    await go('/shifts');
    await page.getByLabel(`${first.name} 月`).selectOption(to);
    await page.getByRole('button', { name: '下書きとして確認' }).click();
    await page.getByText('未確定の下書きあり').waitFor();
    await page.getByRole('button', { name: '適用', exact: true }).click();
    await confirm('適用する');
    await page.getByText('シフトを適用しました').waitFor();
    expect((await api<{ grid: Record<string, string[]> }>('/api/shifts')).grid[first.id]?.[0]).toBe(to);
    await page.locator('tr', { hasText: '適用前のシフト' }).first().getByRole('button', { name: 'この状態に戻す' }).click();
    await confirm('復元する');
    await page.getByText('シフトを復元しました').waitFor();
    expect((await api<{ grid: Record<string, string[]> }>('/api/shifts')).grid[first.id]?.[0]).toBe(was);
    await expect.poll(() => page.getByLabel(`${first.name} 月`).inputValue()).toBe(was);
    await shot(page, 'bo-02-shifts');
  });

  it('DaaS quote: create, move one stage forward, and a skipped stage shows the server error', async () => {
    const { page } = t.b;
    await go('/daas');
    const table = page.getByTestId('daas-quotes');
    await table.getByRole('button', { name: '＋ 新規' }).click();
    await page.locator('#fm-cust').fill('株式会社E2Eリース');
    await page.locator('#fm-model').fill('iPhone 16e');
    await page.locator('#fm-qty').fill('25');
    await page.locator('#fm-expires').fill('2099-12-31');
    await page.getByTestId('form-save').click();
    const row = table.locator('tr', { hasText: '株式会社E2Eリース' });
    await row.waitFor();
    const { quotes } = await api<{ quotes: { id: string; cust: string; status: string; mrr: number; monthly: number; qty: number }[] }>('/api/daas');
    const q = quotes.find((x) => x.cust === '株式会社E2Eリース')!;
    expect(q).toMatchObject({ status: 'draft', qty: 25 });
    expect(q.mrr).toBe(q.monthly * 25);
    await row.getByText(yen(q.mrr)).waitFor();
    await row.click();
    const panel = page.getByTestId('daas-status');
    await panel.getByRole('button', { name: '→ 提案中' }).click();
    await panel.getByRole('button', { name: '→ 承認' }).waitFor();
    await expect.poll(async () => (await api<{ quotes: { id: string; status: string }[] }>('/api/daas')).quotes.find((x) => x.id === q.id)?.status).toBe('proposed');
    await row.getByText('提案中').waitFor();
    await panel.getByRole('button', { name: '→ 契約中' }).click();
    const err = page.getByTestId('daas-error');
    await err.getByText('stage skipped').waitFor();
    await err.getByText(/段階を飛ばせません/).waitFor();
    expect((await api<{ quotes: { id: string; status: string }[] }>('/api/daas')).quotes.find((x) => x.id === q.id)?.status).toBe('proposed');
    await shot(page, 'bo-03-daas');
  });

  it('store order from catalog lines shows the server-computed total', async () => {
    const { page } = t.b;
    const { catalog } = await api<{ catalog: { id: string; name: string; price: number }[] }>('/api/store/catalog');
    const [p1, p2] = [catalog[0]!, catalog[1]!];
    await go('/store');
    await page.getByLabel(`${p1.name} の数量`).fill('3');
    await page.getByLabel(`${p2.name} の数量`).fill('2');
    await page.getByLabel('受注の顧客').fill('株式会社E2E販売');
    await page.getByTestId('store-place').click();
    const expected = p1.price * 3 + p2.price * 2;
    await page.getByText(new RegExp(`受注 AO-\\d{6}-\\d{4} を登録しました（5点・合計 ${yen(expected)}）`)).waitFor();
    const row = page.getByTestId('store-orders').locator('tr', { hasText: '株式会社E2E販売' });
    await row.getByText(yen(expected)).waitFor();
    const { orders } = await api<{ orders: { id: string; cust: string; total: number; count: number; status: string }[] }>('/api/store/orders');
    const o = orders.find((x) => x.cust === '株式会社E2E販売')!;
    expect(o).toMatchObject({ total: expected, count: 5, status: '確定' });
    await row.getByRole('button', { name: '出荷済にする' }).click();
    await row.getByText('出荷済', { exact: true }).waitFor();
    await expect.poll(async () => (await api<{ orders: { id: string; status: string }[] }>('/api/store/orders')).orders.find((x) => x.id === o.id)?.status).toBe('出荷済');
    await shot(page, 'bo-04-store');
  });

  it('capacity load entry is added and counted in the week', async () => {
    const { page } = t.b;
    const before = await api<{ summary: { weekLoad: number } }>('/api/capacity');
    await go('/capacity');
    await page.getByTestId('capacity-load').getByRole('button', { name: '＋ 新規' }).click();
    await page.locator('#fm-cust').fill('株式会社E2E物流');
    await page.locator('#fm-qty').fill('240');
    await page.getByTestId('form-save').click();
    await page.getByTestId('capacity-load').locator('tr', { hasText: '株式会社E2E物流' }).getByText(/^CAP-\d{4}$/).waitFor();
    const after = await api<{ load: { id: string; cust: string; qty: number }[]; summary: { weekLoad: number } }>('/api/capacity');
    expect(after.load.find((l) => l.cust === '株式会社E2E物流')).toMatchObject({ qty: 240 });
    expect(after.summary.weekLoad).toBe(before.summary.weekLoad + 240);
    await page.getByTestId('capacity-summary').getByText(new RegExp(`^${after.summary.weekLoad} / `)).waitFor();
    await shot(page, 'bo-05-capacity');
  });

  it('compliance: CAPA state updated, report issue problems listed', async () => {
    const { page } = t.b;
    await go('/compliance');
    const row = page.getByTestId('capa').locator('tr', { hasText: 'CAPA-001' });
    await row.getByRole('button', { name: '編集' }).click();
    await page.locator('#fm-state').fill('是正済');
    await page.getByTestId('form-save').click();
    await row.getByText('是正済').waitFor();
    const { capa } = await api<{ capa: { id: string; state: string }[] }>('/api/compliance');
    expect(capa.find((c) => c.id === 'CAPA-001')?.state).toBe('是正済');
    await page.getByLabel('申告件数').fill('99999');
    await page.getByTestId('compliance-issue').click();
    await page.getByTestId('compliance-issues').getByText(/申告件数 99999 件と監査ログの \d+ 件が一致しません/).waitFor();
    await shot(page, 'bo-06-compliance');
  });

  it('trade-in: buyback with server-computed margin, receipt number, confirmed delete', async () => {
    const { page } = t.b;
    await go('/tradein');
    const bb = page.getByTestId('tradein-buybacks');
    await bb.getByRole('button', { name: '＋ 新規' }).click();
    await page.locator('#fm-model').fill('iPhone 14');
    await page.locator('#fm-grade').selectOption('A');
    await page.locator('#fm-bat').fill('90');
    await page.locator('#fm-offer').fill('30000');
    await page.locator('#fm-resell').fill('52000');
    await page.getByTestId('form-save').click();
    const row = bb.locator('tbody tr', { hasText: 'iPhone 14' });
    await row.waitFor();
    const { buybacks } = await api<{ buybacks: { id: string; margin: number; residual: number }[] }>('/api/tradein');
    expect(buybacks).toHaveLength(1);
    await row.getByText(yen(buybacks[0]!.margin), { exact: true }).waitFor();
    await row.getByText(yen(buybacks[0]!.residual), { exact: true }).waitFor();
    const rc = page.getByTestId('tradein-receipts');
    await rc.getByRole('button', { name: '＋ 新規' }).click();
    await page.locator('#fm-cust').fill('株式会社E2E回収');
    await page.locator('#fm-model').fill('iPad Air');
    await page.locator('#fm-qty').fill('2');
    await page.locator('#fm-price').fill('15000');
    await page.getByTestId('form-save').click();
    await rc.getByText(/^KIT-BUY-\d{4}-\d{4}$/).waitFor();
    await rc.getByText(yen(30000)).waitFor();
    await row.getByRole('button', { name: '削除' }).click();
    await confirm('削除する');
    await row.waitFor({ state: 'detached' });
    expect((await api<{ buybacks: unknown[] }>('/api/tradein')).buybacks).toHaveLength(0);
  });

  it('integrations: a rule toggle and an extra rule are saved', async () => {
    const { page } = t.b;
    await go('/integrations');
    await page.getByTestId('rules').getByRole('checkbox').nth(3).check();
    await page.getByRole('button', { name: '＋ ルールを追加' }).click();
    await page.getByLabel('追加ルール1 条件').fill('検品NGが3台以上');
    await page.getByLabel('追加ルール1 動作').fill('Slackの#kittingに通知');
    await page.getByTestId('extra-save').click();
    await page.getByText('追加ルールを保存しました').waitFor();
    const r = await api<{ rules: Record<string, boolean>; extraRules: { trig: string; act: string; on: boolean }[] }>('/api/integrations/rules');
    expect(r.rules['r-ade']).toBe(true);
    expect(r.extraRules).toEqual([expect.objectContaining({ trig: '検品NGが3台以上', act: 'Slackの#kittingに通知', on: true })]);
  });

  it('every back-office screen renders its working view', async () => {
    const { page } = t.b;
    for (const [hash, name, marker] of [
      ['/quotes', 'bo-07-quotes', null],
      ['/timeclock', 'bo-08-timeclock', null],
      ['/dock', 'bo-09-dock', null],
      ['/tradein', 'bo-10-tradein', 'tradein-receipts'],
      ['/reports', 'bo-11-reports', 'reports-saved'],
      ['/settings', 'bo-12-settings', null],
      ['/integrations', 'bo-13-integrations', 'rules'],
    ] as const) {
      await go(hash);
      if (marker) await page.getByTestId(marker).waitFor();
      expect((await page.locator('.content').innerText()).trim().length, hash).toBeGreaterThan(10);
      expect(await page.locator('.content .state.error').count(), hash).toBe(0);
      await shot(page, name);
    }
    await go('/reports');
    await page.getByLabel('レポートの顧客').selectOption({ index: 1 });
    await page.getByTestId('report-preview').click();
    const view = page.getByTestId('report-view');
    await view.getByText(/^端末数/).waitFor();
    await page.getByText('プレビュー（未保存）').waitFor();
    await page.getByTestId('report-save').click();
    const saved = page.getByTestId('reports-saved').locator('tbody tr').first();
    await saved.getByText(/^RPT-\d{4}-/).waitFor();
    await saved.click();
    await page.getByText('保存済').first().waitFor();
    const { reports } = await api<{ reports: { id: string }[] }>('/api/reports');
    expect(reports.length).toBe(1);
    await shot(page, 'bo-11-reports');
  });
});
