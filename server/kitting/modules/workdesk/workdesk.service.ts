import { clip } from '../../../../shared/fields';
import { badRequest } from '../../../core/errors';
import type { Doc } from '../../store/types';

export const WORKDESK_DOCS = 'workdeskDocs';
export const WORKDESK_THREADS = 'workdeskThreads';
export const WORKDESK = 'workdesk';
export const CONN_ID = 'conn';

/** Connector switches as the connector route stores them: keys clipped to 40 characters, true/false only (else 400). */
export function readConn(src: unknown): Record<string, boolean> {
  if (!src || typeof src !== 'object' || Array.isArray(src)) throw badRequest('invalid request', { message: '接続設定は {id: true/false} の形で指定してください' });
  const out: Record<string, boolean> = {};
  for (const [k, v] of Object.entries(src)) {
    if (typeof v !== 'boolean') throw badRequest('invalid request', { message: `${clip(k, 40)}: true か false で指定してください` });
    out[clip(k, 40)] = v;
  }
  return out;
}

export interface Hit {
  type: 'doc' | 'thread';
  id: string;
  title: string;
  snippet: string;
  score: number;
}

const norm = (s: string) => s.normalize('NFKC').toLowerCase();

function count(hay: string, needle: string): number {
  let n = 0;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) n++;
  return n;
}

function snippet(text: string, token: string): string {
  const at = norm(text).indexOf(token);
  if (at < 0) return text.slice(0, 80);
  const from = Math.max(0, at - 30);
  return `${from > 0 ? '…' : ''}${text.slice(from, at + token.length + 50)}${at + token.length + 50 < text.length ? '…' : ''}`;
}

function threadText(t: Doc): string {
  const msgs = Array.isArray(t.msgs) ? (t.msgs as Doc[]) : [];
  return msgs.map((m) => [m.text, typeof m.html === 'string' ? m.html.replace(/<[^>]*>/g, ' ') : ''].filter((x) => typeof x === 'string' && x).join(' ')).join('\n');
}

/** Every whitespace-separated term must occur (case- and width-insensitive); more occurrences rank higher. */
export function search(q: string, docs: Doc[], threads: Doc[]): Hit[] {
  const tokens = norm(q).split(/\s+/).filter(Boolean);
  if (!tokens.length) return [];
  const hits: Hit[] = [];
  const consider = (type: Hit['type'], id: string, title: string, body: string) => {
    const hay = norm(`${title}\n${body}`);
    const counts = tokens.map((t) => count(hay, t));
    if (counts.some((c) => c === 0)) return;
    const titleBonus = tokens.filter((t) => norm(title).includes(t)).length * 5;
    const source = norm(body).includes(tokens[0]) ? body : title;
    hits.push({ type, id, title, snippet: snippet(source, tokens[0]), score: counts.reduce((a, b) => a + b, 0) + titleBonus });
  };
  for (const d of docs) consider('doc', String(d.id), String(d.name ?? ''), [d.type, d.text].filter((x) => typeof x === 'string').join('\n'));
  for (const t of threads) consider('thread', String(t.id), String(t.title ?? ''), threadText(t));
  return hits.sort((a, b) => b.score - a.score);
}
