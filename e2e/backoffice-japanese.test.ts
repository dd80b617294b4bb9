import { describe, expect, it } from 'vitest';
import { shot } from './harness.testkit';
import { e2eSession } from './session.testkit';

/**
 * The back office as a clerk reads it: Japanese values instead of stored keys, periods named, an issued
 * invoice that cannot be edited, capacity figures that follow the job board and the dock, empty states
 * that say what to do, and rows that open from the keyboard.
 */
const t = e2eSession({ timeout: 8000 });
const { api, post, go } = t;

const jstToday = () => new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
const monthLabel = (yymm: string) => `20${yymm.slice(0, 2)}年${Number(yymm.slice(2))}月`;

/** Presses Tab until a table row has the focus (at most `max` presses); the row's text, or null. */
async function tabToRow(max = 12): Promise<string | null> {
  for (let i = 0; i < max; i++) {
    await t.b.page.keyboard.press('Tab');
    const row = await t.b.page.evaluate(() => (document.activeElement?.tagName === 'TR' ? (document.activeElement.textContent ?? '') : null));
    if (row !== null) return row;
  }
  return null;
}

describe('back office in Japanese', () => {
  it('audit log 区分 and compliance controls show Japanese names, never keys or 管理策 N', async () => {
    const { page } = t.b;
    const { logs } = await api<{ logs: string[][] }>('/api/audit-log');
    const cats = new Set(logs.map((r) => r[5]));
    expect([...cats].sort()).toEqual(['access', 'audit', 'ops', 'system']);
    await go('/compliance');
    const table = page.getByTestId('audit-log');
    for (const label of ['アクセス', '監査', '業務', 'システム']) await table.getByRole('cell', { name: label, exact: true }).first().waitFor();
    for (const key of cats) expect(await table.getByRole('cell', { name: key!, exact: true }).count()).toBe(0);
    const controls = page.getByTestId('controls');
    await controls.getByText('情報セキュリティ方針の策定と周知').waitFor();
    await controls.getByText('CC1 統制環境').waitFor();
    await controls.getByLabel('個人情報保護法 人的安全管理措置').waitFor();
    expect(await controls.getByText(/管理策\s*\d/).count()).toBe(0);
    // a 区分 typed in Japanese is stored as its key, so the report's per-category counts stay one list
    await table.getByRole('button', { name: '＋ 新規' }).click();
    await page.locator('#fm-action').fill('E2E 権限変更');
    await page.locator('#fm-cat').fill('セキュリティ');
    await page.getByTestId('form-save').click();
    await table.locator('tr', { hasText: 'E2E 権限変更' }).getByRole('cell', { name: 'セキュリティ', exact: true }).waitFor();
    const after = await api<{ logs: string[][] }>('/api/audit-log');
    expect(after.logs.find((r) => r[2] === 'E2E 権限変更')?.[5]).toBe('security');
    await shot(page, 'ja-01-compliance');
  });

  it('integration rules and log kinds are named in Japanese, no rule id on screen', async () => {
    const { page } = t.b;
    const { rules } = await api<{ rules: Record<string, boolean> }>('/api/integrations/rules');
    expect(Object.keys(rules)).toContain('r-ship');
    expect((await post('/api/integrations/log', { service: 'Intune', kind: 'sync', result: '成功' })).status).toBe(200);
    await go('/integrations');
    await page.getByTestId('rules').getByText('出荷時に顧客へ通知').waitFor();
    const text = (await page.locator('main').textContent()) ?? '';
    for (const id of Object.keys(rules)) expect(text).not.toContain(id);
    await page.getByRole('cell', { name: '同期', exact: true }).first().waitFor();
    expect(await page.getByRole('cell', { name: 'sync', exact: true }).count()).toBe(0);
  });

  it('a server error names the field in Japanese without its key', async () => {
    const { page } = t.b;
    await go('/invoices');
    await page.getByTestId('invoices').getByRole('button', { name: '＋ 新規' }).click();
    await page.locator('#fm-cust').fill('株式会社E2E月');
    await page.locator('#fm-amount').fill('1000');
    await page.locator('#fm-month').fill('2613');
    await page.getByTestId('form-save').click();
    const toast = page.getByText('月は YYMM 形式で指定してください（例: 2611）', { exact: false });
    await toast.first().waitFor();
    expect(await page.getByText('(month)').count()).toBe(0);
    await page.getByRole('dialog').getByRole('button', { name: 'キャンセル' }).click();
  });
});

