import { z } from 'zod';
import { bundleSchema, settingsSchema } from '../../../shared/api/contracts/agents-values';
import { badRequest, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { DEFAULT_SETTINGS, type Bundle, type PlatformSettings } from '../platform-settings';
import { BUILT_IN_BUNDLES } from '../billing/catalog';
import { contentPages, pageContent } from '../public/content';
import { deleteContentPage, deleteSetting, readSetting, saveContentPage, writeSetting, type SettingKey } from './content.repository';

/** What operators edit: landing-page content, platform settings and credit bundles. */

export async function page(ctx: AgentsContext, p: string) {
  const c = await pageContent(ctx, p);
  if (!c) throw notFound('page not found');
  return { page: p, ...c };
}

export async function allPages(ctx: AgentsContext) {
  return Promise.all((await contentPages(ctx)).map((p) => page(ctx, p)));
}

export async function putPage(ctx: AgentsContext, p: string, content: unknown, by: string): Promise<void> {
  await saveContentPage(ctx.db, p, JSON.stringify(content), by, Date.now());
}

/** Removes the saved content: the built-in page comes back, or a page with no built-in text is gone. */
export async function resetPage(ctx: AgentsContext, p: string) {
  const removed = await deleteContentPage(ctx.db, p);
  const after = await pageContent(ctx, p);
  if (!removed && !after) throw notFound('page not found');
  return after ? { page: p, ...after } : { page: p, removed: true as const };
}

async function saved(ctx: AgentsContext, key: SettingKey): Promise<unknown> {
  const text = await readSetting(ctx.db, key);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The platform settings in force: the saved ones over the defaults. */
export async function settings(ctx: AgentsContext): Promise<PlatformSettings> {
  const s = settingsSchema.partial().safeParse((await saved(ctx, 'settings')) ?? {});
  return { ...DEFAULT_SETTINGS, ...(s.success ? s.data : {}) };
}

export async function saveSettings(ctx: AgentsContext, next: PlatformSettings, by: string): Promise<void> {
  await writeSetting(ctx.db, 'settings', JSON.stringify(next), by, Date.now());
}

export async function resetSetting(ctx: AgentsContext, key: SettingKey): Promise<void> {
  await deleteSetting(ctx.db, key);
}

/** The credit bundles on sale: the operator's, else the built-in catalogue. */
export async function bundles(ctx: AgentsContext) {
  const s = z.array(bundleSchema).safeParse(await saved(ctx, 'bundles'));
  return s.success ? { bundles: s.data, overridden: true } : { bundles: BUILT_IN_BUNDLES, overridden: false };
}

/** Replaces the bundles on sale; ids must be unique. */
export async function saveBundles(ctx: AgentsContext, list: Bundle[], by: string): Promise<string[]> {
  const ids = list.map((b) => b.id);
  if (new Set(ids).size !== ids.length) throw badRequest('bundles: ids must be unique');
  await writeSetting(ctx.db, 'bundles', JSON.stringify(list), by, Date.now());
  return ids;
}
