import fontkit from 'fontkit';
import { clip } from '../../../../shared/fields';
import { collectionSchema, derivedDate, derivedInt, storedField } from '../../http/collection-schema';
import { jstDate } from '../../../../shared/dates';
import { randomKey } from '../../../core/ids';
import { defineRoute, Reply } from '../../http/define-route';
import { badRequest, notFound } from '../../../core/errors';
import type { Doc } from '../../store/types';
import { loadFontBytes } from '../certs/cert-pdf';
import { isDate } from '../compliance/compliance.service';
import { LABEL_SIZES, renderLabelHtml, renderLabelSvg, renderLabelZpl, type LabelDevice, type LabelSize } from './label-render';
import type { OutlineFont } from './zpl-bitmap';
import { LABEL_LOG, LABEL_TEMPLATES } from './labels.service';
import { LABEL_FIELDS, allLabelFlags, labelFlags, type LabelFlags, labelLogFields, labelRequests, labelResponses, labelTemplateFields } from '../../../../shared/api/contracts/certs-labels';


/** A stamp the label routes store: the client's ts, or the time of the write (never 0). */
const storedTs = () => derivedInt(1, 8_640_000_000_000_000);
/** A template as the save route stores it: a blank name is replaced by the route, so it is refused. */
export const labelTemplateSchema = collectionSchema(
  LABEL_TEMPLATES,
  { name: storedField(labelTemplateFields.name), size: labelTemplateFields.size, fields: labelTemplateFields.fields },
  { ts: storedTs() },
);
/**
 * A print log entry as the log route stores it (only that route writes the log): a real date, a stamp, and a
 * reason or printer only when one was given.
 */
export const labelLogSchema = collectionSchema(
  LABEL_LOG,
  {
    size: labelLogFields.size,
    count: labelLogFields.count,
    result: labelLogFields.result,
    reason: storedField(labelLogFields.reason, (v) => v !== ''),
    printer: storedField(labelLogFields.printer, (v) => v !== ''),
    imei: storedField(labelLogFields.imei, (v) => v !== ''),
    asset: storedField(labelLogFields.asset, (v) => v !== ''),
  },
  { date: storedField(derivedDate(), isDate, 'must be a real YYYY-MM-DD date'), ts: storedTs() },
);

const { template: templateBody, log: logBody, params: idParams, render: renderQuery } = labelRequests;

let labelFont: Promise<OutlineFont> | null = null;
/** The label font's outlines (the font the SVG label names), parsed once; ZPL draws non-ASCII lines from it. */
function loadLabelFont(): Promise<OutlineFont> {
  labelFont ??= loadFontBytes().then(
    (bytes) => fontkit.create(bytes),
    (err: unknown) => {
      labelFont = null;
      throw err;
    },
  );
  return labelFont;
}

const s = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

export const labelRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/labels/templates',
    response: labelResponses.templates,
    auth: 'ops:view',
    handler: async ({ app, ws }) => ({ templates: await app.store.list(ws, LABEL_TEMPLATES) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/labels/template',
    response: labelResponses.save,
    auth: 'ops:edit',
    body: templateBody,
    handler: async ({ app, ws, body }) => {
      const id = body.id || randomKey('tpl-', 4).slice(0, 40);
      const template = { id, name: body.name, size: body.size, fields: body.fields, ts: body.ts || Date.now() };
      await app.store.transact(ws, (tx) => tx.put(LABEL_TEMPLATES, id, template));
      return { template };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/labels/template/:id/delete',
    response: labelResponses.remove,
    auth: 'ops:edit',
    params: idParams,
    handler: async ({ app, ws, params }) => {
      const removed = await app.store.transact(ws, (tx) => tx.remove(LABEL_TEMPLATES, params.id));
      if (!removed) throw notFound('template not found');
      return { id: params.id };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/labels/log',
    response: labelResponses.log,
    auth: 'ops:view',
    handler: async ({ app, ws }) => ({ log: await app.store.list(ws, LABEL_LOG, { reverse: true }) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/labels/log',
    response: labelResponses.addLog,
    auth: 'ops:edit',
    body: logBody,
    handler: async ({ app, ws, body }) => {
      const ts = body.ts || Date.now();
      const date = body.date ?? jstDate(ts);
      if (!isDate(date)) throw badRequest('invalid date', { message: '日付(date)は YYYY-MM-DD 形式で指定してください' });
      const entry = { id: randomKey('lg-', 4), ts, date, count: body.count, size: body.size, result: body.result, ...(body.reason ? { reason: body.reason } : {}), ...(body.printer ? { printer: body.printer } : {}), ...(body.imei ? { imei: body.imei } : {}), ...(body.asset ? { asset: body.asset } : {}) };
      await app.store.transact(ws, (tx) => tx.put(LABEL_LOG, entry.id, entry));
      return { entry };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/labels/font.ttf',
    produces: 'font/ttf',
    auth: 'public',
    workspace: false,
    // the Japanese font of printed labels, so a bench PC without one still prints customer names
    handler: async () => new Reply(200, await loadFontBytes(), { 'Content-Type': 'font/ttf', 'Cache-Control': 'public, max-age=604800' }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/labels/render',
    produces: ['image/svg+xml', 'text/html', 'text/plain'],
    auth: 'ops:view',
    query: renderQuery,
    handler: async ({ app, ws, query }) => {
      const dev = await app.store.get(ws, 'devices', query.imei);
      if (!dev) throw notFound('device not found');
      let tpl: Doc | null = null;
      if (query.tpl) {
        tpl = await app.store.get(ws, LABEL_TEMPLATES, query.tpl);
        if (!tpl) throw notFound('template not found');
      }
      const tplFields = tpl ? labelFlags.safeParse(tpl.fields ?? {}) : null;
      const chosen = query.fields === undefined ? null : new Set(query.fields.split(','));
      const fields = chosen ? (Object.fromEntries(LABEL_FIELDS.map((f) => [f, chosen.has(f)])) as LabelFlags) : tplFields?.success ? tplFields.data : allLabelFlags();
      const tplSize = LABEL_SIZES.find((x) => x === tpl?.size);
      const size: LabelSize = query.size ?? tplSize ?? 'm';
      const device: LabelDevice = {
        imei: s(dev.imei),
        asset: clip(s(dev.asset), 40),
        serial: clip(s(dev.serial), 40),
        model: clip(s(dev.model), 60),
        cust: clip(s(dev.cust), 60),
      };
      const name = `label-${device.imei}-${size}`;
      if (query.format === 'zpl') {
        return new Reply(200, renderLabelZpl(device, fields, size, query.dpi === '300' ? 300 : 203, await loadLabelFont()), {
          'Content-Type': 'text/plain; charset=utf-8',
          'Content-Disposition': `inline; filename="${name}.zpl"`,
        });
      }
      if (query.format === 'html') return new Reply(200, renderLabelHtml(device, fields, size), { 'Content-Type': 'text/html; charset=utf-8' });
      return new Reply(200, renderLabelSvg(device, fields, size), { 'Content-Type': 'image/svg+xml; charset=utf-8' });
    },
  }),
];
