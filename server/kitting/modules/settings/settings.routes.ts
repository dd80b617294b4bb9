import { z } from 'zod';
import { clip, json } from '../../../../shared/fields';
import { collectionSchema, ruleFields, stamp } from '../../http/collection-schema';
import { defineRoute } from '../../http/define-route';
import { badRequest, tooLarge } from '../../../core/errors';
import {
  COMPANY_ID,
  completeCompany,
  companyRuleReaders,
  LOGO_MAX,
  PLAN_KEYS,
  PREFS_ID,
  prefsOf,
  SETTINGS,
  truthy,
  UI_ID,
  UI_MAX_BYTES,
  uiState,
  type Company,
} from './settings.service';
import { COMPANY_TEXT_FIELDS, LOGO_PATTERN, settingsRequests, settingsResponses } from '../../../../shared/api/contracts/workspace';

// The readers below stay with the server: they answer the contract's 400/413 through the server's errors.

/** A company text field as the company route stores it (text or number, clipped to 300), else 400. */
const companyText = (k: string) => (v: unknown): string => {
  if (typeof v !== 'string' && typeof v !== 'number') throw badRequest('invalid request', { message: `${k}: 文字列で指定してください` });
  return clip(String(v), 300);
};

/** The company logo: '' or an image data URL of at most 6 MB, else 400/413. */
function readLogo(logo: unknown): string {
  if (typeof logo !== 'string') throw badRequest('invalid logo', { message: 'ロゴ(logo)は画像のデータURLで指定してください' });
  if (logo.length > LOGO_MAX) throw tooLarge('logo too large', { message: 'ロゴ画像は6MBまでです' });
  if (logo !== '' && !LOGO_PATTERN.test(logo)) throw badRequest('invalid logo', { message: 'ロゴ(logo)は data:image/…;base64, 形式のデータURLで指定してください' });
  return logo;
}

const companyRules: Record<string, (v: unknown) => unknown> = {
  ...Object.fromEntries(COMPANY_TEXT_FIELDS.map((k) => [k, companyText(k)])),
  logo: readLogo,
  ...companyRuleReaders,
};

function readCompanyPatch(body: Record<string, unknown>): Partial<Company> {
  const patch: Record<string, unknown> = {};
  for (const [k, read] of Object.entries(companyRules)) {
    const v = body[k];
    if (v !== undefined && v !== null) patch[k] = read(v);
  }
  return patch as Partial<Company>;
}

/**
 * The settings records (company, prefs, ui, teamPlan) as their routes store them: pushed settings pass the
 * same rules (company texts and logo, boolean preferences, ui state of string values, a known plan key).
 */
export const settingsSchema = collectionSchema(
  SETTINGS,
  {
    ...ruleFields(companyRules),
    emailNotify: json(z.boolean()),
    slaAlert: json(z.boolean()),
    state: json(z.record(z.string().max(200), z.string()).refine((st) => Buffer.byteLength(JSON.stringify(st), 'utf8') <= UI_MAX_BYTES, 'ui state too large')),
    planKey: json(z.enum(PLAN_KEYS)),
  },
  { updated: stamp() },
);

export const settingsRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/settings/company',
    response: settingsResponses.company,
    auth: 'settings:view',
    handler: async ({ app, ws }) => ({ company: completeCompany(await app.store.get(ws, SETTINGS, COMPANY_ID)) }),
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/company',
    response: settingsResponses.company,
    auth: 'settings:edit',
    body: settingsRequests.company,
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
    response: settingsResponses.prefs,
    auth: 'settings:view',
    handler: async ({ app, ws }) => ({ prefs: prefsOf(await app.store.get(ws, SETTINGS, PREFS_ID)) }),
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/prefs',
    response: settingsResponses.prefs,
    auth: 'settings:edit',
    body: settingsRequests.prefs,
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
    response: settingsResponses.ui,
    auth: 'member',
    handler: async ({ app, ws }) => ({ state: uiState(await app.store.get(ws, SETTINGS, UI_ID)) }),
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/ui',
    response: settingsResponses.saveUi,
    auth: 'member',
    body: settingsRequests.ui,
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
