import { setImmediate as nextTurn } from 'node:timers/promises';
import { defineRoute, Reply } from '../../http/define-route';
import { badRequest, conflict, notFound } from '../../../core/errors';
import type { Doc, Tx } from '../../store/types';
import { clip } from '../../../../shared/fields';
import { isValidImei } from '../../../../shared/imei';
import { inboundRequests, inboundResponses } from '../../../../shared/api/contracts/inbound';
import { deviceRequests } from '../../../../shared/api/contracts/devices';
import { RECEIVED_STATUS } from '../../../../shared/devices';
import { completeDevice, DEVICES } from '../devices/devices.service';
import { readCompany } from '../settings/settings.service';
import { normalizeImei, readMapping } from './inbound-columns';
import { actorName, analyse, listedErrors, readUpload, storeList } from './inbound-import';
import { reportCsv, reportPdf } from './inbound-report';
import { INBOUND, INBOUND_LINES, inboundRules, lineDocs, lineId, lineView, linesOf, reportOf, atScanned, scannedLines, withCounts } from './inbound.service';

const { params: idParams } = inboundRequests;

async function listOr404(tx: Pick<Tx, 'get'>, id: string): Promise<Doc> {
  const list = await tx.get(INBOUND, id);
  if (!list) throw notFound('inbound not found');
  return list;
}

/**
 * The ledger's create fields of a device received for a customer, read by the device contract once per
 * customer name (every scan of a list shares them): status 入荷済 (the device is in hand, as the receiving
 * session registers it; the ledger's default 入荷待ち means not arrived yet), the ledger's other defaults.
 */
const ledgerDefaults = new Map<string, Doc>();
function defaultsFor(cust: unknown): Doc {
  const key = typeof cust === 'string' ? cust : '';
  let base = ledgerDefaults.get(key);
  if (!base) {
    if (ledgerDefaults.size >= 64) ledgerDefaults.clear();
    base = deviceRequests.create.parse({ cust: key, status: RECEIVED_STATUS }) as Doc;
    ledgerDefaults.set(key, base);
  }
  return base;
}

/**
 * What POST /api/device stores for the line's IMEI, model, serial and note with the list's customer (checked
 * in inbound.test.ts), without running the contract's parser per scan: the line's values are text already
 * (bounded by the line schema), clipped again to the ledger's limits; a blank model or serial is missing.
 */
function deviceInput(list: Doc, line: Doc, imei: string): Doc {
  const model = typeof line.model === 'string' && line.model.trim() !== '' ? line.model : '機種不明';
  const serial = typeof line.serial === 'string' && line.serial.trim() !== '' ? line.serial : '';
  const note = clip(`入荷予定 ${String(list.no)}${line.note ? ` ${String(line.note)}` : ''}`, 300);
  // Same key order as the contract's parser (the ledger fields' order): imei, serial, model, cust, ...
  return { imei, ...(serial ? { serial: clip(serial, 40) } : {}), ...defaultsFor(list.cust), model: clip(model, 60), note };
}

/** The device of a scanned line: linked when the ledger has it, else registered with the list's customer and the row's model and serial. */
async function registerDevice(tx: Tx, list: Doc, line: Doc): Promise<Doc> {
  const imei = String(line.imei);
  const existing = await tx.get(DEVICES, imei);
  if (existing) return existing;
  const doc = await completeDevice(tx, deviceInput(list, line, imei));
  return tx.create(DEVICES, imei, doc);
}

