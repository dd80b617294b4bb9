import fontkit from 'fontkit';
import { z } from 'zod';
import { bool, clip, createShape, intClamp, json, oneOf, text } from '../../../../shared/fields';
import { jstDate } from '../../../../shared/dates';
import { randomId } from '../../../core/http/crud';
import { defineRoute, Reply } from '../../../core/http/define-route';
import { badRequest, notFound } from '../../../core/errors';
import type { Doc } from '../../../core/store/types';
import { loadFontBytes } from '../certs/cert-pdf';
import { isDate } from '../compliance/compliance.service';
import { LABEL_SIZES, renderLabelHtml, renderLabelSvg, renderLabelZpl, type LabelDevice, type LabelFields, type LabelSize } from './label-render';
import type { OutlineFont } from './zpl-bitmap';

export const LABEL_TEMPLATES = 'labelTemplates';
export const LABEL_LOG = 'labelLog';

const FIELD_KEYS = ['mgmt', 'imei', 'cust', 'model', 'qr', 'barcode'] as const;

/** Template fields: every flag a bool, a missing flag reads as shown (true). */
const fieldsSchema = z
  .record(z.string(), z.unknown(), { error: 'fields must be an object' })
  .transform((raw, ctx) => {
    const out = {} as LabelFields;
    for (const k of FIELD_KEYS) {
      if (raw[k] === undefined || raw[k] === null) {
        out[k] = true;
        continue;
      }
      const r = bool().zod.safeParse(raw[k]);
      if (!r.success) {
        ctx.addIssue({ code: 'custom', message: 'must be true or false', path: [k] });
        continue;
      }
      out[k] = r.data;
    }
    return out;
  });

const allFields = (): LabelFields => ({ mgmt: true, imei: true, cust: true, model: true, qr: true, barcode: true });

const templateBody = createShape({
  id: text(40).optional(),
  name: text(60).default('ラベル'),
  size: oneOf(LABEL_SIZES, 'm'),
  fields: json(fieldsSchema).default(allFields),
  ts: intClamp(0, 8_640_000_000_000_000, 0).optional(),
});

const logBody = createShape({
  size: oneOf(LABEL_SIZES, 'm'),
  count: intClamp(1, 100_000, 1),
  date: text(10).optional(),
  ts: intClamp(0, 8_640_000_000_000_000, 0).optional(),
  /** Outcome of the print job (the desktop app logs failures too, with the printer's reason). */
  result: oneOf(['ok', 'failed'], 'ok'),
  reason: text(200).optional(),
  printer: text(120).optional(),
});

const idParams = z.object({ id: z.string().min(1).max(60) });

const renderQuery = z.object({
  imei: z.string({ error: 'imei required' }).trim().min(1, 'imei required').max(40),
  tpl: z.string().max(60).optional(),
  size: z.enum(['s', 'm', 'l'], { error: 'size must be s, m or l' }).optional(),
  format: z.enum(['svg', 'html', 'zpl'], { error: 'format must be svg, html or zpl' }).default('svg'),
  dpi: z.enum(['203', '300'], { error: 'dpi must be 203 or 300' }).default('203'),
});

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
    auth: 'ops:view',
    handler: async ({ app, ws }) => ({ templates: await app.store.list(ws, LABEL_TEMPLATES) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/labels/template',
    auth: 'ops:edit',
    body: templateBody,
    handler: async ({ app, ws, body }) => {
      const id = body.id || randomId('tpl-').slice(0, 40);
      const template = { id, name: body.name, size: body.size, fields: body.fields, ts: body.ts || Date.now() };
      await app.store.transact(ws, (tx) => tx.put(LABEL_TEMPLATES, id, template));
      return { template };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/labels/template/:id/delete',
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
    auth: 'ops:view',
    handler: async ({ app, ws }) => ({ log: await app.store.list(ws, LABEL_LOG, { reverse: true }) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/labels/log',
    auth: 'ops:edit',
    body: logBody,
    handler: async ({ app, ws, body }) => {
      const ts = body.ts || Date.now();
      const date = body.date ?? jstDate(ts);
      if (!isDate(date)) throw badRequest('invalid date', { message: '日付(date)は YYYY-MM-DD 形式で指定してください' });
      const entry = { id: randomId('lg-'), ts, date, count: body.count, size: body.size, result: body.result, ...(body.reason ? { reason: body.reason } : {}), ...(body.printer ? { printer: body.printer } : {}) };
      await app.store.transact(ws, (tx) => tx.put(LABEL_LOG, entry.id, entry));
      return { entry };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/labels/font.ttf',
    auth: 'public',
    workspace: false,
    // the Japanese font of printed labels, so a bench PC without one still prints customer names
    handler: async () => new Reply(200, await loadFontBytes(), { 'Content-Type': 'font/ttf', 'Cache-Control': 'public, max-age=604800' }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/labels/render',
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
      const tplFields = tpl ? fieldsSchema.safeParse(tpl.fields ?? {}) : null;
      const fields = tplFields?.success ? tplFields.data : allFields();
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
