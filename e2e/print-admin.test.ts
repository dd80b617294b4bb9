import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, shot, startServer, type Browser, type RunningServer } from './harness.testkit';

/**
 * A label printed from the browser carries the app's bundled Japanese font (a PC without Japanese system
 * fonts would print boxes otherwise), and the admin console opened on a bench says where administration lives.
 */
let server: RunningServer;
let b: Browser;

beforeAll(async () => {
  server = await startServer();
  b = await launch();
  b.page.setDefaultTimeout(8000);
}, 60_000);
afterAll(async () => {
  await b?.close();
  await server?.stop();
});

interface Printed {
  css: string;
  body: string;
  labelFont: string;
  faces: { family: string; status: string }[];
  fontReady: boolean;
}

describe('label printed from the browser', () => {
  it('the print frame loads the bundled Japanese font before printing, and the label text uses it', async () => {
    const { page } = b;
    await page.goto(`${server.url}/#/labels`);
    await page.getByTestId('label-preview').waitFor();
    // the preview is empty until a device is chosen; then it is the server's label for that device
    const { devices } = (await (await b.context.request.get(`${server.url}/api/devices`)).json()) as { devices: { imei: string; cust: string }[] };
    const dev = devices.find((d) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(d.cust ?? ''))!;
    await page.getByRole('textbox', { name: 'プレビュー端末のIMEI' }).fill(dev.imei);
    await page.locator(`[data-testid="label-preview"][data-state="ready"][data-imei="${dev.imei}"]`).waitFor();
    const cust = dev.cust;
    // Record what the print frame holds at the moment print() is called, instead of opening a dialog.
    await page.evaluate(() => {
      const w = window as unknown as { __printed: unknown[] };
      w.__printed = [];
      new MutationObserver((changes) => {
        for (const c of changes)
          for (const n of c.addedNodes) {
            if (!(n instanceof HTMLIFrameElement) || !n.contentWindow) continue;
            const frame = n;
            frame.contentWindow!.print = () => {
              const doc = frame.contentDocument!;
              const label = doc.querySelector('svg g[font-family]');
              w.__printed.push({
                css: [...doc.querySelectorAll('style')].map((s) => s.textContent ?? '').join('\n'),
                body: doc.body.textContent ?? '',
                labelFont: label ? getComputedStyle(label).fontFamily : '',
                faces: [...doc.fonts].map((f) => ({ family: f.family, status: f.status })),
                fontReady: doc.fonts.check("12px 'Noto Sans JP'", doc.body.textContent ?? ''),
              });
            };
          }
      }).observe(document.body, { childList: true });
    });
    await page.getByRole('button', { name: '印刷', exact: true }).click();
    await page.waitForFunction(() => (window as unknown as { __printed: unknown[] }).__printed.length > 0);
    const [printed] = await page.evaluate(() => (window as unknown as { __printed: Printed[] }).__printed);
    expect(printed!.body).toContain(cust);
    // the server's TTF (the font its PDFs and labels use), not a copy shipped in the renderer bundle
    const src = /@font-face\{font-family:'Noto Sans JP';src:url\('([^']+)'\)/.exec(printed!.css)?.[1];
    expect(src, printed!.css).toBe(`${server.url}/api/labels/font.ttf`);
    expect(printed!.labelFont).toContain('Noto Sans JP');
    // print() ran only once the face had loaded, so every glyph of the label is drawn from it
    expect(printed!.faces).toContainEqual({ family: 'Noto Sans JP', status: 'loaded' });
    expect(printed!.fontReady).toBe(true);
    const font = await b.context.request.get(src!);
    expect(font.status()).toBe(200);
    expect((await font.body()).subarray(0, 4).toString('hex')).toBe('00010000');
    await page.getByText('1枚を印刷ダイアログへ送信しました').waitFor();
  });
});

describe('admin console on a bench', () => {
  it('the menu says the console is on the central server', async () => {
    await b.page.goto(`${server.url}/#/`);
    await b.page.getByText('管理コンソールは中央サーバーにあります').waitFor();
    expect(await b.page.getByTestId('admin-link').count()).toBe(0);
  });

  it('/admin.html explains that administration lives on the central server, and sign-in says so instead of not_found', async () => {
    const { page } = b;
    await page.goto(`${server.url}/admin.html`);
    const notice = page.getByTestId('admin-bench-notice');
    await notice.getByText('この作業台には管理機能はありません。').waitFor();
    expect(await notice.innerText()).toContain('中央サーバーの管理コンソール');
    expect(await notice.getByRole('link', { name: '作業台の画面に戻る' }).getAttribute('href')).toBe('/#/settings');
    await page.getByLabel('パスワード').fill('anything');
    await page.getByRole('button', { name: 'サインイン' }).click();
    const error = page.locator('form [role="alert"]');
    await error.getByText('中央サーバーの管理コンソールでサインインしてください').waitFor();
    expect(await error.innerText()).not.toContain('not_found');
    expect(await error.innerText()).not.toContain('対象が見つかりません');
    await shot(page, 'admin-bench-notice');
  });
});