export const inboundRoutes = [
  // The scan first: it runs as often as a device registration, so the router tries no other inbound route before it.
  defineRoute({
    method: 'post',
    path: '/api/inbound/:id/scan',
    response: inboundResponses.scan,
    auth: 'ops:edit',
    params: idParams,
    body: inboundRequests.scan,
    handler: async ({ app, ws, params, body, req }) => {
      const imei = normalizeImei(typeof body.imei === 'string' || typeof body.imei === 'number' ? String(body.imei).slice(0, 60) : '');
      if (!/^\d{15}$/.test(imei) || !isValidImei(imei)) {
        throw badRequest('invalid imei', { result: 'invalid', message: /^\d{15}$/.test(imei) ? 'チェックディジットが一致しません。再スキャンしてください' : 'IMEIは15桁の数字です' });
      }
      const confirm = body.confirm === true;
      const by = actorName(req);
      return app.store.transact(ws, async (tx) => {
        const key = lineId(params.id, imei);
        // The list, the line and the ledger's device in one read (registerDevice then reads nothing more).
        const [list, line] = await tx.getMany([
          [INBOUND, params.id],
          [INBOUND_LINES, key],
          [DEVICES, imei],
        ]);
        if (!list) throw notFound('inbound not found');
        if (list.status === 'closed') throw conflict('inbound closed', { message: 'この入荷予定は締め済みです' });
        const now = Date.now();
        if (line?.state === 'received') {
          return { result: 'duplicate' as const, line: lineView(line), device: await tx.get(DEVICES, imei) };
        }
        if (line?.state === 'expected') {
          const device = await registerDevice(tx, list, line);
          const saved = await tx.patch(INBOUND_LINES, key, { state: 'received', at: atScanned(params.id), scannedAt: now, scannedBy: by, device: imei });
          return { result: 'received' as const, line: lineView(saved ?? line), device };
        }
        let current =
          line ??
          (await tx.put(INBOUND_LINES, key, { id: key, list: params.id, imei, serial: '', model: '', note: '', row: 0, state: 'unexpected', at: atScanned(params.id), scannedAt: now, scannedBy: by, device: '' }));
        let device = await tx.get(DEVICES, imei);
        if (confirm) {
          device = await registerDevice(tx, list, current);
          current = (await tx.patch(INBOUND_LINES, key, { device: imei })) ?? current;
        }
        return { result: 'unexpected' as const, line: lineView(current), device };
      });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/inbound',
    response: inboundResponses.list,
    auth: 'ops:view',
    handler: async ({ app, ws }) => {
      const lists = await app.store.list(ws, INBOUND, { reverse: true });
      const inbounds = [];
      for (const l of lists) inbounds.push(await withCounts(app.store, ws, l));
      inbounds.sort((a, b) => b.createdAt - a.createdAt);
      return { inbounds };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/inbound/preview',
    response: inboundResponses.preview,
    auth: 'ops:edit',
    body: inboundRequests.preview,
    handler: async ({ body }) => {
      const mapping = readMapping(body.mapping);
      const a = await analyse(readUpload(body.file), mapping);
      const { table, layout } = a;
      const data = table.rows.slice(layout.headerAt + 1).filter((r) => r.cells.some((c) => c.trim() !== ''));
      return {
        kind: table.kind,
        encoding: table.encoding,
        delimiter: table.delimiter,
        sheet: table.sheet,
        columns: a.columns,
        headers: layout.headerAt >= 0 ? (table.rows[layout.headerAt]?.cells ?? []).map((c) => clip(c, 60)) : [],
        rows: data.slice(0, 10).map((r) => ({ row: r.n, cells: r.cells.slice(0, 30).map((c) => clip(c, 120)) })),
        total: a.extracted.total,
        valid: a.extracted.lines.length,
        ...listedErrors(a.extracted.errors),
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/inbound',
    response: inboundResponses.create,
    auth: 'ops:edit',
    body: inboundRequests.create,
    handler: async ({ app, ws, body, req }) => {
      const name = inboundRules.name(body.name);
      const cust = inboundRules.cust(body.cust);
      const filename = inboundRules.filename(body.filename);
      const mapping = readMapping(body.mapping);
      const a = await analyse(readUpload(body.file), mapping);
      if (a.extracted.lines.length === 0) {
        throw badRequest('no valid rows', { ...listedErrors(a.extracted.errors), columns: a.columns, message: '取り込めるIMEIの行がありません' });
      }
      const list = await storeList(app.store, ws, { name, cust, filename, createdBy: actorName(req) }, a);
      return { inbound: await withCounts(app.store, ws, list), columns: a.columns, ...listedErrors(a.extracted.errors) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/inbound/:id',
    response: inboundResponses.detail,
    auth: 'ops:view',
    params: idParams,
    handler: async ({ app, ws, params }) => {
      const list = await listOr404({ get: (c, id) => app.store.get(ws, c, id) }, params.id);
      return { inbound: await withCounts(app.store, ws, list), lines: await linesOf(app.store, ws, params.id) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/inbound/:id/close',
    response: inboundResponses.close,
    auth: 'ops:edit',
    params: idParams,
    body: inboundRequests.close,
    handler: async ({ app, ws, params, body, req }) => {
      const closedBy = actorName(req, body.by);
      const list = await app.store.transact(ws, async (tx) => {
        const cur = await listOr404(tx, params.id);
        if (cur.status === 'closed') throw conflict('inbound closed', { message: 'この入荷予定はすでに締め済みです' });
        return (await tx.patch(INBOUND, params.id, { status: 'closed', closedAt: Date.now(), closedBy })) ?? cur;
      });
      const lines = await linesOf(app.store, ws, params.id);
      return { inbound: await withCounts(app.store, ws, list), report: reportOf(lines) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/inbound/:id/report.csv',
    produces: 'text/csv',
    auth: 'ops:view',
    params: idParams,
    handler: async ({ app, ws, params }) => {
      const list = await listOr404({ get: (c, id) => app.store.get(ws, c, id) }, params.id);
      const view = await withCounts(app.store, ws, list);
      const csv = reportCsv(view, await linesOf(app.store, ws, params.id));
      return new Reply(200, csv, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${view.no.replace(/[^\w.-]/g, '_')}-report.csv"`,
      });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/inbound/:id/report.pdf',
    produces: 'application/pdf',
    auth: 'ops:view',
    params: idParams,
    handler: async ({ app, ws, params }) => {
      const list = await listOr404({ get: (c, id) => app.store.get(ws, c, id) }, params.id);
      const view = await withCounts(app.store, ws, list);
      const pdf = await reportPdf(view, await linesOf(app.store, ws, params.id), await readCompany(app.store, ws), Date.now());
      return new Reply(200, Buffer.from(pdf), {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `inline; filename="${view.no.replace(/[^\w.-]/g, '_')}-report.pdf"`,
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/inbound/:id/delete',
    response: inboundResponses.remove,
    auth: 'ops:edit',
    params: idParams,
    handler: async ({ app, ws, params }) => {
      // The list goes first (it disappears at once, checked in the same transaction), then its lines in batches.
      await app.store.transact(ws, async (tx) => {
        await listOr404(tx, params.id);
        const scanned = await scannedLines(tx, null, params.id);
        if (scanned.some((l) => l.state === 'received' || (typeof l.device === 'string' && l.device !== ''))) {
          throw conflict('inbound has received devices', { message: '入荷済みの端末がある入荷予定は削除できません' });
        }
        await tx.remove(INBOUND, params.id);
      });
      const lines = await lineDocs(app.store, ws, params.id);
      for (let i = 0; i < lines.length; i += 500) {
        const batch = lines.slice(i, i + 500);
        await app.store.transact(ws, async (tx) => {
          for (const l of batch) await tx.remove(INBOUND_LINES, String(l.id));
        });
        await nextTurn();
      }
      return { id: params.id };
    },
  }),
];
