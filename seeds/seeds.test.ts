import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { isValidImei } from '../shared/imei';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const load = (name: string): any[] => JSON.parse(readFileSync(new URL(`./${name}`, import.meta.url), 'utf8'));

const devices = load('devices.json');
const customers = load('customers.json');
const tickets = load('tickets.json');
const messages = load('ticket-messages.json');
const jobs = load('jobs.json');
const shipments = load('shipments.json');
const inquiries = load('inquiries.json');
const alerts = load('alerts.json');
const ops = load('ops.json');
const centers = load('centers.json');
const staff = load('staff.json');

const DEVICE_KEYS = ['imei', 'serial', 'asset', 'model', 'maker', 'cust', 'mdm', 'status', 'chip', 'bat', 'loc', 'user', 'note'];
const CHIP: Record<string, string> = {
  保管中: 'c-blue', 作業中: 'c-cyan', 入荷待ち: 'c-gray', 出荷済: 'c-green', 修理中: 'c-orange', 返却済: 'c-gray',
};
const NOV_2026_START = Date.UTC(2026, 10, 1) - 9 * 3600_000; // JST
const DEC_2026_START = Date.UTC(2026, 11, 1) - 9 * 3600_000;

describe('devices.json', () => {
  it('has exactly 178 devices with the spec fields', () => {
    expect(devices).toHaveLength(178);
    for (const d of devices) expect(Object.keys(d).sort()).toEqual([...DEVICE_KEYS].sort());
  });

  it('has valid, unique IMEIs', () => {
    for (const d of devices) expect(isValidImei(d.imei), d.imei).toBe(true);
    expect(new Set(devices.map((d) => d.imei)).size).toBe(178);
  });

  it('derives chip from status', () => {
    for (const s of ['保管中', '作業中', '入荷待ち']) {
      const rows = devices.filter((d) => d.status === s);
      expect(rows.length).toBeGreaterThan(10);
      for (const d of rows) expect(d.chip).toBe(CHIP[s]);
    }
    for (const d of devices) expect(d.chip, d.status).toBe(CHIP[d.status]);
  });

  it('has assets HK-26-1..178, unique serials and sane field values', () => {
    expect(devices.map((d) => d.asset)).toEqual(Array.from({ length: 178 }, (_, i) => `HK-26-${i + 1}`));
    expect(new Set(devices.map((d) => d.serial)).size).toBe(178);
    for (const d of devices) {
      expect(d.serial).toMatch(/^[A-Z0-9]{4}-\d{6}$/);
      expect(Number.isInteger(d.bat)).toBe(true);
      expect(d.bat).toBeGreaterThanOrEqual(60);
      expect(d.bat).toBeLessThanOrEqual(100);
      expect(d.loc.length).toBeLessThanOrEqual(120);
      expect(d.note.length).toBeLessThanOrEqual(300);
      if (d.status === '保管中') {
        expect(d.user).toBe('');
        expect(d.loc).toMatch(/^[A-Z]-\d{2}-\d{2}$/);
      }
    }
  });

  it('uses customer names from customers.json (plus 社内検証機)', () => {
    const names = new Set([...customers.map((c) => c.name), '社内検証機']);
    for (const d of devices) expect(names.has(d.cust), d.cust).toBe(true);
    for (const c of customers) expect(devices.some((d) => d.cust === c.name), c.name).toBe(true);
  });
});

