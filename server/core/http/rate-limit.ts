import { tooMany } from '../errors';

/** Fixed-window counter per key (an IP, an email). Throws 429 with Retry-After when exceeded. */
export class RateLimiter {
  private readonly hits = new Map<string, { start: number; n: number }>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  hit(key: string, error?: string): void {
    const t = this.now();
    const cur = this.hits.get(key);
    if (!cur || t - cur.start >= this.windowMs) {
      if (this.hits.size > 10_000) this.sweep(t);
      this.hits.set(key, { start: t, n: 1 });
      return;
    }
    cur.n += 1;
    if (cur.n > this.max) throw tooMany((cur.start + this.windowMs - t) / 1000, error);
  }

  private sweep(t: number): void {
    for (const [k, v] of this.hits) if (t - v.start >= this.windowMs) this.hits.delete(k);
  }
}
