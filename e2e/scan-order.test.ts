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

const KNOWN = '353795089752529';

describe('the scan detector never reorders typed text', () => {
  it('a digit held by the detector goes before text an input method commits without key events', async () => {
    const { page } = b;
    await page.goto(`${server.url}/#/jobs`);
    await page.getByRole('button', { name: '＋ 新規案件' }).click();
    const title = page.locator('#jb-t');
    await title.waitFor();
    await title.focus();
    // ×, 5 (a key press the detector holds while it judges the pace), then 台 committed by the IME.
    await page.keyboard.insertText('×');
    await page.keyboard.press('5');
    await page.keyboard.insertText('台');
    await expect.poll(() => title.inputValue()).toBe('×5台');
  }, 60_000);

  it('held digits go before a composition (compositionstart … compositionend) that commits text', async () => {
    const { page } = b;
    const title = page.locator('#jb-t');
    await title.fill('');
    await title.focus();
    await page.keyboard.type('Q-2611-003');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.imeSetComposition', { text: '）', selectionStart: 1, selectionEnd: 1 });
    await cdp.send('Input.insertText', { text: '）' });
    await expect.poll(() => title.inputValue()).toBe('Q-2611-003）');
    await cdp.detach();
  }, 60_000);
  afterAll(async () => {
    await b.page.keyboard.press('Escape');
  });
});

describe('ラベル印刷', () => {
  it('starts with an empty preview and no print; a scan with its IMEI field focused chooses the device there', async () => {
    const { page } = b;
    await page.goto(`${server.url}/#/labels`);
    const preview = page.getByTestId('label-preview');
    await preview.waitFor();
    expect(await preview.getAttribute('data-state')).toBe('empty');
    expect(await page.getByRole('button', { name: '印刷', exact: true }).isDisabled()).toBe(true);
    const field = page.getByRole('textbox', { name: 'プレビュー端末のIMEI' });
    await field.focus();
    await scanKeys(page, KNOWN);
    await page.locator(`[data-testid="label-preview"][data-state="ready"][data-imei="${KNOWN}"]`).waitFor();
    expect(new URL(page.url()).hash).toBe('#/labels');
    expect(await field.inputValue()).toBe(KNOWN);
    // The preview is the server's layout: an SVG in millimetres with the QR code and the barcode.
    expect(await preview.locator('svg#qr').count()).toBe(1);
    expect(await preview.locator('svg#barcode').count()).toBe(1);
  }, 60_000);

  it('a scan with nothing focused also stays on ラベル印刷', async () => {
    const { page } = b;
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const other = generateImei();
    await scanKeys(page, other);
    await expect.poll(() => page.getByRole('textbox', { name: 'プレビュー端末のIMEI' }).inputValue()).toBe(other);
    expect(new URL(page.url()).hash).toBe('#/labels');
    await page.getByTestId('label-device').getByText('台帳に登録されていません').waitFor();
    expect(await page.getByRole('button', { name: '印刷', exact: true }).isDisabled()).toBe(true);
  }, 60_000);

  it('a browser print is logged as 送信済 with the device it was for', async () => {
    const { page } = b;
    const field = page.getByRole('textbox', { name: 'プレビュー端末のIMEI' });
    await field.fill(KNOWN);
    await page.locator(`[data-testid="label-preview"][data-state="ready"][data-imei="${KNOWN}"]`).waitFor();
    await page.evaluate(() => {
      // the print dialog itself is the browser's: count the calls instead of opening it
      const w = window as unknown as { printed: number };
      w.printed = 0;
      new MutationObserver((list) => {
        for (const m of list)
          for (const n of m.addedNodes)
            if (n instanceof HTMLIFrameElement && n.contentWindow) n.contentWindow.print = () => void w.printed++;
      }).observe(document.body, { childList: true });
    });
    await page.getByRole('button', { name: '印刷', exact: true }).click();
    const row = page.locator('tr[data-result="sent"]').first();
    await row.waitFor();
    expect(await row.textContent()).toContain(KNOWN);
    expect(await row.textContent()).toContain('送信済');
    expect(await row.textContent()).not.toContain('成功');
    const log = (await (await b.context.request.get(`${server.url}/api/labels/log`)).json()) as { log: Record<string, unknown>[] };
    expect(log.log[0]).toMatchObject({ result: 'sent', imei: KNOWN });
  }, 60_000);
});

describe('screens with their own IMEI field keep the scan', () => {
  it('証明書: a scan with its IMEI field focused adds the device to the certificate, and stays on the screen', async () => {
    const { page } = b;
    await page.goto(`${server.url}/#/certs`);
    const field = page.getByTestId('scan');
    await field.waitFor();
    await field.focus();
    await scanKeys(page, KNOWN);
    await page.getByTestId('cert-lines').getByText(KNOWN).waitFor();
    expect(new URL(page.url()).hash).toBe('#/certs');
  }, 60_000);

  it('案件ボード: a scan with its IMEI field focused is answered there (choose a card first), not by 端末台帳', async () => {
    const { page } = b;
    await page.goto(`${server.url}/#/jobs`);
    const field = page.getByTestId('scan');
    await field.waitFor();
    await field.focus();
    await scanKeys(page, KNOWN);
    await page.getByTestId('scan-msg').getByText('先に案件カードを選んでください').waitFor();
    expect(new URL(page.url()).hash).toBe('#/jobs');
  }, 60_000);
});
