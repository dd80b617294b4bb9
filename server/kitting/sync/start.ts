import type { AppContext } from '../context';

const DAY_MS = 24 * 3_600_000;
/** Stops the background compaction of a central app. */
const stoppers = new WeakMap<AppContext, () => void>();

/** `--central=<url>` / `--enrol-code=<code>` (or `--central <url>`) from the command line. */
export function flag(argv: string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    if (a === `--${name}`) return argv[i + 1];
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
  }
  return undefined;
}

/**
 * Bench start-up: enrol with KITTING_CENTRAL_URL + KITTING_ENROL_CODE (or the flags) unless the data
 * folder already holds a bench token, then run the background sync loop. Never blocks start-up:
 * an unreachable central is retried by the loop.
 */
export async function startSync(ctx: AppContext, argv = process.argv.slice(2), env = process.env): Promise<void> {
  const hub = ctx.sync?.central;
  if (hub) {
    // The change log is compacted hourly; KITTING_LOG_RETENTION_DAYS keeps recent changes as written (default 7).
    const days = Number(env.KITTING_LOG_RETENTION_DAYS);
    const retentionMs = env.KITTING_LOG_RETENTION_DAYS && Number.isFinite(days) && days >= 0 ? days * DAY_MS : undefined;
    const stop = hub.compactEvery(3_600_000, retentionMs === undefined ? {} : { retentionMs }, (err) =>
      console.error(`sync: change-log compaction failed: ${err instanceof Error ? err.message : String(err)}`),
    );
    stoppers.set(ctx, stop);
  }
  const bench = ctx.sync?.bench;
  if (!bench) return;
  await bench.bind();
  const central = flag(argv, 'central') ?? env.KITTING_CENTRAL_URL;
  const code = flag(argv, 'enrol-code') ?? env.KITTING_ENROL_CODE;
  if (!bench.enrolled && central && code) {
    try {
      await bench.enrolOrDefer(central, code);
    } catch (err) {
      console.error(`sync: enrolment refused: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  bench.start();
}

/** Stop the loop and let a running cycle finish (SIGTERM). */
export async function stopSync(ctx: AppContext): Promise<void> {
  stoppers.get(ctx)?.();
  await ctx.sync?.bench?.stop();
}
