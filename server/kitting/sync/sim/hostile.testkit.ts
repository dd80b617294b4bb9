import { HLC_COUNTER_LIMIT, HLC_PATTERN, formatHlc, parseHlc } from '../../../../shared/hlc';
import type { Doc, LeaseBlock, Store } from '../../store/types';
import type { SyncCentral } from '../central';
import { SyncError } from '../protocol';
import type { Rng } from './rng.testkit';

/** What the hostile bench tried and how central answered. */
export interface HostileCounts {
  refused: number;
  accepted: number;
}

const NODE = 'mallory';
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * A hostile (or broken) bench, enrolled like any other, that talks to central directly: it asks for
 * leases far beyond central's numbers and beyond the format, pushes stamps with a counter at its limit,
 * one below it, and times beyond the skew window, and pushes numbered records outside its lease.
 * Central must refuse every harmful request (a problem otherwise); what it accepts (valid stamps near the
 * limits, numbers of its own lease) is handed to the oracle like any other write.
 */
export class HostileBench {
  private token = '';
  private seq = 0;
  private readonly blocks: LeaseBlock[] = [];
  readonly counts: HostileCounts = { refused: 0, accepted: 0 };

  constructor(
    private readonly central: () => SyncCentral,
    private readonly store: Store,
    private readonly rng: Rng,
    private readonly ws: string,
    private readonly now: () => number,
    private readonly accepted: (coll: string, id: string, hlc: string, fields: Doc) => void,
    private readonly issued: (series: string, n: number) => void,
    private readonly problems: string[],
  ) {}

  async enrol(): Promise<void> {
    const c = this.central();
    const { code } = await c.createCode(this.ws);
    // A first attempt names levels near 2^53: refused before the code is spent.
    await this.expectRefused('enrol with levels near 2^53', () => c.enrol({ code, bench: NODE, name: NODE, series: { ticket: MAX_SAFE - 1 } }, 0));
    const ans = await c.enrol({ code, bench: NODE, name: NODE, series: {} }, 0);
    this.token = ans.token;
    this.blocks.push(...ans.blocks);
  }

  private async expectRefused(what: string, run: () => Promise<unknown>): Promise<void> {
    try {
      await run();
      this.problems.push(`hostile bench: central accepted ${what}`);
    } catch (err) {
      if (!(err instanceof SyncError) || err.status !== 422) {
        this.problems.push(`hostile bench: ${what} answered ${err instanceof Error ? err.message : String(err)}, not 422`);
        return;
      }
      this.counts.refused += 1;
    }
  }

  private stamp(ms: number, counter: number): string {
    return formatHlc({ ms, counter, node: NODE });
  }

  private body(changes: { coll: string; id: string; hlc: string; fields: Doc }[]) {
    return { batch: `mallory-${(this.seq += 1)}`, changes: changes.map((c) => ({ seq: (this.seq += 1), ...c })) };
  }

  private async push(changes: { coll: string; id: string; hlc: string; fields: Doc }[]): Promise<void> {
    const c = this.central();
    await c.push(await c.authenticate(this.token, 0), this.body(changes));
    this.counts.accepted += 1;
    for (const ch of changes) this.accepted(ch.coll, ch.id, ch.hlc, ch.fields);
  }

  /** One hostile act (central is up). */
  async act(imeis: string[]): Promise<void> {
    const c = this.central();
    const bench = await c.authenticate(this.token, 0);
    const level = (await this.store.replica.localSeries(this.ws)).ticket ?? 0;
    const now = c.now();
    switch (this.rng.int(0, 6)) {
      case 0:
        return this.expectRefused('a lease with atLeast near 2^53', () => c.lease(bench, { requests: [{ series: 'ticket', size: 10000, start: null, atLeast: MAX_SAFE - 10 }] }));
      case 1:
        return this.expectRefused('a lease far ahead of the series', () => c.lease(bench, { requests: [{ series: 'ticket', size: 5, start: null, atLeast: level + 1_000_000 }] }));
      case 2:
        return this.expectRefused('an oversized reserve', () => c.lease(bench, { requests: [{ series: 'ticket', size: 10000, start: null, atLeast: 0, overflow: true }] }));
      case 3: {
        // The number central would issue next: never this bench's.
        const id = `TK-0${level + 1}`;
        return this.expectRefused(`a ticket outside the lease (${id})`, () => c.push(bench, this.body([{ coll: 'tickets', id, hlc: this.stamp(now, 0), fields: { id, subject: '横取り', status: '受付', created: now } }])));
      }
      case 4: {
        const imei = this.rng.pick(imeis);
        const poisoned = this.rng.chance(0.5) ? this.stamp(now, HLC_COUNTER_LIMIT) : this.stamp(now + 3_600_000, 0);
        return this.expectRefused(`a poisoned stamp ${poisoned}`, () => c.push(bench, this.body([{ coll: 'devices', id: imei, hlc: poisoned, fields: { loc: '毒' } }])));
      }
      case 5: {
        // Just inside the limits: a counter one below its top, a time near the edge of the window. Accepted.
        const imei = this.rng.pick(imeis);
        const hlc = this.stamp(now + this.rng.int(0, 100_000), HLC_COUNTER_LIMIT - 1);
        return this.push([{ coll: 'devices', id: imei, hlc, fields: { loc: `棚M${this.rng.int(1, 9)}` } }]);
      }
      default: {
        // A ticket of its own lease: accepted, and the number is one nobody else issues.
        const b = this.blocks.find((x) => x.series === 'ticket' && x.lo <= x.hi);
        if (!b) return;
        const n = b.lo;
        b.lo += 1;
        const id = `TK-0${n}`;
        await this.push([{ coll: 'tickets', id, hlc: this.stamp(now, 0), fields: { id, subject: '正当な番号', status: '受付', created: now } }]);
        this.issued('ticket', n);
      }
    }
  }

  /** Every stamp central holds keeps the field widths and stays below the counter's limit. */
  static checkStamps(lines: { stamps: Record<string, string> }[], problems: string[]): void {
    for (const r of lines) {
      for (const s of Object.values(r.stamps)) {
        if (!HLC_PATTERN.test(s) || parseHlc(s).counter >= HLC_COUNTER_LIMIT) {
          problems.push(`central holds a stamp it would refuse: ${s}`);
          return;
        }
      }
    }
  }
}
