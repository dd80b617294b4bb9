import type { AppContext } from '../context';
import type { Doc } from '../store/types';
import { P, PLATFORM_WS } from './platform';

/** Site configuration the admin edits, with the sec* security switches. */
export const SITE_DEFAULTS = {
  maintenanceMode: false,
  maintenanceMessage: '',
  registrationOpen: true,
  announcementEnabled: false,
  announcementText: '',
  announcementLevel: 'info',
  demoEnabled: true,
  signinEnabled: true,
  chatBubbleEnabled: true,
  primaryCtaLabel: '無料で始める',
  secEnabled: true,
  secIpGuard: false,
  secIpBlocklist: [] as string[],
  secLoginThrottle: true,
  secMaxAttempts: 8,
  secGenericErrors: false,
  secValidityCap: 30,
  secRequirePII: false,
  sec2FA: false,
  secLoginNotify: false,
  secDeviceCheck: false,
  secBehavioral: false,
  sec3DS: false,
  secNoLogin: false,
};
export type SiteConfig = typeof SITE_DEFAULTS;

export const PUBLIC_KEYS = [
  'maintenanceMode', 'maintenanceMessage', 'registrationOpen', 'announcementEnabled', 'announcementText',
  'announcementLevel', 'demoEnabled', 'signinEnabled', 'chatBubbleEnabled', 'primaryCtaLabel',
] as const;

export async function readSiteConfig(app: AppContext): Promise<{ config: SiteConfig; meta: { updatedAt: number | null; updatedBy: string | null } }> {
  const rec = await app.store.get<Doc>(PLATFORM_WS, P.config, 'site');
  const stored = (rec?.config ?? {}) as Partial<SiteConfig>;
  return {
    config: { ...SITE_DEFAULTS, ...stored },
    meta: { updatedAt: (rec?.updatedAt as number) ?? null, updatedBy: (rec?.updatedBy as string) ?? null },
  };
}

/** Apply only known keys with the default's type (numbers clamped to sane ranges, strings clipped). */
export function cleanConfigPatch(input: Record<string, unknown>): Partial<SiteConfig> {
  const out: Record<string, unknown> = {};
  for (const [k, def] of Object.entries(SITE_DEFAULTS)) {
    const v = input[k];
    if (v === undefined || v === null) continue;
    if (typeof def === 'boolean' && typeof v === 'boolean') out[k] = v;
    else if (typeof def === 'number' && typeof v === 'number' && Number.isFinite(v)) out[k] = Math.min(1000, Math.max(1, Math.trunc(v)));
    else if (typeof def === 'string' && typeof v === 'string') out[k] = v.slice(0, k === 'maintenanceMessage' || k === 'announcementText' ? 500 : 80);
    else if (Array.isArray(def) && Array.isArray(v)) out[k] = v.filter((x) => typeof x === 'string').map((x) => String(x).slice(0, 60)).slice(0, 500);
  }
  return out as Partial<SiteConfig>;
}

export async function writeSiteConfig(app: AppContext, patch: Partial<SiteConfig>, by: string) {
  await app.store.transact(PLATFORM_WS, async (tx) => {
    const rec = await tx.get<Doc>(P.config, 'site');
    const config = { ...((rec?.config as Doc) ?? {}), ...patch };
    await tx.put(P.config, 'site', { id: 'site', config, updatedAt: Date.now(), updatedBy: by });
  });
  return readSiteConfig(app);
}
