import { z } from 'zod';
import type { BenchSettings, BenchSettingsPatch, Enrolment, LabelDefaults } from '../shared/station-bridge';

/** The key/value store behind the settings: electron-store in the app, `conf` in tests. */
export interface SettingsBackend {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

/** Label size defaults per template size (mm), used when a template does not give its own. */
const LABEL_SIZES: Record<LabelDefaults['size'], { widthMm: number; heightMm: number }> = {
  s: { widthMm: 40, heightMm: 25 },
  m: { widthMm: 60, heightMm: 40 },
  l: { widthMm: 100, heightMm: 60 },
};

export const DEFAULT_SETTINGS: BenchSettings = {
  centralUrl: '',
  benchName: '',
  enrolment: null,
  labelPrinter: '',
  certificatePrinter: '',
  label: { size: 'm', ...LABEL_SIZES.m },
  zebra: { host: '', port: 9100 },
  startAtLogin: false,
};

export class SettingsError extends Error {}

const clipped = (n: number) => z.string().transform((s) => s.trim().slice(0, n));
const mm = z.number().finite().transform((v) => Math.min(300, Math.max(10, Math.round(v * 10) / 10)));

const centralUrl = z
  .string()
  .transform((s) => s.trim().replace(/\/+$/, ''))
  .refine((s) => s === '' || /^https?:\/\/[^\s/]+/i.test(s), { message: '中央サーバーのURLは http:// または https:// で始めてください' })
  .refine((s) => s.length <= 300, { message: '中央サーバーのURLが長すぎます' });

/** The central URL as stored ('' or http(s)://host..., no trailing slash); throws SettingsError. */
export function normalizeCentralUrl(value: string): string {
  const r = centralUrl.safeParse(value);
  if (!r.success) throw new SettingsError(r.error.issues[0]?.message ?? '中央サーバーのURLが正しくありません');
  return r.data;
}

/** Host name or IPv4/IPv6 literal; no scheme, path or spaces. */
const host = z
  .string()
  .transform((s) => s.trim())
  .refine((s) => s === '' || /^[A-Za-z0-9.\-:[\]]{1,253}$/.test(s), { message: 'プリンターのホスト名またはIPアドレスが正しくありません' });

const port = z
  .number()
  .int({ message: 'ポート番号は 1〜65535 の整数で指定してください' })
  .min(1, { message: 'ポート番号は 1〜65535 の整数で指定してください' })
  .max(65535, { message: 'ポート番号は 1〜65535 の整数で指定してください' });

const patchSchema = z
  .object({
    centralUrl: centralUrl.optional(),
    benchName: clipped(60).optional(),
    labelPrinter: clipped(200).optional(),
    certificatePrinter: clipped(200).optional(),
    label: z
      .object({ size: z.enum(['s', 'm', 'l']).optional(), widthMm: mm.optional(), heightMm: mm.optional() })
      .strict()
      .optional(),
    zebra: z.object({ host: host.optional(), port: port.optional() }).strict().optional(),
    startAtLogin: z.boolean().optional(),
  })
  .strict();

const KEYS = Object.keys(DEFAULT_SETTINGS) as (keyof BenchSettings)[];

export interface Settings {
  get(): BenchSettings;
  /** Validate and apply a patch from the window; throws SettingsError with a Japanese message. */
  update(patch: BenchSettingsPatch): BenchSettings;
  setEnrolment(enrolment: Enrolment | null): BenchSettings;
}

function firstIssue(err: z.ZodError): string {
  const issue = err.issues[0];
  // Our own messages are Japanese; zod's defaults are not shown to the technician.
  if (issue && /[^\x00-\x7f]/.test(issue.message)) return issue.message;
  if (issue?.code === 'unrecognized_keys') return `不明な設定項目です: ${issue.keys.join(', ')}`;
  return `設定値が正しくありません: ${issue?.path.join('.') || '(全体)'}`;
}

/** Settings over a key/value backend; missing or damaged values read as defaults. */
export function createSettings(backend: SettingsBackend): Settings {
  const read = (): BenchSettings => {
    const out: Record<string, unknown> = {};
    for (const key of KEYS) {
      const fallback = DEFAULT_SETTINGS[key];
      const value = backend.get(key);
      if (fallback !== null && typeof fallback === 'object') {
        out[key] = value && typeof value === 'object' ? { ...fallback, ...value } : fallback;
      } else if (key === 'enrolment') {
        out[key] = value && typeof value === 'object' ? value : null;
      } else {
        out[key] = typeof value === typeof fallback ? value : fallback;
      }
    }
    return out as unknown as BenchSettings;
  };

  return {
    get: read,
    update(patch) {
      const parsed = patchSchema.safeParse(patch ?? {});
      if (!parsed.success) throw new SettingsError(firstIssue(parsed.error));
      const current = read();
      const p = parsed.data;
      for (const key of ['centralUrl', 'benchName', 'labelPrinter', 'certificatePrinter', 'startAtLogin'] as const) {
        if (p[key] !== undefined) backend.set(key, p[key]);
      }
      if (p.label) {
        const label = { ...current.label, ...p.label };
        // A size chosen without dimensions takes that size's defaults.
        if (p.label.size && p.label.widthMm === undefined && p.label.heightMm === undefined) Object.assign(label, LABEL_SIZES[p.label.size]);
        backend.set('label', label);
      }
      if (p.zebra) backend.set('zebra', { ...current.zebra, ...p.zebra });
      return read();
    },
    setEnrolment(enrolment) {
      backend.set('enrolment', enrolment);
      return read();
    },
  };
}
