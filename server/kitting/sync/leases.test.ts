import { describe, expect, it } from 'vitest';
import { SeriesRegistry } from '../store/series';
import { leasePlan } from './leases';

const NOV_2026 = Date.UTC(2026, 10, 22, 3);
/** 2026-12-31 23:30 in Japan. */
const NYE_2026 = Date.UTC(2026, 11, 31, 14, 30);

function registry(): SeriesRegistry {
  const r = new SeriesRegistry();
  const base = { keyed: true, field: 'id', format: (n: number) => String(n), pattern: /^(?<n>\d+)$/ };
  r.declare({ ...base, name: 'shipment', period: 'none', start: 1001, coll: 'shipments', reserve: 50 });
  r.declare({ ...base, name: 'erz', period: 'year', coll: 'erasureCerts', reserve: 40 });
  r.declare({ ...base, name: 'invoice', period: 'yymm', coll: 'invoices', reserve: 10 });
  r.declare({ ...base, name: 'store-order', period: 'yyyymm', coll: 'storeOrders', reserve: 10 });
  return r;
}

const level = (series: string, remaining: number, reserve: number, floor = 0) => ({ series, start: null, remaining, reserve, floor });

describe('SeriesRegistry.countersAt', () => {
  it('names each plain series and the current and next period of the periodic ones', () => {
    expect(registry().countersAt(NOV_2026).map((c) => c.counter)).toEqual([
      'shipment',
      'erz:2026',
      'erz:2027',
      'invoice:2611',
      'invoice:2612',
      'store-order:202611',
      'store-order:202612',
    ]);
  });

  it('on Dec 31 the next periods are next year and January', () => {
    expect(registry().countersAt(NYE_2026).map((c) => c.counter)).toEqual([
      'shipment',
      'erz:2026',
      'erz:2027',
      'invoice:2612',
      'invoice:2701',
      'store-order:202612',
      'store-order:202701',
    ]);
  });
});

describe('leasePlan', () => {
  it('a bench holding nothing asks a block and the reserve of every counter', () => {
    const plan = leasePlan([], registry(), 100, NOV_2026);
    expect(plan).toContainEqual({ series: 'shipment', size: 100, start: 1001, atLeast: 0 });
    expect(plan).toContainEqual({ series: 'shipment', size: 50, start: 1001, atLeast: 0, overflow: true });
    expect(plan).toContainEqual({ series: 'erz:2027', size: 40, start: 1, atLeast: 0, overflow: true });
    expect(plan).toHaveLength(14);
  });

  it('tops up a counter below 30% of a block (its low-water mark) and refills only the reserve it used', () => {
    const full = registry()
      .countersAt(NOV_2026)
      .map((c) => level(c.counter, 100, c.reserve));
    const levels = full.map((l) => (l.series === 'shipment' ? level('shipment', 29, 45, 1004) : l.series === 'invoice:2611' ? level('invoice:2611', 30, 10) : l));
    expect(leasePlan(levels, registry(), 100, NOV_2026)).toEqual([
      { series: 'shipment', size: 100, start: 1001, atLeast: 1004 },
      { series: 'shipment', size: 5, start: 1001, atLeast: 1004, overflow: true },
    ]);
  });

  it('a past period gets a block only when nothing is left; an undeclared series keeps its low-water mark', () => {
    const full = registry()
      .countersAt(NOV_2026)
      .map((c) => level(c.counter, 100, c.reserve));
    const plan = leasePlan([...full, level('invoice:2610', 0, 3), level('invoice:2609', 0, 0), level('custom', 20, 0)], registry(), 100, NOV_2026);
    expect(plan).toEqual([
      { series: 'invoice:2609', size: 100, start: 1, atLeast: 0 },
      { series: 'custom', size: 100, start: null, atLeast: 0 },
    ]);
  });
});
