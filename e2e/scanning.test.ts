import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateImei } from '../shared/imei';
import { launch, scanKeys, shot, startServer, type Browser, type RunningServer } from './harness.testkit';

let server: RunningServer;
let b: Browser;

beforeAll(async () => {
  server = await startServer();
  b = await launch();
}, 60_000);
afterAll(async () => {
  await b?.close();
  await server?.stop();
});

interface Dev {
  imei: string;
  model: string;
  cust: string;
  mdm: string;
  loc: string;
  status: string;
}
const devices = async () => (await (await b.context.request.get(`${server.url}/api/devices`)).json()).devices as Dev[];
/** A keyboard-wedge scanner: digits 8 ms apart (on the scanner's clock, whatever the machine's load), then Enter or Tab. */
const scan = (code: string, end: 'Enter' | 'Tab' = 'Enter') => scanKeys(b.page, code, end);
const KNOWN = '353795089752529';

describe('receiving session (入荷セッション)', () => {
  it('registers 30 new IMEIs scanned keyboard-only, none lost, including scans made while one is still saving', async () => {
    const { page } = b;
    // Hold the first registration until every scan has been made, so the other 29 arrive while it saves.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let held = false;
    await page.route('**/api/device', async (route) => {
      if (route.request().method() === 'POST' && !held) {
        held = true;
        await gate;
      }
      await route.continue();
    });
    await page.goto(`${server.url}/#/receiving`);
    await page.getByTestId('receiving-setup').waitFor();
    // Focus starts in the first field: choose model, customer, MDM and location once.
    await page.keyboard.type('iPhone 15');
    await page.keyboard.press('Tab');
    await page.keyboard.type('ABC物流株式会社');
    await page.keyboard.press('Tab');
    await page.locator('#rc-mdm').selectOption('LANSCOPE');
    await page.keyboard.press('Tab');
    await page.keyboard.type('入荷棚2');
    await page.keyboard.press('Enter');
    await page.getByTestId('receiving-values').getByText('ABC物流株式会社').waitFor();

    const imeis = Array.from({ length: 30 }, () => generateImei());
    for (const imei of imeis) await scan(imei);
    await page.getByTestId('receiving-count').getByText('処理中 30').waitFor();
    expect(await page.getByTestId('receiving-results').locator('tr[data-state="waiting"], tr[data-state="saving"]').count()).toBe(30);
    release();
    await page.getByTestId('receiving-count').locator('b').getByText('30', { exact: true }).waitFor();
    await page.unroute('**/api/device');
    expect(await page.getByTestId('receiving-results').locator('tr[data-state="ok"]').count()).toBe(30);
    await page.getByTestId('last-imei').getByText(imeis[29] ?? '').waitFor();
    expect(await page.evaluate(() => document.body.dataset.lastSound)).toBe('ok');

    const byImei = new Map((await devices()).map((d) => [d.imei, d]));
    for (const imei of imeis) expect(byImei.get(imei)).toMatchObject({ model: 'iPhone 15', cust: 'ABC物流株式会社', mdm: 'LANSCOPE', loc: '入荷棚2', status: '入荷済' });
    await shot(page, '20-receiving');
  }, 90_000);

  it('a repeated or known IMEI is reported as a duplicate, a misread as an error showing the value read', async () => {
    const { page } = b;
    await scan(KNOWN);
    await page.getByTestId('last-scan').and(page.locator('[data-state="duplicate"]')).waitFor();
    expect(await page.evaluate(() => document.body.dataset.lastSound)).toBe('duplicate');
    await scan('353795089752528');
    await page.getByTestId('last-result').getByText('チェックディジット').waitFor();
    await page.getByTestId('last-imei').getByText('353795089752528').waitFor();
    expect(await page.evaluate(() => document.body.dataset.lastSound)).toBe('error');
    await page.getByTestId('receiving-count').locator('b').getByText('30', { exact: true }).waitFor();
  }, 90_000);

  it('undo removes the last registered device from the ledger', async () => {
    const { page } = b;
    const imei = generateImei();
    await scan(imei);
    await page.getByTestId('receiving-count').locator('b').getByText('31', { exact: true }).waitFor();
    await page.keyboard.press('Control+z');
    await page.getByTestId('receiving-count').locator('b').getByText('30', { exact: true }).waitFor();
    await page.getByTestId('last-result').getByText('取り消しました').waitFor();
    expect((await devices()).some((d) => d.imei === imei)).toBe(false);
  }, 90_000);
});

describe('scans wherever focus is', () => {
  it('a scan with the ledger search box focused opens the device and types nothing into the box; slow typing still types', async () => {
    const { page } = b;
    await page.goto(`${server.url}/#/ledger`);
    await page.getByTestId('ledger-list').waitFor();
    const search = page.getByRole('textbox', { name: '検索' });
    await search.focus();
    await scan(KNOWN);
    await page.getByTestId('device-editor').getByText(KNOWN).waitFor();
    expect(await search.inputValue()).toBe('');
    // A person typing (well over the scanner's key interval) still types into the box.
    await search.focus();
    await page.keyboard.type('iPhone 14', { delay: 120 });
    await expect.poll(() => search.inputValue()).toBe('iPhone 14');
    await search.fill('');
  }, 90_000);

  it('the ledger list is walked with the arrow keys: Home, ArrowDown, then Enter goes to the editor', async () => {
    const { page } = b;
    const rows = page.getByTestId('ledger-list').locator('.vrow');
    await rows.nth(1).waitFor();
    const first = await rows.nth(0).getAttribute('data-imei');
    const second = await rows.nth(1).getAttribute('data-imei');
    await page.getByTestId('ledger-grid').focus();
    await page.keyboard.press('Home');
    await page.getByTestId('device-editor').getByText(first ?? '-').waitFor();
    await page.keyboard.press('ArrowDown');
    await page.getByTestId('device-editor').getByText(second ?? '-').waitFor();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('ed-status');
  }, 90_000);

  it('a scan on ホーム with nothing focused opens the device in the ledger; an unknown IMEI starts registration', async () => {
    const { page } = b;
    await page.goto(`${server.url}/#/`);
    await page.getByText('本日の作業予定').waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await scan(KNOWN, 'Tab');
    await page.getByTestId('device-editor').getByText(KNOWN).waitFor();
    expect(new URL(page.url()).hash).toBe('#/ledger');
    await page.goto(`${server.url}/#/`);
    await page.getByText('本日の作業予定').waitFor();
    await page.getByRole('button').first().focus();
    const imei = generateImei();
    await scan(imei);
    await page.getByRole('dialog', { name: '未登録の端末を登録' }).getByText(imei).waitFor();
  }, 90_000);

  it('a dialog traps focus: Tab and Shift+Tab never leave it, and it is aria-modal', async () => {
    const { page } = b;
    const dialog = page.getByRole('dialog', { name: '未登録の端末を登録' });
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    const inside = () => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'));
    expect(await inside()).toBe(true);
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press('Tab');
      expect(await inside()).toBe(true);
    }
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await inside()).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  }, 90_000);
});