describe('invoices', () => {
  it('periods are named (2026年11月), an issued invoice is locked on screen and by the server, its status still moves', async () => {
    const { page } = t.b;
    const created = await post<{ invoice: { id: string; month: string } }>('/api/invoice', { cust: '株式会社E2Eロック', amount: 50000, status: 'issued' });
    const { id, month } = created.body.invoice;
    await go('/invoices');
    await page.getByTestId('billing-period').getByText(`集計期間: ${monthLabel(month)}分`).waitFor();
    await page.getByRole('button', { name: `${monthLabel(month)}分を一括発行` }).waitFor();
    const row = page.getByTestId('invoices').locator('tr', { hasText: id });
    await row.waitFor();
    await row.getByRole('cell', { name: monthLabel(month), exact: true }).waitFor();
    await row.getByRole('button', { name: '編集' }).click();
    await page.getByTestId('form-locked').getByText('発行済の請求書は内容を変更できません').waitFor();
    for (const field of ['#fm-cust', '#fm-amount', '#fm-month', '#fm-desc', '#fm-due', '#fm-recurring']) expect(await page.locator(field).isDisabled(), field).toBe(true);
    await page.locator('#fm-status').selectOption('paid');
    await page.getByTestId('form-save').click();
    await row.getByText('入金済').waitFor();
    const stored = (await api<{ invoices: { id: string; status: string; amount: number }[] }>('/api/invoices')).invoices.find((i) => i.id === id);
    expect(stored).toMatchObject({ status: 'paid', amount: 50000 });
    const edit = await post<{ error: string; message: string }>(`/api/invoice/${id}`, { amount: 1 });
    expect(edit.status).toBe(409);
    expect(edit.body.error).toBe('invoice issued');
    await shot(page, 'ja-02-invoice-locked');
  });
});

describe('dates on daily screens', () => {
  it('the time clock and the home schedule name the day they show', async () => {
    const [y, m, d] = jstToday().split('-').map(Number);
    await go('/timeclock');
    await t.b.page.getByText(`本日（${y}年${m}月${d}日）の打刻`).waitFor();
    await go('/');
    await t.b.page.getByText(`本日の作業予定（${m}月${d}日）`).waitFor();
  });
});

describe('capacity from the job board and the dock', () => {
  it('open job cards due this week and dock bookings show in the week and the summary', async () => {
    const { page } = t.b;
    const today = jstToday();
    const before = await api<{ summary: { weekLoad: number; weekJobUnits: number } }>('/api/capacity');
    expect((await post('/api/job', { c: '株式会社E2E能力', t: 'iPhone 16 ×120台 初期設定', s: 3, due: today })).status).toBe(200);
    expect((await post('/api/dock/reservation', { date: today, start: '10:00', dur: 120, dir: '入荷', berth: '1', cust: '株式会社E2E能力' })).status).toBe(200);
    const after = await api<{ week: { date: string; jobUnits: number; dockBookings: number }[]; summary: { weekLoad: number; weekJobUnits: number; from: string; to: string } }>('/api/capacity');
    expect(after.summary.weekJobUnits).toBe(before.summary.weekJobUnits + 120);
    expect(after.summary.weekLoad).toBe(before.summary.weekLoad + 120);
    expect(after.week[0]).toMatchObject({ date: today, dockBookings: 1 });
    await go('/capacity');
    const [y, m, d] = today.split('-').map(Number);
    await page.getByTestId('capacity-period').getByText(`集計期間: ${y}年${m}月${d}日〜`).waitFor();
    const first = page.getByTestId('capacity-week').locator('tbody tr').first();
    await first.getByText(`${m}月${d}日`).waitFor();
    await first.getByRole('cell', { name: `${after.week[0]!.jobUnits.toLocaleString('ja-JP')} 台` }).first().waitFor();
    await first.getByText(/^1 件（\d+(\.\d)?%）$/).waitFor();
    await page.getByTestId('capacity-summary').locator('.kpi', { hasText: '今週の負荷 / 能力' }).getByText(new RegExp(`^${after.summary.weekLoad} / `)).waitFor();
    await page.getByTestId('capacity-summary').getByText(new RegExp(`^案件 ${after.summary.weekJobUnits} 台・予定 \\d+ 台$`)).waitFor();
    await shot(page, 'ja-03-capacity');
  });
});

