/**
 * The packaged bench app, run for real: Playwright's Electron support launches the Linux build
 * (electron-builder's linux-unpacked folder, or KITTING_DESKTOP_EXECUTABLE) and drives one bench
 * flow in its real window. Where no Electron binary exists (no packaged app, Electron's download
 * unavailable) the test is skipped and says why; .github/workflows/desktop.yml runs it under Xvfb.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { generateImei } from '../../shared/imei';
import { ROOT } from '../harness.testkit';

/** The packaged executable, or the reason there is none on this machine. */
export function findDesktopExecutable(env: NodeJS.ProcessEnv = process.env): { path: string } | { reason: string } {
  const given = env.KITTING_DESKTOP_EXECUTABLE;
  if (given) return existsSync(given) ? { path: given } : { reason: `KITTING_DESKTOP_EXECUTABLE=${given} does not exist` };
  const dir = join(ROOT, 'release', 'linux-unpacked');
  if (!existsSync(dir)) return { reason: `no packaged Electron app: ${dir} is missing (run \`npx electron-builder --linux dir\` where Electron can be downloaded)` };
  const exe = readdirSync(dir).find((f) => /^kitting-station$/i.test(f) || /^Kitting Station$/.test(f));
  return exe ? { path: join(dir, exe) } : { reason: `no Electron executable in ${dir}` };
}

const found = findDesktopExecutable();
const skipReason = 'reason' in found ? found.reason : null;
if (skipReason) console.warn(`[desktop e2e] skipped: ${skipReason}`);

const home = mkdtempSync(join(tmpdir(), 'ks-desktop-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function launchApp(): Promise<{ app: ElectronApplication; win: Page }> {
  if (!('path' in found)) throw new Error(skipReason ?? 'no executable');
  // XDG_CONFIG_HOME gives the app a fresh userData folder (data/kitting.db) kept between the two launches.
  const app = await electron.launch({ executablePath: found.path, args: ['--no-sandbox'], env: { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), HOME: home } });
  const win = await app.firstWindow();
  await win.waitForLoadState('domcontentloaded');
  return { app, win };
}

const scan = async (win: Page, code: string) => {
  await win.keyboard.type(code, { delay: 8 });
  await win.keyboard.press('Enter');
};

describe.skipIf(skipReason !== null)('packaged desktop app (Electron, real window)', () => {
  const imei = generateImei();

  it('a scan registers a device, a certificate is issued and its PDF saved, a label goes to a PDF printer, and the app quits cleanly', async () => {
    const { app, win } = await launchApp();
    await win.evaluate(() => (window.location.hash = '#/receiving'));
    await win.locator('#rc-model').waitFor();
    await win.keyboard.type('iPhone 15');
    await win.keyboard.press('Tab');
    await win.keyboard.type('社内検証機');
    await win.locator('#rc-mdm').selectOption('Intune');
    await win.locator('#rc-loc').focus();
    await win.keyboard.press('Enter');
    await win.getByTestId('receiving-values').waitFor();
    await scan(win, imei);
    await win.getByTestId('receiving-count').locator('b').getByText('1', { exact: true }).waitFor();

    await win.evaluate(() => (window.location.hash = '#/certs'));
    await win.locator('#ct-operator').waitFor();
    await scan(win, imei);
    await win.getByTestId('cert-lines').getByText(imei).waitFor();
    await win.locator('#ct-cust').fill('社内検証機');
    await win.locator('#ct-operator').fill('デスクトップ 検証');
    await win.getByTestId('cert-issue').click();
    await win.getByRole('dialog', { name: '確認' }).getByRole('button', { name: '発行する' }).click();
    const issued = win.getByTestId('cert-issued');
    await issued.waitFor();
    const no = /KIT-ERZ-\d{4}-\d{4}/.exec(await issued.innerText())?.[0] ?? '';
    const pdf = await win.evaluate(async (n) => {
      const r = await fetch(`/api/cert/${n}/pdf`);
      return Array.from(new Uint8Array(await r.arrayBuffer()));
    }, no);
    const saved = join(home, `${no}.pdf`);
    writeFileSync(saved, Buffer.from(pdf));
    expect(Buffer.from(pdf).subarray(0, 4).toString()).toBe('%PDF');

    const printer = process.env.KITTING_DESKTOP_PDF_PRINTER ?? 'PDF';
    const printed = await win.evaluate(
      async (p) => {
        const station = (window as unknown as { station?: { printLabel(r: unknown): Promise<{ ok: boolean; reason?: string }> } }).station;
        if (!station) return { ok: false, reason: 'no window.station bridge' };
        return station.printLabel({ html: '<div style="font-size:12px">HK-26-0001 社内検証機</div>', widthMm: 50, heightMm: 30, printer: p, copies: 1, size: 'm' });
      },
      printer,
    );
    expect(printed).toEqual({ ok: true });

    const exited = new Promise<number | null>((r) => app.process().once('exit', (code) => r(code)));
    await app.close();
    expect(await exited).toBe(0);
  }, 180_000);

  it('a second launch finds the data of the first', async () => {
    const { app, win } = await launchApp();
    const devices = await win.evaluate(async () => ((await (await fetch('/api/devices')).json()) as { devices: { imei: string; status: string }[] }).devices);
    expect(devices.find((d) => d.imei === imei)?.status).toBe('消去済');
    await app.close();
  }, 120_000);
});

describe.runIf(skipReason !== null)('packaged desktop app', () => {
  it.skip(`skipped here: ${skipReason ?? ''}`, () => undefined);
});
