/**
 * Hybrid logical clock. A stamp is `<ms 15 digits>:<counter 6 digits>:<node>` so that
 * plain string comparison orders stamps causally, with the node id as tiebreak.
 */
export type Hlc = string;

const MS_WIDTH = 15;
const COUNTER_WIDTH = 6;
/**
 * The counter's field holds six digits; its top value is never issued (central refuses a stamp that
 * carries it): a clock whose counter would reach it moves its time part forward by one millisecond
 * and starts the counter again, so stamps keep their width and keep sorting as strings.
 */
export const HLC_COUNTER_LIMIT = 10 ** COUNTER_WIDTH - 1;
/** A well-formed stamp: 15-digit time, 6-digit counter, a node id without ':' (1..64 characters). */
export const HLC_PATTERN = /^\d{15}:\d{6}:[^:]{1,64}$/;

/**
 * Why a stamp from elsewhere is refused, or null: malformed, a counter at its limit (a clock that
 * would push every other clock past the field), or a time more than `futureMs` beyond `now`.
 */
export function stampProblem(h: string, now: number, futureMs: number): 'hlc_invalid' | 'hlc_counter_exhausted' | 'hlc_in_future' | null {
  if (!HLC_PATTERN.test(h)) return 'hlc_invalid';
  const p = parseHlc(h);
  if (p.counter >= HLC_COUNTER_LIMIT) return 'hlc_counter_exhausted';
  if (p.ms > now + futureMs) return 'hlc_in_future';
  return null;
}

export interface HlcParts {
  ms: number;
  counter: number;
  node: string;
}

export function formatHlc(p: HlcParts): Hlc {
  return `${String(p.ms).padStart(MS_WIDTH, '0')}:${String(p.counter).padStart(COUNTER_WIDTH, '0')}:${p.node}`;
}

export function parseHlc(h: Hlc): HlcParts {
  const first = h.indexOf(':');
  const second = h.indexOf(':', first + 1);
  if (first < 0 || second < 0) throw new Error(`malformed hlc: ${h}`);
  return { ms: Number(h.slice(0, first)), counter: Number(h.slice(first + 1, second)), node: h.slice(second + 1) };
}

export function compareHlc(a: Hlc, b: Hlc): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export class HlcClock {
  private lastMs = 0;
  private counter = 0;
  /** Milliseconds added to the wall clock (kept from the server's Date header on a bench). */
  offsetMs = 0;

  constructor(
    readonly node: string,
    private readonly wall: () => number = () => Date.now(),
  ) {
    if (node.includes(':')) throw new Error('hlc node id must not contain ":"');
  }

  now(): number {
    return this.wall() + this.offsetMs;
  }

  /** A new stamp for a local write, strictly greater than every stamp seen so far. */
  tick(): Hlc {
    const ms = this.now();
    if (ms > this.lastMs) {
      this.lastMs = ms;
      this.counter = 0;
    } else {
      this.counter += 1;
    }
    this.keepWidth();
    return formatHlc({ ms: this.lastMs, counter: this.counter, node: this.node });
  }

  /** Merge a remote stamp so that later local stamps sort after it. */
  observe(remote: Hlc): void {
    const parsed = parseHlc(remote);
    // A counter beyond the field (written before counters were bounded) counts as the next millisecond.
    const r = Number.isSafeInteger(parsed.counter) && parsed.counter < HLC_COUNTER_LIMIT ? parsed : { ...parsed, ms: parsed.ms + 1, counter: 0 };
    if (!Number.isSafeInteger(r.ms) || r.ms >= 10 ** MS_WIDTH) return;
    const ms = this.now();
    const max = Math.max(ms, this.lastMs, r.ms);
    if (max === this.lastMs && max === r.ms) this.counter = Math.max(this.counter, r.counter) + 1;
    else if (max === this.lastMs) this.counter += 1;
    else if (max === r.ms) this.counter = r.counter + 1;
    else this.counter = 0;
    this.lastMs = max;
    this.keepWidth();
  }

  /** Counters stay below HLC_COUNTER_LIMIT: the time part moves forward instead of the counter widening. */
  private keepWidth(): void {
    if (this.counter < HLC_COUNTER_LIMIT) return;
    this.lastMs += 1;
    this.counter = 0;
  }
}
