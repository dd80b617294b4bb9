/**
 * Hybrid logical clock. A stamp is `<ms 15 digits>:<counter 6 digits>:<node>` so that
 * plain string comparison orders stamps causally, with the node id as tiebreak.
 */
export type Hlc = string;

const MS_WIDTH = 15;
const COUNTER_WIDTH = 6;

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
    return formatHlc({ ms: this.lastMs, counter: this.counter, node: this.node });
  }

  /** Merge a remote stamp so that later local stamps sort after it. */
  observe(remote: Hlc): void {
    const r = parseHlc(remote);
    const ms = this.now();
    const max = Math.max(ms, this.lastMs, r.ms);
    if (max === this.lastMs && max === r.ms) this.counter = Math.max(this.counter, r.counter) + 1;
    else if (max === this.lastMs) this.counter += 1;
    else if (max === r.ms) this.counter = r.counter + 1;
    else this.counter = 0;
    this.lastMs = max;
  }
}
