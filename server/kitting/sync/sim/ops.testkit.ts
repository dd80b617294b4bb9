import type { Rng } from './rng.testkit';
import type { Tx } from '../../store/types';
import { CERT_NUMBERS } from '../../modules/certs/certs.service';
import { SYNC_LOG_NUMBERS } from '../../modules/integrations/integrations.service';
import { INVOICE_NUMBERS } from '../../modules/invoices/invoices.service';
import { SHIPMENT_NUMBERS } from '../../modules/shipments/shipments.service';
import { TICKET_NUMBERS } from '../../modules/tickets/tickets.service';
import { issueNumber, SeriesRegistry, type NumberedSeries } from '../../store/series';

export const LOG_CAP = 60;
/** Small blocks and reserves, so that benches spend both while central is away. */
export const BLOCK = 12;
const RESERVE = 10;

/** The simulation's numbered series: the modules' declarations with a small reserve. */
export function simSeries(): SeriesRegistry {
  const r = new SeriesRegistry();
  for (const s of [TICKET_NUMBERS, CERT_NUMBERS, SYNC_LOG_NUMBERS, SHIPMENT_NUMBERS, INVOICE_NUMBERS]) r.declare({ ...s, reserve: RESERVE });
  return r;
}

/** One random write in a transaction; numbers it issued are noted as [counter, n]. */
export type Op = (tx: Tx, issued: [string, number][]) => Promise<void>;

export interface OpContext {
  rng: Rng;
  now: number;
  imeis: string[];
  numbersBeforeEnrol: boolean;
}

/** The random writes a replica may make (numbered ones only where numbers can be issued). */
export function randomOps(ctx: OpContext, enrolled: boolean): Op[] {
  const { rng, now } = ctx;
  const device: Op = async (tx) => {
    const imei = rng.pick(ctx.imeis);
    const cur = await tx.get('devices', imei);
    if (cur) await tx.patch('devices', imei, { status: rng.pick(['入荷待ち', 'キッティング中', '出荷済', '修理中']), loc: `棚${rng.int(1, 9)}`, bat: rng.int(1, 100) });
    else await tx.put('devices', imei, { imei, model: rng.pick(['iPhone 16', 'Pixel 9']), status: '入荷待ち', bat: 100, note: `scan ${rng.int(1, 999)}` });
  };
  const replace: Op = async (tx) => {
    const imei = rng.pick(ctx.imeis);
    const cur = await tx.get('devices', imei);
    if (!cur) return;
    const { note: _note, ...rest } = cur;
    await tx.put('devices', imei, { ...rest, user: `user${rng.int(1, 20)}`, model: rng.pick(['iPhone 15', 'iPad Air']) });
  };
  const remove: Op = async (tx) => {
    await tx.remove('devices', rng.pick(ctx.imeis));
  };
  const job: Op = async (tx) => {
    const jobs = await tx.list('jobs');
    if (jobs.length > 0 && rng.chance(0.6)) {
      const j = rng.pick(jobs);
      await tx.patch('jobs', String(j.id), { qty: rng.int(1, 50), stage: rng.pick(['受入', '初期化', '出荷']) });
    } else {
      const id = `JOB-${rng.int(0, 1e9).toString(36)}`;
      await tx.put('jobs', id, { id, title: `案件${rng.int(1, 99)}`, qty: rng.int(1, 50) });
    }
  };
  const settings: Op = async (tx) => {
    const cur = await tx.get('settings', 'company');
    const fields = rng.chance(0.5) ? { name: `会社${rng.int(1, 9)}` } : { tel: `03-${rng.int(1000, 9999)}` };
    if (cur) await tx.patch('settings', 'company', fields);
    else await tx.put('settings', 'company', { id: 'company', ...fields });
  };
  const next = async (tx: Tx, issued: [string, number][], s: NumberedSeries) => {
    const period = s.periodAt(now);
    const { n, value } = await issueNumber(tx, s, period);
    issued.push([s.counter(period), n]);
    return value;
  };
  const ticket: Op = async (tx, issued) => {
    const tickets = await tx.list('tickets');
    if (tickets.length > 0 && rng.chance(0.6)) {
      const t = rng.pick(tickets);
      const mid = `M-${rng.int(0, 1e9).toString(36)}`;
      await tx.put('ticketMessages', mid, { id: mid, ticketId: t.id, text: `返信${rng.int(1, 99)}`, at: now });
      await tx.patch('tickets', String(t.id), { status: rng.pick(['受付', '対応中', '完了']) });
      return;
    }
    const id = await next(tx, issued, TICKET_NUMBERS);
    await tx.put('tickets', id, { id, subject: `件名${rng.int(1, 99)}`, status: '受付', created: now });
  };
  const cert: Op = async (tx, issued) => {
    const no = await next(tx, issued, CERT_NUMBERS);
    await tx.put('erasureCerts', no, { no, date: new Date(now).toISOString().slice(0, 10), count: rng.int(1, 30), devices: [{ model: 'iPhone 16', id: rng.pick(ctx.imeis), storage: '128GB' }] });
  };
  const log: Op = async (tx, issued) => {
    const id = await next(tx, issued, SYNC_LOG_NUMBERS);
    await tx.put('syncLog', id, { id, service: 'MDM', kind: 'push', result: 'ok', time: new Date(now).toISOString() });
    await tx.trimLocal('syncLog', LOG_CAP);
  };
  const shipment: Op = async (tx, issued) => {
    const id = await next(tx, issued, SHIPMENT_NUMBERS);
    await tx.put('shipments', id, { id, customer: `顧客${rng.int(1, 9)}`, status: '予定' });
  };
  const invoice: Op = async (tx, issued) => {
    const id = await next(tx, issued, INVOICE_NUMBERS);
    await tx.put('invoices', id, { id, amount: rng.int(1000, 90000) });
  };
  // Before enrolment a bench's local counters are not leased: its numbers are renumbered at
  // enrolment where central issued the same (only with numbersBeforeEnrol).
  const plain = [device, device, device, replace, remove, job, job, settings];
  if (enrolled) return [...plain, ticket, ticket, cert, log, log, shipment, invoice];
  return ctx.numbersBeforeEnrol ? [...plain, ticket, ticket, cert, shipment, invoice] : plain;
}
