/** Platform settings and credit bundles an operator edits (one JSON value per key in platform_settings). */
import { z } from 'zod';
import type { AgentsDb } from './schema';
import { settingsSchema, bundleSchema } from '../../shared/api/contracts/agents-values';

export type PlatformSettings = z.infer<typeof settingsSchema>;
export const DEFAULT_SETTINGS: PlatformSettings = { announcement: '', supportEmail: '', allowSignups: true, signupCredits: null, maintenanceMode: false };

function parse(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function readKey(db: AgentsDb, key: string): Promise<unknown> {
  const row = await db.selectFrom('platform_settings').select('value').where('key', '=', key).executeTakeFirst();
  return parse(row?.value);
}


export async function platformSettings(db: AgentsDb): Promise<PlatformSettings> {
  const saved = settingsSchema.partial().safeParse((await readKey(db, 'settings')) ?? {});
  return { ...DEFAULT_SETTINGS, ...(saved.success ? saved.data : {}) };
}

export type Bundle = z.infer<typeof bundleSchema>;

/** The operator's credit bundles (null while the built-in catalogue applies). */
export async function platformBundles(db: AgentsDb): Promise<Bundle[] | null> {
  return bundlesOf((await db.selectFrom('platform_settings').select('value').where('key', '=', 'bundles').executeTakeFirst())?.value);
}

/** The bundles a stored `bundles` value holds (null when absent or not a valid list). */
function bundlesOf(text: string | undefined): Bundle[] | null {
  const saved = z.array(bundleSchema).safeParse(parse(text));
  return saved.success ? saved.data : null;
}
