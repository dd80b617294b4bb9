import { fetchPublic, type GuardOptions } from './net-guard';
import { decodeEntities, htmlToText, pageTitle } from './text';

export interface CrawledPage {
  url: string;
  title: string;
  text: string;
}

const SKIP = /\.(png|jpe?g|gif|webp|svg|ico|css|js|mjs|pdf|zip|gz|mp4|mp3|wav|woff2?|ttf|xml|json)$/i;

function links(html: string, base: string, origin: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<a\b[^>]*href\s*=\s*["']([^"'#]+)(?:#[^"']*)?["']/gi)) {
    try {
      const u = new URL(decodeEntities(m[1]), base);
      u.hash = '';
      if (u.origin !== origin || SKIP.test(u.pathname)) continue;
      out.push(u.toString());
    } catch {
      // not a URL
    }
  }
  return out;
}

/** Breadth-first crawl of one site (same origin), at most `limit` pages, every address through the public guard. */
export async function crawlSite(start: string, limit: number, guard: GuardOptions): Promise<CrawledPage[]> {
  const first = new URL(start);
  const queue = [first.toString()];
  const seen = new Set(queue);
  const pages: CrawledPage[] = [];
  let failures = 0;
  while (queue.length && pages.length < limit) {
    const url = queue.shift() as string;
    try {
      const page = await fetchPublic(url, guard);
      const isHtml = /html/i.test(page.type) || /^\s*</.test(page.body);
      const text = isHtml ? htmlToText(page.body) : page.body.trim();
      if (text) pages.push({ url: page.url, title: isHtml ? pageTitle(page.body) : '', text });
      if (isHtml) {
        for (const l of links(page.body, page.url, first.origin)) {
          if (seen.has(l)) continue;
          seen.add(l);
          queue.push(l);
        }
      }
    } catch (err) {
      failures++;
      if (pages.length === 0 && queue.length === 0) throw err;
      if (failures > limit * 2) break;
    }
  }
  return pages;
}
