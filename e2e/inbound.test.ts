import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvFile, noticeRows, testImei } from '../server/kitting/modules/inbound/inbound.testkit';
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

const scan = (code: string) => scanKeys(b.page, code, 'Enter');
const sound = () => b.page.evaluate(() => document.body.dataset.lastSound);

describe('入荷セッション「入荷予定から」', () => {
  it('imports a Shift_JIS notice with a preview and row errors, then receives against it keyboard-only and closes with a report', async () => {
    const { page } = b;
    await page.goto(`${server.url}/#/receiving`);
    // Focus starts in the plain session's first field; Shift+Tab reaches the mode tabs, Enter switches.
    await page.getByTestId('receiving-setup').waitFor();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByTestId('inbound-picker').waitFor();

    // Upload: preview with the detected columns, the first rows and the bad row with its row number.
    const rows = noticeRows(5, 7000);
    rows.push(['6', 'iPhone 15', '35209900700', 'SNBAD', '']);
    await page.getByTestId('inbound-open-upload').click();
    await page.locator('#ib-cust').fill('ABC物流株式会社');
    await page.getByTestId('inbound-file').setInputFiles({ name: '入荷予定_11月.csv', mimeType: 'text/csv', buffer: csvFile(rows, { encoding: 'shift_jis' }) });
    const preview = page.getByTestId('inbound-preview');
    await preview.waitFor();
    expect(await preview.textContent()).toContain('Shift_JIS');
    expect(await preview.textContent()).toContain('IMEI: C列');
    expect(await page.getByTestId('inbound-preview-summary').textContent()).toContain('取込可能 5 台');
    expect(await page.getByTestId('inbound-row-errors').textContent()).toContain('7行目: IMEIが15桁の数字ではありません');
    expect(await page.locator('#ib-name').inputValue()).toBe('入荷予定_11月');
    await shot(page, '40-inbound-upload');
    await page.getByTestId('inbound-import').click();
    await page.getByTestId('inbound-picker').getByText('取り込まない行（1行）').waitFor();

    // Keyboard-only from here: the list is focused, Enter starts, scans are checked against it.
    await page.locator('#ib-pick').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('inbound-session').waitFor();
    const counts = page.getByTestId('inbound-counts');
    expect(await page.getByTestId('inbound-expected').textContent()).toBe('5');

    for (const i of [7000, 7001, 7002]) await scan(testImei(i));
    await page.getByTestId('inbound-received').getByText('3', { exact: true }).waitFor();
    expect(await page.getByTestId('inbound-remaining').textContent()).toBe('2');
    expect(await sound()).toBe('ok');

    await scan(testImei(7001));
    await page.getByTestId('last-scan').and(page.locator('[data-state="duplicate"]')).waitFor();
    expect(await sound()).toBe('duplicate');

    const stranger = testImei(7999);
    await scan(stranger);
    await page.getByTestId('last-scan').and(page.locator('[data-state="unexpected"]')).waitFor();
    expect(await sound()).toBe('error');
    expect(await page.getByTestId('inbound-unexpected').textContent()).toBe('1');

    await scan('352099007000018');
    await page.getByTestId('last-scan').and(page.locator('[data-state="invalid"]')).waitFor();

    // Ctrl+Enter registers the last unexpected device after all.
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('last-scan').and(page.locator('[data-state="registered"]')).waitFor();
    expect(await counts.textContent()).toContain('予定外 1');
    await shot(page, '41-inbound-session');

    const devices = (await (await b.context.request.get(`${server.url}/api/devices`)).json()) as { devices: { imei: string; cust: string; model: string }[] };
    const byImei = new Map(devices.devices.map((d) => [d.imei, d]));
    expect(byImei.get(testImei(7001))).toMatchObject({ cust: 'ABC物流株式会社', model: 'iPhone 15' });
    expect(byImei.get(stranger)).toMatchObject({ cust: 'ABC物流株式会社' });

    await page.getByTestId('inbound-close').click();
    await page.getByRole('button', { name: '締める' }).click();
    const report = page.getByTestId('inbound-report');
    await report.waitFor();
    expect(await report.textContent()).toContain('未着 2台');
    const href = await report.getByText('入荷差異報告書（PDF）').getAttribute('href');
    const pdf = await b.context.request.get(`${server.url}${href ?? ''}`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
  }, 120_000);
});
