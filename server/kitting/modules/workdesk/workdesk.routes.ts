import { z } from 'zod';
import { jstDate } from '../../../../shared/dates';
import { clip, createShape, intClamp, num, text } from '../../../../shared/fields';
import { randomId } from '../../../core/http/crud';
import { defineRoute } from '../../../core/http/define-route';
import { badRequest, notFound } from '../../../core/errors';
import type { Doc } from '../../../core/store/types';
import { isDate } from '../compliance/compliance.service';
import { CONN_ID, MSGS_MAX, search, WORKDESK, WORKDESK_DOCS, WORKDESK_THREADS } from './workdesk.service';

const docBody = createShape({
  id: text(60).optional(),
  name: text(200).optional(),
  type: text(40).optional(),
  size: intClamp(0, Number.MAX_SAFE_INTEGER, 0).optional(),
  status: text(40).optional(),
  date: text(10).optional(),
  text: text(200_000).optional(),
});

const msgSchema = z.object(
  {
    role: text(20).zod.nullish(),
    text: text(20_000).zod.nullish(),
    html: text(50_000).zod.nullish(),
    srcs: z.array(z.union([z.string(), z.number(), z.record(z.string(), z.unknown())])).max(50).nullish(),
    typing: z.boolean().nullish(),
  },
  { error: 'msgs must be objects {role, text}' },
);
const msgs = z
  .array(msgSchema, { error: 'msgs must be an array' })
  .max(MSGS_MAX, `msgs: at most ${MSGS_MAX}`)
  .transform((list) => list.map((m) => Object.fromEntries(Object.entries({ ...m, role: m.role || 'user' }).filter(([, v]) => v !== null && v !== undefined))));

const threadFields = { title: text(120).zod.nullish(), ts: num().zod.nullish(), msgs: msgs.nullish() };
const threadBody = z.object({ id: text(60).zod.nullish(), ...threadFields }, { error: 'body must be a JSON object' });
const threadPatch = z.object({ ...threadFields, append: z.union([msgSchema, z.array(msgSchema)]).nullish() }, { error: 'body must be a JSON object' });
const idParams = z.object({ id: z.string().min(1).max(60) });

const byTsDesc = (a: Doc, b: Doc) => Number(b.ts ?? 0) - Number(a.ts ?? 0);
const connOf = (d: Doc | null) => ((d?.map as Record<string, boolean> | undefined) ?? {});

export const workdeskRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/workdesk/docs',
    auth: 'support:view',
    handler: async ({ app, ws }) => ({ docs: await app.store.list(ws, WORKDESK_DOCS) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/workdesk/doc',
    auth: 'support:edit',
    body: docBody,
    handler: async ({ app, ws, body }) => {
      if (body.date !== undefined && !isDate(body.date)) throw badRequest('invalid date', { message: '日付(date)は YYYY-MM-DD 形式で指定してください' });
      const doc = await app.store.transact(ws, async (tx) => {
        const { id: givenId, ...fields } = body;
        const present = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
        const existing = givenId ? await tx.get(WORKDESK_DOCS, givenId) : null;
        if (existing && givenId) return (await tx.patch(WORKDESK_DOCS, givenId, present)) ?? existing;
        const id = givenId || randomId('doc-');
        return tx.put(WORKDESK_DOCS, id, { id, name: '', type: 'FILE', size: 0, status: '索引済', date: jstDate(), ...present, created: Date.now() });
      });
      return { doc };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/workdesk/doc/:id/delete',
    auth: 'support:edit',
    params: idParams,
    handler: async ({ app, ws, params }) => {
      if (!(await app.store.transact(ws, (tx) => tx.remove(WORKDESK_DOCS, params.id)))) throw notFound('doc not found');
      return {};
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/workdesk/threads',
    auth: 'support:view',
    handler: async ({ app, ws }) => ({ threads: (await app.store.list(ws, WORKDESK_THREADS)).sort(byTsDesc) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/workdesk/thread',
    auth: 'support:edit',
    body: threadBody,
    handler: async ({ app, ws, body }) => {
      const thread = await app.store.transact(ws, async (tx) => {
        const id = body.id || randomId('thr-');
        const existing = await tx.get(WORKDESK_THREADS, id);
        const next: Doc = {
          id,
          title: body.title || (existing?.title as string | undefined) || '新しいチャット',
          ts: body.ts ?? Date.now(),
          msgs: body.msgs ?? (existing?.msgs as unknown[] | undefined) ?? [],
          created: existing?.created ?? Date.now(),
        };
        return tx.put(WORKDESK_THREADS, id, next);
      });
      return { thread };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/workdesk/thread/:id',
    auth: 'support:edit',
    params: idParams,
    body: threadPatch,
    handler: async ({ app, ws, params, body }) => {
      const appended = body.append ? (msgs.parse(Array.isArray(body.append) ? body.append : [body.append]) as Doc[]) : [];
      const thread = await app.store.transact(ws, async (tx) => {
        const id = clip(params.id, 60);
        const existing = await tx.get(WORKDESK_THREADS, id);
        if (!existing && !body.append) throw notFound('thread not found');
        const base = (body.msgs ?? (existing?.msgs as Doc[] | undefined) ?? []) as Doc[];
        const all = [...base, ...appended];
        if (all.length > MSGS_MAX) throw badRequest('too many messages', { message: `1スレッドのメッセージは${MSGS_MAX}件までです` });
        return tx.put(WORKDESK_THREADS, id, {
          id,
          title: body.title || (existing?.title as string | undefined) || '新しいチャット',
          ts: body.ts ?? Date.now(),
          msgs: all,
          created: existing?.created ?? Date.now(),
        });
      });
      return { thread };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/workdesk/conn',
    auth: 'support:view',
    handler: async ({ app, ws }) => ({ conn: connOf(await app.store.get(ws, WORKDESK, CONN_ID)) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/workdesk/conn',
    auth: 'support:edit',
    body: z.record(z.string(), z.unknown(), { error: 'body must be a JSON object' }),
    handler: async ({ app, ws, body }) => {
      const src = body.map && typeof body.map === 'object' && !Array.isArray(body.map) ? (body.map as Record<string, unknown>) : body;
      const patch: Record<string, boolean> = {};
      for (const [k, v] of Object.entries(src)) {
        if (typeof v !== 'boolean') throw badRequest('invalid request', { message: `${clip(k, 40)}: true か false で指定してください` });
        patch[clip(k, 40)] = v;
      }
      const conn = await app.store.transact(ws, async (tx) => {
        const map = { ...connOf(await tx.get(WORKDESK, CONN_ID)), ...patch };
        await tx.put(WORKDESK, CONN_ID, { id: CONN_ID, map });
        return map;
      });
      return { conn };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/workdesk/search',
    auth: 'support:view',
    body: z.object({ q: text(200).zod.nullish() }, { error: 'body must be a JSON object' }),
    handler: async ({ app, ws, body }) => {
      const q = (body.q ?? '').trim();
      if (!q) throw badRequest('q required', { message: '検索語(q)を入力してください' });
      const docs = await app.store.list(ws, WORKDESK_DOCS);
      const threads = await app.store.list(ws, WORKDESK_THREADS);
      return { q, hits: search(q, docs, threads).slice(0, 50), indexed: docs.length + threads.length };
    },
  }),
];
