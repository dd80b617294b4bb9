import { z } from 'zod';
import { clip } from '../../../../shared/fields';
import { defineRoute } from '../../../core/http/define-route';
import { badRequest, tooLarge } from '../../../core/errors';
import {
  COMPANY_ID,
  COMPANY_TEXT_FIELDS,
  completeCompany,
  LOGO_MAX,
  PREFS_ID,
  SETTINGS,
  UI_ID,
  UI_MAX_BYTES,
  type Company,
} from './settings.service';

const objectBody = z.record(z.string(), z.unknown(), { error: 'body must be a JSON object' });
const LOGO_PATTERN = /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/=\s]*$/;

function readCompanyPatch(body: Record<string, unknown>): Partial<Company> {
  const patch: Partial<Company> = {};
  for (const k of COMPANY_TEXT_FIELDS) {
    const v = body[k];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' && typeof v !== 'number') throw badRequest('invalid request', { message: `${k}: 文字列で指定してください` });
    patch[k] = clip(String(v), 300);
  }
  const logo = body.logo;
  if (logo !== undefined && logo !== null) {
    if (typeof logo !== 'string') throw badRequest('invalid logo', { message: 'ロゴ(logo)は画像のデータURLで指定してください' });
    if (logo.length > LOGO_MAX) throw tooLarge('logo too large', { message: 'ロゴ画像は6MBまでです' });
    if (logo !== '' && !LOGO_PATTERN.test(logo)) throw badRequest('invalid logo', { message: 'ロゴ(logo)は data:image/…;base64, 形式のデータURLで指定してください' });
    patch.logo = logo;
  }
  return patch;
}

/** Words that read as "off" when a form or script sends a string; any other non-empty string is on. */
const FALSE_WORDS = new Set(['', 'false', '0', 'off', 'no', 'n']);

/** Coerced to bool as the contract says: a non-empty string is true unless it spells "off" (false, 0, off, no). */
function truthy(v: unknown): boolean {
  if (typeof v === 'string') return !FALSE_WORDS.has(v.trim().toLowerCase());
  if (typeof v === 'number') return v !== 0 && !Number.isNaN(v);
  return v === true;
}

function prefsOf(doc: Record<string, unknown> | null) {
  return { emailNotify: doc?.emailNotify === true, slaAlert: doc?.slaAlert === undefined ? true : doc.slaAlert === true };
}

function uiState(doc: Record<string, unknown> | null): Record<string, string> {
  const state = doc?.state;
  return state && typeof state === 'object' ? (state as Record<string, string>) : {};
}

export const settingsRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/settings/company',
    auth: 'settings:view',
    handler: async ({ app, ws }) => ({ company: completeCompany(await app.store.get(ws, SETTINGS, COMPANY_ID)) }),
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/company',
    auth: 'settings:edit',
    body: objectBody,
    handler: async ({ app, ws, body }) => {
      const patch = readCompanyPatch(body);
      const company = await app.store.transact(ws, async (tx) => {
        const merged = { ...completeCompany(await tx.get(SETTINGS, COMPANY_ID)), ...patch };
        await tx.put(SETTINGS, COMPANY_ID, { id: COMPANY_ID, ...merged, updated: Date.now() });
        return merged;
      });
      return { company };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/settings/prefs',
    auth: 'settings:view',
    handler: async ({ app, ws }) => ({ prefs: prefsOf(await app.store.get(ws, SETTINGS, PREFS_ID)) }),
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/prefs',
    auth: 'settings:edit',
    body: objectBody,
    handler: async ({ app, ws, body }) => {
      const prefs = await app.store.transact(ws, async (tx) => {
        const next = prefsOf(await tx.get(SETTINGS, PREFS_ID));
        if (body.emailNotify !== undefined) next.emailNotify = truthy(body.emailNotify);
        if (body.slaAlert !== undefined) next.slaAlert = truthy(body.slaAlert);
        await tx.put(SETTINGS, PREFS_ID, { id: PREFS_ID, ...next });
        return next;
      });
      return { prefs };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/settings/ui',
    auth: 'member',
    handler: async ({ app, ws }) => ({ state: uiState(await app.store.get(ws, SETTINGS, UI_ID)) }),
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/ui',
    auth: 'member',
    body: objectBody,
    handler: async ({ app, ws, body }) => {
      const patch = body.state;
      if (!patch || typeof patch !== 'object' || Array.isArray(patch)) throw badRequest('state required', { message: 'state をオブジェクトで指定してください' });
      return app.store.transact(ws, async (tx) => {
        const state = { ...uiState(await tx.get(SETTINGS, UI_ID)) };
        for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
          const key = clip(k, 200);
          if (v === null) delete state[key];
          else if (typeof v === 'string') state[key] = v;
        }
        const size = Buffer.byteLength(JSON.stringify(state), 'utf8');
        if (size > UI_MAX_BYTES) throw tooLarge('ui state too large', { message: '画面設定が512KBを超えています', size, max: UI_MAX_BYTES });
        await tx.put(SETTINGS, UI_ID, { id: UI_ID, state });
        return { keys: Object.keys(state).length, size };
      });
    },
  }),
];
