import { randomBytes } from 'node:crypto';
import { notFound } from '../core/errors';
import { mintApiKey } from '../core/security/api-keys';
import { API_KEY_LABEL } from './auth';
import type { StudioContext } from './context';
import { nowIso } from './db';
import * as keys from './repositories/api-keys.repository';

/** The workspace's keys without their secrets. */
export async function listApiKeys(app: StudioContext, ws: number) {
  return (await keys.listKeys(app.db, ws)).map(({ revoked_at, ...k }) => ({ ...k, prefix: `${API_KEY_LABEL}${k.prefix}`, revoked: revoked_at !== null }));
}

/** A new key: its secret is shown once, only its hash is kept. */
export async function createApiKey(app: StudioContext, ws: number, createdBy: number | null, name: string) {
  const minted = mintApiKey(API_KEY_LABEL);
  const id = `key_${randomBytes(8).toString('hex')}`;
  await keys.insertKey(app.db, { id, workspace_id: ws, prefix: minted.prefix, name, hash: minted.hash, created_by: createdBy, created_at: nowIso() });
  return { key: minted.key, id, prefix: `${API_KEY_LABEL}${minted.prefix}` };
}

export async function revokeApiKey(app: StudioContext, ws: number, id: string): Promise<void> {
  if (!(await keys.revokeKey(app.db, ws, id, nowIso()))) throw notFound('api key not found');
}
