import { describe, expect, it } from 'vitest';
import { daysSince, shiftDates, shiftText } from './seed-dates';
import { SqliteStore } from './sqlite-store';
import { ensureWorkspace, readSeed } from './seed';

const AS_OF = '2026-11-26';

describe('demo dates move with the calendar', () => {
  it('counts whole days to the Japan-time day of now', () => {
    expect(daysSince(AS_OF, Date.parse('2026-11-26T00:00:00+09:00'))).toBe(0);
    expect(daysSince(AS_OF, Date.parse('2026-11-26T23:59:59+09:00'))).toBe(0);
    expect(daysSince(AS_OF, Date.parse('2026-11-27T00:00:00+09:00'))).toBe(1);
    expect(daysSince(AS_OF, Date.parse('2027-01-05T12:00:00+09:00'))).toBe(40);
  });

  it('moves every date form and keeps its format', () => {
    expect(shiftText('2026-12-10', 40, AS_OF)).toBe('2027-01-19');
    expect(shiftText('2026/07/31', 3, AS_OF)).toBe('2026/08/03');
    expect(shiftText('2026-11-04 09:12', 30, AS_OF)).toBe('2026-12-04 09:12');
    expect(shiftText('12/10', 40, AS_OF)).toBe('01/19');
    expect(shiftText('11/24 出荷予定の iPhone 16 ×30台が未出荷', 7, AS_OF)).toBe('12/01 出荷予定の iPhone 16 ×30台が未出荷');
    expect(shiftText('12/10 トライアル終了。12/03 の報告会までに', 1, AS_OF)).toBe('12/11 トライアル終了。12/04 の報告会までに');
  });

  it('leaves what is not a date alone', () => {
    for (const s of ['2022/04', 'SHP-1004', 'C-02-02', '13/45', 'iPhone 16 ×30台', '2026年11月', 'INV-2607-001']) expect(shiftText(s, 40, AS_OF)).toBe(s);
    expect(shiftDates({ bat: 79, qty: 40, price: 1_280_000 }, 40, AS_OF)).toEqual({ bat: 79, qty: 40, price: 1_280_000 });
  });

  it('moves epoch timestamps by whole days', () => {
    const ts = Date.parse('2026-11-24T09:12:00+09:00');
    expect(shiftDates({ created: ts }, 2, AS_OF)).toEqual({ created: ts + 2 * 86_400_000 });
  });

  it('a workspace seeded 40 days later has its due dates 40 days later', async () => {
    const store = new SqliteStore({ file: ':memory:', node: 'seedtest' });
    try {
      const later = Date.parse('2027-01-05T10:00:00+09:00');
      await ensureWorkspace(store, 'w-later', 'bench', [{ file: 'jobs.json', coll: 'jobs', asOf: AS_OF }], undefined, later);
      const seeded = readSeed('jobs.json');
      const stored = await store.transact('w-later', async (tx) => tx.get('jobs', String(seeded[0]!.id)));
      expect(stored?.due).toBe(shiftText(String(seeded[0]!.due), 40, AS_OF));
      expect(stored?.due).not.toBe(seeded[0]!.due);
    } finally {
      store.close();
    }
  });
});