describe('customers.json', () => {
  it('has 8 customers with unique ids and keys', () => {
    expect(customers).toHaveLength(8);
    expect(new Set(customers.map((c) => c.id)).size).toBe(8);
    expect(new Set(customers.map((c) => c.key)).size).toBeGreaterThanOrEqual(5);
    for (const c of customers) {
      expect(c.id).toMatch(/^cust-[a-z0-9]+$/);
      expect(c.key).toMatch(/^[a-z]{2,5}$/);
      expect(c.name).toBeTruthy();
    }
  });

  it('has well-formed renew objects (at least 5)', () => {
    const withRenew = customers.filter((c) => c.renew !== null);
    expect(withRenew.length).toBeGreaterThanOrEqual(5);
    for (const c of customers) expect(c.renew === null || typeof c.renew === 'object').toBe(true);
    for (const { renew: r } of withRenew) {
      expect(r.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      const dt = new Date(`${r.date}T00:00:00Z`);
      expect(dt.toISOString().slice(0, 10)).toBe(r.date); // a real calendar date
      expect(r.date >= '2026-12-01' && r.date <= '2027-06-30').toBe(true);
      expect(r.dateLabel).toBe(`${r.date.slice(5, 7)}/${r.date.slice(8, 10)}`);
      expect(r.year).toBe(r.date.slice(0, 4));
      for (const k of ['kind', 'kindChip', 'what', 'detail', 'confidence', 'confColor']) expect(r[k], k).toBeTruthy();
      expect(r.kindChip).toMatch(/^c-/);
      expect(r.confColor).toMatch(/^c-/);
    }
  });
});

describe('tickets', () => {
  it('has 6 tickets with ids below TK-0673, created in Nov 2026', () => {
    expect(tickets).toHaveLength(6);
    expect(tickets.map((t) => t.id)).toEqual(['TK-0667', 'TK-0668', 'TK-0669', 'TK-0670', 'TK-0671', 'TK-0672']);
    for (const t of tickets) {
      expect(Number(t.id.slice(3))).toBeLessThan(673);
      expect(t.created).toBeGreaterThanOrEqual(NOV_2026_START);
      expect(t.created).toBeLessThan(DEC_2026_START);
      expect(['受付', '対応中', '解決']).toContain(t.status);
    }
  });

  it('has messages that point at existing tickets', () => {
    const ids = new Set(tickets.map((t) => t.id));
    const threads = new Set(messages.map((m) => m.ticketId));
    expect(threads.size).toBeGreaterThanOrEqual(2);
    for (const m of messages) {
      expect(m.id).toMatch(/^msg-/);
      expect(ids.has(m.ticketId)).toBe(true);
      expect(m.text).toBeTruthy();
      expect(typeof m.ts).toBe('number');
    }
  });
});

describe('jobs.json', () => {
  it('keeps every stage within 0..7 and uses all 8 stages', () => {
    expect(jobs.length).toBeGreaterThanOrEqual(16);
    for (const j of jobs) {
      expect(Number.isInteger(j.s)).toBe(true);
      expect(j.s).toBeGreaterThanOrEqual(0);
      expect(j.s).toBeLessThanOrEqual(7);
      expect(j.id).toMatch(/^job-/);
    }
    expect(new Set(jobs.map((j) => j.s)).size).toBe(8);
    expect(new Set(jobs.map((j) => j.id)).size).toBe(jobs.length);
  });
});

describe('other seed files', () => {
  it('has 5 centers', () => {
    expect(centers).toHaveLength(5);
    for (const c of centers) {
      expect(c.id).toMatch(/^c-/);
      expect(Array.isArray(c.mdm)).toBe(true);
      expect(Array.isArray(c.certs)).toBe(true);
      for (const k of ['slots', 'shelf', 'rate']) expect(typeof c[k]).toBe('number');
    }
  });

  it('has SHP-#### shipments with valid kind', () => {
    for (const s of shipments) {
      expect(s.id).toMatch(/^SHP-\d{4}$/);
      expect(['in', 'out']).toContain(s.kind);
      expect(typeof s.late).toBe('boolean');
    }
  });

  it('has sequential 5-digit inquiry ids with YYYY-MM-DD or empty dates', () => {
    inquiries.forEach((q, i) => {
      expect(q.id).toBe(String(i + 1).padStart(5, '0'));
      expect(q.inquiryId).toBe(q.id);
      for (const k of ['inquiryDate', 'returnDeadline', 'shipDate', 'arrivalDate', 'returnDate', 'returnReceivedDate']) {
        expect(q[k], k).toMatch(/^(\d{4}-\d{2}-\d{2})?$/);
      }
    });
  });

  it('has unacknowledged alerts, some late', () => {
    const late = alerts.filter((a) => a.late).length;
    expect(late).toBeGreaterThanOrEqual(2);
    expect(late).toBeLessThanOrEqual(3);
    for (const a of alerts) {
      expect(a.ack).toBe(false);
      expect(typeof a.action.danger).toBe('boolean');
    }
  });

  it('has ops rows with HH:MM times and staff of type own|agency', () => {
    for (const o of ops) expect(o.time).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
    for (const s of staff) expect(['own', 'agency']).toContain(s.type);
  });
});
