import { describe, expect, it } from 'vitest';
import { ensureChromium, findChromium, provisionPlan, type BrowserProbe, type Runner } from './browser.testkit';

const PW = '/home/u/.cache/ms-playwright/chromium-1/chrome-linux64/chrome';

/** A machine described by hand: which files exist, whether root, sudo and apt. */
function machine(over: Partial<Omit<BrowserProbe, 'isExecutable'>> & { files?: string[] } = {}): BrowserProbe & { files: Set<string> } {
  const files = new Set(over.files ?? []);
  return {
    env: over.env ?? { PATH: '/usr/local/bin:/usr/bin:/bin' },
    files,
    isExecutable: (p) => files.has(p),
    playwrightPath: over.playwrightPath ?? (() => PW),
    isRoot: over.isRoot ?? false,
    hasSudo: over.hasSudo ?? (() => false),
    hasApt: over.hasApt ?? (() => true),
  };
}

/** Records the commands and makes the ones matching `installs` create a file. */
function runner(effects: { match: string; creates?: string; fails?: boolean }[], files: Set<string>): Runner & { calls: string[] } {
  const calls: string[] = [];
  const run = (cmd: string[]) => {
    const line = cmd.join(' ');
    calls.push(line);
    const e = effects.find((x) => line.includes(x.match));
    if (e?.fails) return { ok: false, output: 'E: Unable to locate package chromium' };
    if (e?.creates) files.add(e.creates);
    return { ok: true, output: '' };
  };
  return Object.assign(run, { calls });
}

const quiet = () => undefined;

describe('finding a browser', () => {
  it('prefers KITTING_CHROMIUM, then CHROME_PATH, over system installs', () => {
    const m = machine({ env: { KITTING_CHROMIUM: '/opt/c/chrome', CHROME_PATH: '/opt/x/chrome' }, files: ['/opt/c/chrome', '/opt/x/chrome', '/usr/bin/chromium'] });
    expect(findChromium(m)).toEqual({ ok: true, found: { path: '/opt/c/chrome', source: 'override' } });
    const m2 = machine({ env: { CHROME_PATH: '/opt/x/chrome' }, files: ['/opt/x/chrome', '/usr/bin/chromium'] });
    expect(findChromium(m2)).toEqual({ ok: true, found: { path: '/opt/x/chrome', source: 'override' } });
  });

  it('reports an override that points nowhere instead of silently using another browser', () => {
    const m = machine({ env: { KITTING_CHROMIUM: '/nowhere/chrome' }, files: ['/usr/bin/chromium'] });
    expect(findChromium(m)).toEqual({ ok: false, reason: 'KITTING_CHROMIUM=/nowhere/chrome is not an executable browser' });
    expect(() => ensureChromium(m, runner([], m.files), quiet)).toThrow(/KITTING_CHROMIUM=\/nowhere\/chrome is not an executable browser/);
  });

  it("uses Debian's /usr/bin/chromium, then a browser on PATH, then Playwright's", () => {
    expect(findChromium(machine({ files: ['/usr/bin/chromium', PW] }))).toEqual({ ok: true, found: { path: '/usr/bin/chromium', source: 'system' } });
    expect(findChromium(machine({ files: ['/usr/local/bin/google-chrome', PW] }))).toEqual({ ok: true, found: { path: '/usr/local/bin/google-chrome', source: 'system' } });
    expect(findChromium(machine({ files: [PW] }))).toEqual({ ok: true, found: { path: PW, source: 'playwright' } });
    expect(findChromium(machine())).toEqual({ ok: false, reason: 'no Chromium or Chrome found' });
  });
});

describe('provisioning a browser', () => {
  it('as root: apt-get update, then apt-get install chromium, nothing else', () => {
    const m = machine({ isRoot: true });
    const run = runner([{ match: 'apt-get install', creates: '/usr/bin/chromium' }], m.files);
    expect(ensureChromium(m, run, quiet)).toEqual({ path: '/usr/bin/chromium', source: 'system' });
    expect(run.calls).toEqual(['apt-get update -qq', 'env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium']);
  });

  it('with passwordless sudo: the same through sudo -n', () => {
    const m = machine({ hasSudo: () => true });
    const run = runner([{ match: 'apt-get install', creates: '/usr/bin/chromium' }], m.files);
    ensureChromium(m, run, quiet);
    expect(run.calls.every((c) => c.startsWith('sudo -n '))).toBe(true);
    expect(run.calls[0]).toBe('sudo -n apt-get update -qq');
  });

  it("neither root nor sudo: Playwright's own install, and its browser is used", () => {
    const m = machine();
    const run = runner([{ match: 'install --no-shell chromium', creates: PW }], m.files);
    expect(ensureChromium(m, run, quiet)).toEqual({ path: PW, source: 'playwright' });
    expect(run.calls).toHaveLength(1);
    expect(run.calls[0]).toMatch(/playwright-core\/cli\.js install --no-shell chromium$/);
    expect(provisionPlan(m, 'cli.js', 'node').map((s) => s.label)).toEqual(["Playwright's Chromium download"]);
  });

  it("falls back to Playwright when apt-get fails, and to nothing on a machine without apt", () => {
    const m = machine({ isRoot: true });
    const run = runner([{ match: 'apt-get install', fails: true }, { match: 'install --no-shell', creates: PW }], m.files);
    expect(ensureChromium(m, run, quiet).path).toBe(PW);
    expect(run.calls.map((c) => c.includes('apt-get'))).toEqual([true, true, false]);
    expect(provisionPlan(machine({ isRoot: true, hasApt: () => false }), 'cli.js', 'node')).toHaveLength(1);
  });

  it('says clearly what was tried and what to do when no browser can be had', () => {
    const m = machine();
    const run = runner([{ match: 'install', fails: true }], m.files);
    let message = '';
    try {
      ensureChromium(m, run, quiet);
    } catch (err) {
      message = err instanceof Error ? err.message : '';
    }
    expect(message).toContain('The browser tests need Chromium and none could be found or installed.');
    expect(message).toContain("Playwright's Chromium download failed");
    expect(message).toContain("not root and no passwordless sudo, so Debian's package could not be installed");
    expect(message).toContain('KITTING_CHROMIUM');
  });

  it('does nothing when a browser is already there', () => {
    const m = machine({ isRoot: true, files: ['/usr/bin/chromium'] });
    const run = runner([], m.files);
    ensureChromium(m, run, quiet);
    expect(run.calls).toEqual([]);
  });
});
