import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, shot, startServer, type Browser, type RunningServer } from './harness.testkit';

const PASSWORD = 'e2e-admin-pass-7391';
let server: RunningServer;
let b: Browser;

beforeAll(async () => {
  server = await startServer({ KITTING_MODE: 'central', KITTING_ADMIN_PASSWORD: PASSWORD });
  b = await launch();
}, 60_000);
afterAll(async () => {
  await b?.close();
  await server?.stop();
});

describe('customer portal page', () => {
  let portalUrl = '';

  it('opens a published portal link: masked device list, tickets and the inquiry form', async () => {
    const { page, context } = b;
    // The browser's own (anonymous) workspace: the cookie jar is shared with page requests. It is made by one
    // request first, so the page's first calls and these requests cannot race to create two workspaces.
    await context.request.get(`${server.url}/api/devices`);
    await page.goto(`${server.url}/#/customers`);
    await page.getByText('顧客一覧').waitFor();
    const state = (await (await context.request.get(`${server.url}/api/portals`)).json()) as { state: Record<string, unknown> };
    const key = Object.keys(state.state).find((k) => !k.startsWith('_'));
    expect(key).toBeTruthy();
    const issued = (await (await context.request.post(`${server.url}/api/portal/issue`, { data: { custId: key } })).json()) as { url: string };
    expect(issued.url).toMatch(/^\/portal\.html\?t=/);
    // publishing is its own control (issuing a link does not publish)
    await context.request.post(`${server.url}/api/portal/${key}`, { data: { action: 'toggle', published: true } });
    portalUrl = `${server.url}${issued.url}`;

    await page.goto(portalUrl);
    const rows = page.getByTestId('portal-devices').locator('tbody tr');
    await rows.first().waitFor();
    const imeiCell = await rows.first().locator('td').first().innerText();
    expect(imeiCell.replace(/\D/g, '').length).toBeLessThanOrEqual(6);
    await page.getByText('お問い合わせ・故障のご連絡').waitFor();
    await shot(page, '30-portal');

    await page.locator('#pi-kind').selectOption('故障');
    await page.locator('#pi-msg').fill('営業部の iPhone 15 が起動しません。');
    await page.locator('#pi-name').fill('山田 太郎');
    await page.getByRole('button', { name: '送信する' }).click();
    const sent = page.getByTestId('portal-sent');
    await sent.waitFor();
    const ticketId = /TK-P[0-9A-Z-]+/i.exec(await sent.innerText())?.[0];
    expect(ticketId).toBeTruthy();
    const { tickets } = (await (await context.request.get(`${server.url}/api/tickets`)).json()) as { tickets: { id: string; kind: string }[] };
    expect(tickets.find((t) => t.id === ticketId)?.kind).toBe('故障');
  });

  it('shows a clear page for an altered or missing link', async () => {
    const { page } = b;
    await page.goto(`${portalUrl}x`);
    await page.getByTestId('portal-invalid').getByText('このリンクは無効です').waitFor();
    await shot(page, '31-portal-invalid');
    await page.goto(`${server.url}/portal.html`);
    await page.getByTestId('portal-invalid').waitFor();
  });
});

describe('central admin console', () => {
  it('is linked from the menu of the central server window', async () => {
    const { page } = b;
    await page.goto(`${server.url}/#/`);
    const link = page.getByTestId('admin-link');
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('/admin.html');
    expect(await link.innerText()).toContain('管理コンソール');
  });

  it('refuses a wrong password in Japanese, then signs in and lists tenants with stats', async () => {
    const { page } = b;
    await page.goto(`${server.url}/admin.html`);
    await page.getByLabel('パスワード').fill('wrong');
    await page.getByRole('button', { name: 'サインイン' }).click();
    await page.getByRole('alert').getByText('パスワードが違います').waitFor();
    await page.getByLabel('パスワード').fill(PASSWORD);
    await page.getByRole('button', { name: 'サインイン' }).click();
    await page.getByText('管理コンソール').first().waitFor();
    await page.getByLabel('新しいテナント名').fill('E2E テナント株式会社');
    await page.getByRole('button', { name: '作成' }).click();
    await page.getByTestId('tenants').getByText('E2E テナント株式会社').waitFor();
    await shot(page, '32-admin-tenants');
    await page.getByTestId('tenants').getByText('E2E テナント株式会社').click();
    await page.getByRole('dialog').getByText('テナント詳細').waitFor();
    await shot(page, '33-admin-tenant');
    await page.getByRole('dialog').getByRole('button', { name: '閉じる' }).click();
    for (const [tab, name] of [
      ['サブ管理者', '34-admin-subadmins'],
      ['ワークスペース・プラン', '35-admin-workspaces'],
      ['バックアップ', '36-admin-backups'],
    ] as const) {
      await page.getByRole('button', { name: tab, exact: true }).click();
      await page.waitForFunction(() => !document.querySelector('.spinner'), undefined, { timeout: 10_000 });
      await shot(page, name);
    }
  });
});
