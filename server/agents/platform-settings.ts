/** Platform settings and credit bundles an operator edits (one JSON value per key in platform_settings). */
import { z } from 'zod';
import type { Db } from './db';

/** Platform settings an operator edits; unset keys take these defaults. */
export const settingsSchema = z.object({
  announcement: z.string().max(1_000),
  supportEmail: z.union([z.literal(''), z.email('supportEmail must be an email address')]),
  allowSignups: z.boolean(),
  /** Credits of a new workspace; null takes AGENTS_SIGNUP_CREDITS. */
  signupCredits: z.number().int().min(0).max(1_000_000).nullable(),
  maintenanceMode: z.boolean(),
});
export type PlatformSettings = z.infer<typeof settingsSchema>;
export const DEFAULT_SETTINGS: PlatformSettings = { announcement: '', supportEmail: '', allowSignups: true, signupCredits: null, maintenanceMode: false };

function readKey(db: Db, key: string): unknown {
  const row = db.prepare('SELECT value FROM platform_settings WHERE key = ?').get(key) as { value: string } | undefined;
  if (!row) return undefined;
  try {
    return JSON.parse(row.value);
  } catch {
    return undefined;
  }
}

export function writeKey(db: Db, key: string, value: unknown, by: string): void {
  db.prepare('INSERT INTO platform_settings (key, value, updated_at, updated_by) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at, updated_by = excluded.updated_by').run(
    key,
    JSON.stringify(value),
    Date.now(),
    by,
  );
}

export function platformSettings(db: Db): PlatformSettings {
  const saved = settingsSchema.partial().safeParse(readKey(db, 'settings') ?? {});
  return { ...DEFAULT_SETTINGS, ...(saved.success ? saved.data : {}) };
}

export const bundleSchema = z.object({
  id: z.string().trim().min(1, 'id is required').max(64).regex(/^[a-z0-9][a-z0-9_-]*$/, 'id may hold a-z, 0-9, _ and -'),
  name: z.string().trim().min(1, 'name is required').max(120),
  credits: z.number().int().min(1, 'credits must be at least 1').max(10_000_000),
  priceCents: z.number().int().min(50, 'priceCents must be at least 50').max(100_000_000),
});
export type Bundle = z.infer<typeof bundleSchema>;

/** The operator's credit bundles (null while the built-in catalogue applies). */
export function platformBundles(db: Db): Bundle[] | null {
  const saved = z.array(bundleSchema).safeParse(readKey(db, 'bundles'));
  return saved.success ? saved.data : null;
}
