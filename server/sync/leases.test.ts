import { describe, expect, it } from 'vitest';
import { leasePlan, periodSiblings } from './leases';

const NOV_2026 = Date.UTC(2026, 10, 22, 3);
const DEC_2026 = Date.UTC(2026, 11, 31, 3);

describe('periodSiblings', () => {
  it('reads YYMM, YYYY and YYYYMM periods and adds the next one', () => {
    expect(periodSiblings('invoice:2611', NOV_2026)).toEqual(['invoice:2611', 'invoice:2612']);
    expect(periodSiblings('erz:2026', NOV_2026)).toEqual(['erz:2026', 'erz:2027']);
    expect(periodSiblings('ao:202611', NOV_2026)).toEqual(['ao:202611', 'ao:202612']);
    expect(periodSiblings('invoice:2612', DEC_2026)).toEqual(['invoice:2612', 'invoice:2701']);
    expect(periodSiblings('shipment', NOV_2026)).toEqual([]);
  });
});

describe('leasePlan', () => {
  it('tops up a series below 30% of a block and leaves one above alone', () => {
    const plan = leasePlan(
      [
        { series: 'shipment', start: 1001, remaining: 29, floor: 1004 },
        { series: 'ticket', start: 673, remaining: 30, floor: 0 },
      ],
      100,
      NOV_2026,
    );
    expect(plan).toEqual([{ series: 'shipment', size: 100, start: 1001, atLeast: 1004 }]);
  });

  it('keeps blocks of the current and next period of a periodic series, not of past ones', () => {
    const plan = leasePlan([{ series: 'invoice:2610', start: 1, remaining: 10, floor: 3 }], 100, NOV_2026);
    expect(plan.map((p) => p.series).sort()).toEqual(['invoice:2611', 'invoice:2612']);
  });
});
