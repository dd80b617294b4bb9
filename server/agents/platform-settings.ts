/** Platform settings and credit bundles an operator edits (one JSON value per key in platform_settings). */
import { z } from 'zod';
import type { Db } from './db';
import { settingsSchema, bundleSchema } from '../../shared/api/contracts/agents-values';

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

export type Bundle = z.infer<typeof bundleSchema>;

/** The operator's credit bundles (null while the built-in catalogue applies). */
export function platformBundles(db: Db): Bundle[] | null {
  const saved = z.array(bundleSchema).safeParse(readKey(db, 'bundles'));
  return saved.success ? saved.data : null;
}
