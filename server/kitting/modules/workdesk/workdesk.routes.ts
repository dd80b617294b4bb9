import { jstDate } from '../../../../shared/dates';
import { clip, json } from '../../../../shared/fields';
import { randomKey } from '../../../core/ids';
import { defineRoute } from '../../http/define-route';
import { collectionSchema, ruleField, stamp, storedField } from '../../http/collection-schema';
import { badRequest, notFound } from '../../../core/errors';
import type { Doc } from '../../store/types';
import { isDate } from '../compliance/compliance.service';
import { CONN_ID, readConn, search, WORKDESK, WORKDESK_DOCS, WORKDESK_THREADS } from './workdesk.service';
import { MSGS_MAX, workdeskDocFields, workdeskMessages, workdeskRequests, workdeskResponses, workdeskThreadFields } from '../../../../shared/api/contracts/workspace';

const docFields = workdeskDocFields;
const threadFields = workdeskThreadFields;
const msgs = workdeskMessages;
const { doc: docBody, thread: threadBody, threadPatch, params: idParams } = workdeskRequests;

/** Pushed workdesk documents pass the document route's field rules (date a real YYYY-MM-DD); created is the server's stamp. */
export const workdeskDocSchema = collectionSchema(WORKDESK_DOCS, { ...docFields, date: storedField(docFields.date, isDate, 'date must be a real YYYY-MM-DD') }, { created: stamp() });

/**
 * Pushed chat threads pass the thread routes' rules: a title the routes would not replace by the default, a
 * finite ts, at most 500 messages each as the routes store it (role set, no null keys); created is the server's.
 */
export const workdeskThreadSchema = collectionSchema(
  WORKDESK_THREADS,
  {
    title: json(threadFields.title.refine((t) => typeof t === 'string' && t !== '', 'title must be a non-empty text')),
    ts: json(threadFields.ts.refine((t) => typeof t === 'number', 'ts must be a number')),
    msgs: json(msgs),
  },
  { created: stamp() },
);

/** The connector map (id → on/off) as the connector route stores it: keys of at most 40 characters, booleans only. */
export const workdeskSchema = collectionSchema(WORKDESK, {}, { map: ruleField(readConn) });

const byTsDesc = (a: Doc, b: Doc) => Number(b.ts ?? 0) - Number(a.ts ?? 0);
const connOf = (d: Doc | null) => ((d?.map as Record<string, boolean> | undefined) ?? {});

export const workdeskRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/workdesk/docs',
    response: workdeskResponses.docs,
    auth: 'support:view',
    handler: async ({ app, ws }) => ({ docs: await app.store.list(ws, WORKDESK_DOCS) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/workdesk/doc',
    response: workdeskResponses.doc,
    auth: 'support:edit',
    body: docBody,
    handler: async ({ app, ws, body }) => {
      if (body.date !== undefined && !isDate(body.date)) throw badRequest('invalid date', { message: '日付(date)は YYYY-MM-DD 形式で指定してください' });
      const doc = await app.store.transact(ws, async (tx) => {
        const { id: givenId, ...fields } = body;
        const present = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
        const existing = givenId ? await tx.get(WORKDESK_DOCS, givenId) : null;
        if (existing && givenId) return (await tx.patch(WORKDESK_DOCS, givenId, present)) ?? existing;
        const id = givenId || randomKey('doc-', 4);
        return tx.put(WORKDESK_DOCS, id, { id, name: '', type: 'FILE', size: 0, status: '索引済', date: jstDate(), ...present, created: Date.now() });
      });
      return { doc };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/workdesk/doc/:id/delete',
    response: workdeskResponses.removeDoc,
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
    response: workdeskResponses.threads,
    auth: 'support:view',
    handler: async ({ app, ws }) => ({ threads: (await app.store.list(ws, WORKDESK_THREADS)).sort(byTsDesc) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/workdesk/thread',
    response: workdeskResponses.thread,
    auth: 'support:edit',
    body: threadBody,
    handler: async ({ app, ws, body }) => {
      const thread = await app.store.transact(ws, async (tx) => {
        const id = body.id || randomKey('thr-', 4);
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
    response: workdeskResponses.thread,
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
    response: workdeskResponses.conn,
    auth: 'support:view',
    handler: async ({ app, ws }) => ({ conn: connOf(await app.store.get(ws, WORKDESK, CONN_ID)) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/workdesk/conn',
    response: workdeskResponses.conn,
    auth: 'support:edit',
    body: workdeskRequests.conn,
    handler: async ({ app, ws, body }) => {
      const patch = readConn(body.map && typeof body.map === 'object' && !Array.isArray(body.map) ? body.map : body);
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
    response: workdeskResponses.search,
    auth: 'support:view',
    body: workdeskRequests.search,
    handler: async ({ app, ws, body }) => {
      const q = (body.q ?? '').trim();
      if (!q) throw badRequest('q required', { message: '検索語(q)を入力してください' });
      const docs = await app.store.list(ws, WORKDESK_DOCS);
      const threads = await app.store.list(ws, WORKDESK_THREADS);
      return { q, hits: search(q, docs, threads).slice(0, 50), indexed: docs.length + threads.length };
    },
  }),
];
