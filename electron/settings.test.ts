import Conf from 'conf';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSettings, DEFAULT_SETTINGS, SettingsError } from './settings';

const dirs: string[] = [];
function confBackend(dir = mkdtempSync(join(tmpdir(), 'station-settings-'))) {
  dirs.push(dir);
  const conf = new Conf<Record<string, unknown>>({ cwd: dir, configName: 'settings', projectName: 'kitting-station-test' });
  return { dir, backend: { get: (k: string) => conf.get(k), set: (k: string, v: unknown) => conf.set(k, v) } };
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('bench settings', () => {
  it('reads defaults from an empty store', () => {
    expect(createSettings(confBackend().backend).get()).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS.zebra.port).toBe(9100);
  });

  it('round-trips every setting through the store, across a restart', () => {
    const { dir, backend } = confBackend();
    createSettings(backend).update({
      centralUrl: 'https://central.example.jp/',
      benchName: '  大阪第2ベンチ ',
      labelPrinter: 'ZDesigner ZD421-300dpi',
      certificatePrinter: 'Canon LBP',
      label: { size: 'l', widthMm: 100, heightMm: 62.5 },
      zebra: { host: '192.0.2.10', port: 6101 },
      startAtLogin: true,
    });
    const again = createSettings(confBackend(dir).backend).get();
    expect(again).toEqual({
      centralUrl: 'https://central.example.jp',
      benchName: '大阪第2ベンチ',
      enrolment: null,
      labelPrinter: 'ZDesigner ZD421-300dpi',
      certificatePrinter: 'Canon LBP',
      label: { size: 'l', widthMm: 100, heightMm: 62.5 },
      zebra: { host: '192.0.2.10', port: 6101 },
      startAtLogin: true,
    });
  });

  it('patches nested objects partially and takes a size’s defaults when only the size is given', () => {
    const s = createSettings(confBackend().backend);
    expect(s.update({ zebra: { host: 'zebra-01.local' } }).zebra).toEqual({ host: 'zebra-01.local', port: 9100 });
    expect(s.update({ label: { size: 's' } }).label).toEqual({ size: 's', widthMm: 40, heightMm: 25 });
    expect(s.update({ label: { heightMm: 1000 } }).label).toEqual({ size: 's', widthMm: 40, heightMm: 300 });
  });

  it('refuses a central URL that is not http(s), a bad port or an unknown key, and stores nothing', () => {
    const s = createSettings(confBackend().backend);
    expect(() => s.update({ centralUrl: 'ftp://x' })).toThrow(SettingsError);
    expect(() => s.update({ centralUrl: 'javascript:alert(1)' })).toThrow('中央サーバーのURLは http:// または https:// で始めてください');
    expect(() => s.update({ zebra: { port: 70000 } })).toThrow('ポート番号は 1〜65535 の整数で指定してください');
    expect(() => s.update({ zebra: { host: 'a b/c' } })).toThrow(SettingsError);
    expect(() => s.update({ enrolment: null } as never)).toThrow(/不明な設定項目/);
    expect(s.get()).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps the enrolment apart from the window’s patches', () => {
    const s = createSettings(confBackend().backend);
    const e = { centralUrl: 'https://c.example', enrolledAt: 1_760_000_000_000, workspace: 'w-1' };
    expect(s.setEnrolment(e).enrolment).toEqual(e);
    expect(s.update({ benchName: 'A' }).enrolment).toEqual(e);
  });

  it('reads a damaged value as its default', () => {
    const { backend } = confBackend();
    backend.set('startAtLogin', 'yes');
    backend.set('label', 7);
    const got = createSettings(backend).get();
    expect(got.startAtLogin).toBe(false);
    expect(got.label).toEqual(DEFAULT_SETTINGS.label);
  });
});
