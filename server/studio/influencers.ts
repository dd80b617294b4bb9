import type { StudioContext } from './context';
import { ANALYZE_COST, checkAllowance, debit, meter, outOfCredits } from './billing';

/** An analysis always needs the credits first (hard check whatever the enforcement), then an ai unit. */
export async function chargedAnalysis(app: StudioContext, ws: number, input: { handle: string; platform?: string; url?: string }) {
  const balance = await app.db.transaction().execute(async (trx) => {
    const left = await debit(trx, ws, ANALYZE_COST, 'analyze', { overdraw: false, note: input.handle });
    if (left === null) throw outOfCredits();
    const limit = await checkAllowance(trx, ws, 'ai_units');
    await meter(trx, ws, 'ai_units', limit);
    return left;
  });
  return { analysis: analyzeInfluencer(input), charged: ANALYZE_COST, credits: balance };
}

/** A profile summary from what the handle and address say (no outside fetch). */
function analyzeInfluencer(input: { handle: string; platform?: string; url?: string }) {
  const handle = input.handle.replace(/^@+/, '');
  const host = input.url ? new URL(input.url).hostname.replace(/^www\./, '') : '';
  const known: Record<string, string> = {
    'instagram.com': 'instagram', 'tiktok.com': 'tiktok', 'youtube.com': 'youtube', 'x.com': 'x', 'twitter.com': 'x', 'threads.net': 'threads',
  };
  const platform = (input.platform ?? known[host] ?? 'unknown').toLowerCase();
  const words = handle
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .map((w) => w.toLowerCase())
    .filter((w) => w.length > 1);
  const topics: Record<string, string[]> = {
    food: ['food', 'eat', 'cook', 'chef', 'kitchen', 'recipe', 'ramen', 'sushi'],
    travel: ['travel', 'trip', 'tour', 'nomad', 'journey', 'world'],
    fitness: ['fit', 'fitness', 'gym', 'run', 'yoga', 'workout'],
    beauty: ['beauty', 'makeup', 'skin', 'style', 'fashion'],
    tech: ['tech', 'dev', 'code', 'gadget', 'ai', 'review'],
    gaming: ['game', 'gaming', 'play', 'gamer', 'stream'],
  };
  const niches = Object.entries(topics)
    .filter(([, keys]) => words.some((w) => keys.some((k) => w.includes(k))))
    .map(([n]) => n);
  return {
    handle: `@${handle}`,
    platform,
    niches: niches.length ? niches : ['general'],
    suggested_hashtags: [...new Set([...words.slice(0, 3), ...niches])].map((w) => `#${w}`),
  };
}
