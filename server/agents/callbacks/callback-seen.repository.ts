import type { AgentsDb } from '../schema';

/** Provider callbacks already handled (signatures, event ids, message ids), kept for a day. */

/**
 * Remember a key once: true for the first sighting, false when it was already seen. One conditional insert,
 * so of two identical requests arriving together (any process) exactly one is first.
 */
export async function rememberSighting(db: AgentsDb, key: string, at: number): Promise<boolean> {
  const r = await db.insertInto('callback_seen').values({ key, seen_at: at }).onConflict((oc) => oc.column('key').doNothing()).returning('key').executeTakeFirst();
  return r !== undefined;
}

export async function forgetSightingsBefore(db: AgentsDb, before: number): Promise<void> {
  await db.deleteFrom('callback_seen').where('seen_at', '<', before).execute();
}
