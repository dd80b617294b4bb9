/**
 * E2E harness: a real server process on loopback with a fresh data folder, and Chromium driven
 * through playwright-core (found or provisioned by ./browser.testkit.ts; the test run does it once in its
 * global setup). The UI must be built first (`npm run build:ui`, which `npm test` does).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { ensureChromium, UNAVAILABLE_VAR } from './browser.testkit';

export const ROOT = resolve(import.meta.dirname, '..');
const SHOTS = join(ROOT, 'test-results', 'screenshots');
/** The browser to drive: the one the test run found or installed, else found (or installed) now. */
export function chromiumPath(): string {
  const unavailable = process.env[UNAVAILABLE_VAR];
  if (unavailable) throw new Error(unavailable);
  return ensureChromium().path;
}
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface RunningServer {
  url: string;
  dataDir: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync(join(ROOT, 'renderer', 'dist', 'index.html'))) throw new Error('renderer/dist is missing: run `npm run build:ui` first');
  const dataDir = mkdtempSync(join(tmpdir(), 'ks-e2e-'));
  const proc = spawn(process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(ROOT, 'server', 'kitting', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', KITTING_DATA_DIR: dataDir, KITTING_LOG: '0', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((res, rej) => {
    const t = setTimeout(() => rej(new Error(`server did not start in 20 s:\n${out}`)), 20_000);
    const on = (b: Buffer) => {
      out += b.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(t);
        res(m[1]);
      }
    };
    proc.stdout?.on('data', on);
    proc.stderr?.on('data', on);
    proc.on('exit', (code) => {
      clearTimeout(t);
      rej(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    dataDir,
    proc,
    stop: async () => {
      if (proc.exitCode === null) {
        const done = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await Promise.race([done, new Promise((r) => setTimeout(r, 5000))]);
        if (proc.exitCode === null) proc.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** One Chromium per test file, with a fresh user-data dir. */
export async function launch(): Promise<Browser> {
  const executablePath = chromiumPath();
  const profile = mkdtempSync(join(tmpdir(), 'ks-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1440, height: 900 },
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

const cdpSessions = new WeakMap<Page, Promise<CDPSession>>();

/**
 * A keyboard-wedge scanner: the digits `gapMs` apart, then Enter or Tab, as the page's keyboard events
 * see them. The keys are stamped (event.timeStamp) on a scanner's clock rather than taking their pace from
 * this machine: a loaded test machine delays delivery, never the stamps, so the app's burst recognition
 * sees the same 8 ms scan on every run. The stamps run a few seconds ahead of the page clock, so the
 * app's pause timer (measured on the same clock) cannot split the burst while it is being delivered.
 */
export async function scanKeys(page: Page, code: string, end: 'Enter' | 'Tab' = 'Enter', gapMs = 8): Promise<void> {
  let session = cdpSessions.get(page);
  if (!session) {
    session = page.context().newCDPSession(page);
    cdpSessions.set(page, session);
  }
  const cdp = await session;
  const base = Date.now() / 1000 + 5;
  let i = 0;
  const at = () => base + (i++ * gapMs) / 1000;
  for (const ch of code) {
    const d = ch.charCodeAt(0);
    const key = { key: ch, code: /\d/.test(ch) ? `Digit${ch}` : '', windowsVirtualKeyCode: d, nativeVirtualKeyCode: d };
    const t = at();
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...key, text: ch, unmodifiedText: ch, timestamp: t });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...key, timestamp: t + 0.001 });
  }
  const t = at();
  if (end === 'Enter') {
    const key = { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, nativeVirtualKeyCode: 13 };
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...key, text: '\r', unmodifiedText: '\r', timestamp: t });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...key, timestamp: t + 0.001 });
  } else {
    const key = { key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9, nativeVirtualKeyCode: 9 };
    await cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', ...key, timestamp: t });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...key, timestamp: t + 0.001 });
  }
}
