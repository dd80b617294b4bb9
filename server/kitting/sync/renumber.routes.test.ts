import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certDigest, type CertData } from '../modules/certs/certs.service';
import { startTestServer, type Client, type TestServer } from '../testing/harness.testkit';
import type { Doc } from '../store/types';

type Body = Record<string, unknown> & { ok: boolean; error?: string };

let central: TestServer;
let bench: TestServer;
let owner: Client;
let ui: Client;

beforeAll(async () => {
  central = await startTestServer({ mode: 'central' });
  bench = await startTestServer({ mode: 'bench' });
  owner = central.client();
  ui = bench.client();
  await owner.get('/api/devices');
  await ui.get('/api/devices');
});
afterAll(async () => {
  await bench.close();
  await central.close();
});

const COLLS = ['shipments', 'tickets', 'ticketMessages', 'inquiries', 'invoices', 'erasureCerts', 'devices'] as const;
type Coll = (typeof COLLS)[number];
const KEY: Record<Coll, string> = {
  shipments: 'id',
  tickets: 'id',
  ticketMessages: 'id',
  inquiries: 'id',
  invoices: 'id',
  erasureCerts: 'no',
  devices: 'imei',
};

/** Everything a replica holds of the collections, by key. */
async function dump(t: TestServer, ws: string): Promise<Record<Coll, Map<string, Doc>>> {
  const out = {} as Record<Coll, Map<string, Doc>>;
  for (const c of COLLS) out[c] = new Map((await t.store.list(ws, c)).map((d) => [String(d[KEY[c]]), d]));
  return out;
}

interface Made {
  shipments: Doc[];
  ticket: Doc;
  message: Doc;
  inquiry: Doc;
  invoice: Doc;
  cert: Doc;
  device: Doc;
}

async function make(c: Client, who: string, shipments: number): Promise<Made> {
  const post = async (path: string, body: unknown, key: string) => {
    const res = await c.post<Body>(path, body);
    expect(res.status, `${path}: ${res.text}`).toBe(200);
    return res.body[key] as Doc;
  };
  const ships: Doc[] = [];
  for (let i = 0; i < shipments; i += 1) ships.push(await post('/api/shipment', { customer: `${who}-出荷${i}` }, 'shipment'));
  const ticket = await post('/api/ticket', { subject: `${who}-画面割れ` }, 'ticket');
  const message = await post(`/api/ticket/${String(ticket.id)}/message`, { text: `${who}-返信`, from: who }, 'message');
  return {
    shipments: ships,
    ticket,
    message,
    inquiry: await post('/api/inquiry', { customer: `${who}-顧客`, title: `${who}-故障` }, 'inquiry'),
    invoice: await post('/api/invoice', { cust: `${who}-請求先`, amount: 12000 }, 'invoice'),
    cert: await post('/api/cert', { cust: `${who}-消去先`, devices: [{ model: 'iPhone 15', id: `${who}-SN1`, storage: '128GB' }] }, 'cert'),
    device: await withOldSerial(await post('/api/device', { model: 'Pixel 9', note: `${who}-端末` }, 'device')),
  };

  /** Older versions made the serial up from the asset number (PXL-000179): such a serial follows a renumbered asset. */
  async function withOldSerial(dev: Doc): Promise<Doc> {
    const n = Number(String(dev.asset).slice(6));
    const res = await c.post<Body>(`/api/device/${String(dev.imei)}`, { serial: `PXL-${String(n).padStart(6, '0')}` });
    expect(res.status).toBe(200);
    return res.body.device as Doc;
  }
}

