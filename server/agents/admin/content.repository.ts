import type { AgentsDb } from '../schema';

/** What operators edit: landing-page content (content_pages) and platform settings and bundles (platform_settings). */

/** Saves a page's content, replacing what was saved before. */
export async function saveContentPage(db: AgentsDb, page: string, data: string, by: string, now: number): Promise<void> {
  await db
    .insertInto('content_pages')
    .values({ page, data, updated_at: now, updated_by: by })
    .onConflict((oc) => oc.column('page').doUpdateSet((eb) => ({ data: eb.ref('excluded.data'), updated_at: eb.ref('excluded.updated_at'), updated_by: eb.ref('excluded.updated_by') })))
    .execute();
}

/** True when a saved page was removed. */
export async function deleteContentPage(db: AgentsDb, page: string): Promise<boolean> {
  const r = await db.deleteFrom('content_pages').where('page', '=', page).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export type SettingKey = 'settings' | 'bundles';

/** The stored JSON text of a platform setting, if any. */
export async function readSetting(db: AgentsDb, key: SettingKey): Promise<string | undefined> {
  return (await db.selectFrom('platform_settings').select('value').where('key', '=', key).executeTakeFirst())?.value;
}

export async function writeSetting(db: AgentsDb, key: SettingKey, value: string, by: string, now: number): Promise<void> {
  await db
    .insertInto('platform_settings')
    .values({ key, value, updated_at: now, updated_by: by })
    .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), updated_at: eb.ref('excluded.updated_at'), updated_by: eb.ref('excluded.updated_by') })))
    .execute();
}

export async function deleteSetting(db: AgentsDb, key: SettingKey): Promise<void> {
  await db.deleteFrom('platform_settings').where('key', '=', key).execute();
}
