/** Text helpers shared by indexing, retrieval and the local engine (Latin and Japanese text). */

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]/;
const CJK_RUN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\u30fc]+/g;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

const STOP = new Set(
  ('a an and are as at be but by can could did do does for from had has have how i if in into is it its me my no not of on or our ' +
    'please should so that the their them then there these they this to us was we were what when where which who why will with would ' +
    'you your yours tell know about any some get got there here than just also more most very much many want need like').split(' '),
);

/** Kana-only runs that carry no topic (particles, polite endings). */
const JA_STOP = new Set(['です', 'ですか', 'ます', 'ますか', 'ください', 'について', 'どう', 'どうやって', 'なに', '何', 'ありますか', 'できますか', 'でしょうか', 'の', 'は', 'が', 'を', 'に', 'で', 'と', 'か', 'も', 'へ']);

export function hasJapanese(s: string): boolean {
  return CJK.test(s);
}

function normalize(s: string): string {
  return s.normalize('NFKC').toLowerCase();
}

function stem(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.length > 3 && w.endsWith('es') && /(s|x|z|ch|sh)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/**
 * Content terms of a text: Latin words (stop words dropped, plural folded) and, for Japanese,
 * character bigrams of each kanji/kana run (single characters when the run is one long).
 */
export function terms(text: string): string[] {
  const s = normalize(text);
  const out: string[] = [];
  for (const m of s.replace(CJK_RUN, ' ').matchAll(WORD)) {
    const w = m[0].replace(/['’-]+$/g, '');
    if (w.length < 2 || STOP.has(w)) continue;
    out.push(stem(w));
  }
  // Japanese: kanji and katakana runs carry the topic; hiragana is mostly grammar (used only when nothing else is there).
  const content: string[] = [];
  const kana: string[] = [];
  for (const m of s.matchAll(/[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々]+|[\u30a0-\u30ff\uff66-\uff9f\u30fc]+|[\u3040-\u309f]+/g)) {
    const run = m[0];
    if (JA_STOP.has(run)) continue;
    const target = /^[\u3040-\u309f]+$/.test(run) ? kana : content;
    if (run.length === 1) {
      if (target === content) content.push(run);
      continue;
    }
    for (let i = 0; i + 2 <= run.length; i++) target.push(run.slice(i, i + 2));
  }
  out.push(...(content.length ? content : kana));
  return out;
}

/**
 * FTS5 MATCH expression for the trigram index: every Latin word of 3+ characters and every
 * trigram of each Japanese run, quoted and OR-ed (bm25 ranks passages sharing more and rarer ones).
 */
export function ftsPhrases(text: string, maxTerms = 32): string[] {
  const s = normalize(text);
  const parts = new Set<string>();
  for (const m of s.replace(CJK_RUN, ' ').matchAll(WORD)) {
    const w = m[0].replace(/['’-]+$/g, '');
    if (w.length < 3 || STOP.has(w)) continue;
    parts.add(stem(w).length >= 3 ? stem(w) : w);
  }
  for (const m of s.matchAll(CJK_RUN)) {
    const run = m[0];
    if (JA_STOP.has(run)) continue;
    if (run.length <= 3) {
      if (run.length === 3) parts.add(run);
      continue;
    }
    for (let i = 0; i + 3 <= run.length; i++) parts.add(run.slice(i, i + 3));
  }
  return [...parts].filter((p) => [...p].length >= 3).slice(0, maxTerms);
}

/** Quoted, OR-ed FTS5 MATCH expression of phrases (null when there is none). */
export function matchExpression(phrases: string[], op: 'OR' | 'AND' = 'OR'): string | null {
  if (phrases.length === 0) return null;
  return phrases.map((p) => `"${p.replace(/"/g, '""')}"`).join(` ${op} `);
}

export function ftsQuery(text: string, maxTerms = 32): string | null {
  return matchExpression(ftsPhrases(text, maxTerms));
}

/** The overlapping trigrams of a phrase (how the trigram tokenizer indexes it). */
export function trigramsOf(phrase: string): string[] {
  const cs = [...phrase];
  const out: string[] = [];
  for (let i = 0; i + 3 <= cs.length; i++) out.push(cs.slice(i, i + 3).join(''));
  return out;
}

/** Short Japanese words (two characters, e.g. 料金) the trigram index cannot find: matched with LIKE on candidates. */
export function shortJapaneseTerms(text: string): string[] {
  const out: string[] = [];
  for (const m of normalize(text).matchAll(CJK_RUN)) if ([...m[0]].length === 2 && !JA_STOP.has(m[0])) out.push(m[0]);
  return out;
}

/** Split a long text into passages of about `size` characters at paragraph and sentence ends. */
export function chunk(text: string, size = 700): string[] {
  const clean = text.replace(/\r\n?/g, '\n').replace(/[ \t]+/g, ' ').replace(/\n{3,}/g, '\n\n').trim();
  if (!clean) return [];
  const sentences = clean.split(/(?<=[.!?。！？])\s+|(?<=[。！？])|\n{2,}/u).map((s) => s.trim()).filter(Boolean);
  const out: string[] = [];
  let cur = '';
  for (const sen of sentences) {
    if (sen.length > size) {
      if (cur) out.push(cur), (cur = '');
      for (let i = 0; i < sen.length; i += size) out.push(sen.slice(i, i + size));
      continue;
    }
    if (cur && cur.length + sen.length + 1 > size) {
      out.push(cur);
      cur = '';
    }
    cur = cur ? `${cur}${hasJapanese(sen) && !/\s$/.test(cur) ? '' : ' '}${sen}` : sen;
  }
  if (cur) out.push(cur);
  return out;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
    if (e[0] === '#') {
      const n = e[1].toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : all;
    }
    return ENTITIES[e.toLowerCase()] ?? all;
  });
}

/** Readable text of an HTML page: scripts, styles and navigation chrome dropped, block ends kept as line breaks. */
export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<(script|style|noscript|svg|nav|footer|header|template)\b[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<(br|\/p|\/div|\/li|\/h[1-6]|\/tr|\/section|\/article)\b[^>]*>/gi, '\n')
      .replace(/<[^>]+>/g, ' '),
  )
    .replace(/[ \t\f\v]+/g, ' ')
    .replace(/\n\s*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function metaContent(html: string, key: string): string {
  const re = new RegExp(`<meta\\b[^>]*(?:name|property)\\s*=\\s*["']${key}["'][^>]*>`, 'i');
  const tag = re.exec(html)?.[0];
  if (!tag) return '';
  return decodeEntities(/content\s*=\s*["']([^"']*)["']/i.exec(tag)?.[1] ?? '').trim();
}

export function pageTitle(html: string): string {
  return decodeEntities(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '').replace(/\s+/g, ' ').trim();
}