describe('enrolment after both sides issued the same numbers', () => {
  it('renumbers the bench records, keeps every record of both sides, and nothing else changes', async () => {
    const benchWs = bench.ctx.benchWorkspace as string;
    const centralWs = owner.workspaceId() as string;
    const b = await make(ui, 'bench', 2);
    const c = await make(owner, 'central', 1);
    // The collision this is about: the same numbers on both sides.
    expect(b.shipments[0].id).toBe(c.shipments[0].id);
    expect(b.ticket.id).toBe(c.ticket.id);
    expect(b.inquiry.id).toBe(c.inquiry.id);
    expect(b.invoice.id).toBe(c.invoice.id);
    expect(b.cert.no).toBe(c.cert.no);
    expect(b.device.asset).toBe(c.device.asset);
    const benchBefore = await dump(bench, benchWs);
    const centralBefore = await dump(central, centralWs);

    const { code } = (await owner.post<Body & { code: string }>('/api/sync/enrol-code')).body;
    const enrolled = await ui.post<Body>('/api/sync/enrol', { central: central.url, code });
    expect(enrolled.status).toBe(200);
    expect(enrolled.body.lastError).toBeNull();
    const now = await ui.post<Body & { pending: number }>('/api/sync/now');
    expect(now.status).toBe(200);
    expect(now.body.pending).toBe(0);

    const onCentral = await dump(central, centralWs);
    const onBench = await dump(bench, centralWs);
    // Both replicas hold the same records.
    for (const coll of COLLS) expect([...onBench[coll].entries()].sort(), coll).toEqual([...onCentral[coll].entries()].sort());

    // Central's own records are untouched.
    for (const coll of COLLS) for (const [k, d] of centralBefore[coll]) expect(onCentral[coll].get(k), `${coll}/${k}`).toEqual(d);

    // Each bench record is there once, under a new number where the number collided.
    const find = (coll: Coll, pred: (d: Doc) => boolean) => [...onCentral[coll].values()].filter(pred);
    const newShips = b.shipments.map((s) => find('shipments', (d) => d.customer === s.customer));
    for (const [i, found] of newShips.entries()) {
      expect(found).toHaveLength(1);
      expect(found[0].id).not.toBe(b.shipments[i].id);
      expect(found[0]).toEqual({ ...b.shipments[i], id: found[0].id });
    }
    expect(Number(String(newShips[0][0].id).slice(4))).toBeGreaterThan(Number(String(b.shipments[1].id).slice(4)));
    expect(Number(String(newShips[1][0].id).slice(4))).toBe(Number(String(newShips[0][0].id).slice(4)) + 1);

    const [ticket] = find('tickets', (d) => d.subject === b.ticket.subject);
    expect(ticket.id).toMatch(/^TK-0\d+$/);
    expect(ticket.id).not.toBe(b.ticket.id);
    const [message] = find('ticketMessages', (d) => d.id === b.message.id);
    expect(message).toEqual({ ...b.message, ticketId: ticket.id });
    expect(onCentral.ticketMessages.get(String(c.message.id))?.ticketId).toBe(c.ticket.id);
    const thread = await owner.get<Body & { messages: Doc[] }>(`/api/ticket/${String(ticket.id)}/messages`);
    expect(thread.body.messages?.map((m) => m.id)).toEqual([b.message.id]);

    const [inquiry] = find('inquiries', (d) => d.title === b.inquiry.title);
    expect(inquiry.id).toMatch(/^\d{5}$/);
    expect(inquiry.id).not.toBe(b.inquiry.id);
    expect(inquiry).toEqual({ ...b.inquiry, id: inquiry.id, inquiryId: inquiry.id });

    const [invoice] = find('invoices', (d) => d.cust === b.invoice.cust);
    expect(invoice.id).toMatch(/^INV-\d{4}-\d{3}$/);
    expect(String(invoice.id).slice(0, 9)).toBe(String(b.invoice.id).slice(0, 9));
    expect(invoice).toEqual({ ...b.invoice, id: invoice.id });

    const [cert] = find('erasureCerts', (d) => d.cust === b.cert.cust);
    expect(cert.no).toMatch(/^KIT-ERZ-\d{4}-\d{4}$/);
    expect(cert.no).not.toBe(b.cert.no);
    expect(cert.formerNo).toBe(b.cert.no);
    expect(cert.formerDigest).toBe(b.cert.digest);
    expect(cert.digest).toBe(certDigest(cert as CertData));
    expect(cert).toEqual({ ...b.cert, no: cert.no, formerNo: b.cert.no, formerDigest: b.cert.digest, digest: cert.digest });
    expect((await owner.get<Body>(`/api/cert/${String(cert.no)}`)).status).toBe(200);

    const dev = onCentral.devices.get(String(b.device.imei)) as Doc;
    expect(dev.asset).not.toBe(b.device.asset);
    const n = Number(String(dev.asset).slice(6));
    expect(dev.serial).toBe(`${String(b.device.serial).split('-')[0]}-${String(n).padStart(6, '0')}`);
    expect(dev).toEqual({ ...b.device, asset: dev.asset, serial: dev.serial });

    // Nothing else: central's records plus exactly the bench's own ones; the demo rows merged as they were.
    for (const coll of COLLS) {
      expect(onCentral[coll].size, coll).toBe(centralBefore[coll].size + ownKeys(coll, b).length);
      for (const [k, d] of benchBefore[coll]) if (!ownKeys(coll, b).includes(k)) expect(onCentral[coll].get(k), `${coll}/${k}`).toEqual(d);
    }

    // No number twice in any series.
    for (const coll of COLLS) {
      const keys = [...onCentral[coll].keys()];
      expect(new Set(keys).size).toBe(keys.length);
    }
    const assets = [...onCentral.devices.values()].map((d) => d.asset).filter((a) => typeof a === 'string' && a !== '');
    expect(new Set(assets).size).toBe(assets.length);

    // Numbers issued after enrolment stay above the reserved range.
    const next = (await ui.post<Body & { shipment: Doc }>('/api/shipment', { customer: 'after' })).body.shipment;
    expect(Number(String(next.id).slice(4))).toBeGreaterThan(Number(String(newShips[1][0].id).slice(4)));
    const nextCentral = (await owner.post<Body & { shipment: Doc }>('/api/shipment', { customer: 'after-central' })).body.shipment;
    expect(Number(String(nextCentral.id).slice(4))).toBeGreaterThan(Number(String(newShips[1][0].id).slice(4)));
  });
});

/** Keys of the records the bench made before enrolment. */
function ownKeys(coll: Coll, b: Made): string[] {
  const own: Record<Coll, unknown[]> = {
    shipments: b.shipments.map((s) => s.id),
    tickets: [b.ticket.id],
    ticketMessages: [b.message.id],
    inquiries: [b.inquiry.id],
    invoices: [b.invoice.id],
    erasureCerts: [b.cert.no],
    devices: [b.device.imei],
  };
  return own[coll].map(String);
}