describe('empty states and keyboard rows', () => {
  it('the team table without members says how members are added', async () => {
    const { members } = await api<{ members: unknown[] }>('/api/team/members');
    expect(members).toEqual([]);
    await go('/settings');
    await t.b.page.getByTestId('team-empty').getByText('チームメンバーはまだ登録されていません').waitFor();
    expect(await t.b.page.getByTestId('team-empty').textContent()).toContain('招待');
  });

  it('a list row with a detail opens by Tab + Enter and Tab + Space, without the mouse', async () => {
    const { page } = t.b;
    await go('/daas');
    const table = page.getByTestId('daas-quotes');
    await table.locator('tbody tr').first().waitFor();
    await table.getByLabel('DaaS見積を検索').focus();
    const first = await tabToRow();
    expect(first).not.toBeNull();
    await page.keyboard.press('Enter');
    const idOf = (text: string) => /DQ-[A-Za-z0-9]+-\d+/.exec(text)?.[0] ?? '';
    await page.getByTestId('daas-status').waitFor();
    await page.getByText(`DaaS見積 ${idOf(first!)}`).first().waitFor();
    // past the first row's own buttons to the next row, then Space
    const second = await tabToRow();
    expect(second).not.toBeNull();
    expect(idOf(second!)).not.toBe(idOf(first!));
    await page.keyboard.press(' ');
    await page.getByText(`DaaS見積 ${idOf(second!)}`).first().waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-current'))).toBe('true');
  });

  it('a job card opens for editing with Enter or Space, like a double click', async () => {
    const { page } = t.b;
    await go('/jobs');
    const card = page.locator('.card').first();
    await card.waitFor();
    const dialog = page.getByRole('dialog', { name: '案件を編集' });
    for (const key of ['Enter', ' ']) {
      await card.focus();
      await page.keyboard.press(key);
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
  });

  it('saved quotes and label templates open from the keyboard', async () => {
    const { page } = t.b;
    expect((await post('/api/labels/template', { name: 'E2E 資産ラベル', size: 'm' })).status).toBe(200);
    await go('/labels');
    const template = page.locator('tr.clickable', { hasText: 'E2E 資産ラベル' });
    await template.waitFor();
    expect(await template.getAttribute('tabindex')).toBe('0');
    await template.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => template.getAttribute('aria-current')).toBe('true');
    await go('/quotes');
    const rows = page.locator('tr.clickable');
    await rows.first().waitFor();
    const count = await rows.count();
    for (let i = 0; i < count; i++) expect(await rows.nth(i).getAttribute('tabindex')).toBe('0');
    const id = (await rows.first().locator('td').first().textContent())?.trim() ?? '';
    await rows.first().focus();
    await page.keyboard.press('Enter');
    await page.getByText(new RegExp(`^見積 ${id}`)).first().waitFor();
  });
});
