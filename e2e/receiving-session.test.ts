import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateImei } from '../shared/imei';
import { launch, scanKeys, startServer, type Browser, type RunningServer } from './harness.testkit';

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
  status: string;
}
const devices = async () => new Map(((await (await b.context.request.get(`${server.url}/api/devices`)).json()) as { devices: Dev[] }).devices.map((d) => [d.imei, d]));
const lastSound = () => b.page.evaluate(() => document.body.dataset.lastSound);

describe('入荷セッション', () => {
  it('a scan before the start is answered with a sound and a message, and registers nothing', async () => {
    const { page } = b;
    await page.goto(`${server.url}/#/receiving`);
    await page.getByTestId('receiving-setup').waitFor();
    const early = generateImei();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await scanKeys(page, early);
    await page.getByTestId('last-result').getByText('入荷設定がまだです').waitFor();
    expect(await lastSound()).toBe('error');
    expect((await devices()).has(early)).toBe(false);
  }, 60_000);

  it('Enter on the last field (a select) starts the session; the default state is 入荷済', async () => {
    const { page } = b;
    expect(await page.locator('#rc-status').inputValue()).toBe('入荷済');
    await page.locator('#rc-model').fill('iPhone 15');
    await page.locator('#rc-cust').fill('ABC物流株式会社');
    await page.locator('#rc-mdm').selectOption('Intune');
    await page.locator('#rc-loc').fill('入荷棚1');
    await page.locator('#rc-status').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('receiving-values').getByText('ABC物流株式会社').waitFor();
  }, 60_000);

  it('set-up and results survive going to another screen and a reload', async () => {
    const { page } = b;
    const imeis = [generateImei(), generateImei()];
    for (const imei of imeis) await scanKeys(page, imei);
    await page.getByTestId('receiving-count').locator('b').getByText('2', { exact: true }).waitFor();
    const ledger = await devices();
    for (const imei of imeis) expect(ledger.get(imei)?.status).toBe('入荷済');

    await page.goto(`${server.url}/#/ledger`);
    await page.getByTestId('ledger-list').waitFor();
    await page.goto(`${server.url}/#/receiving`);
    await page.getByTestId('receiving-values').getByText('ABC物流株式会社').waitFor();
    await page.getByTestId('receiving-count').locator('b').getByText('2', { exact: true }).waitFor();
    for (const imei of imeis) await page.getByTestId('receiving-results').getByText(imei).waitFor();

    await page.reload();
    await page.getByTestId('receiving-values').getByText('入荷棚1').waitFor();
    await page.getByTestId('receiving-count').locator('b').getByText('2', { exact: true }).waitFor();
    // the session carries on where it was: the next scan registers with the same set-up
    const next = generateImei();
    await scanKeys(page, next);
    await page.getByTestId('receiving-count').locator('b').getByText('3', { exact: true }).waitFor();
  }, 60_000);
});
