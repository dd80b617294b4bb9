// A plain A4 business document (見積書, 請求書) with the bundled Japanese font embedded as a
// subset, like the erasure certificate. fontkit 1.9: see certs/cert-pdf.ts for why.
import fontkit from 'fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { loadFontBytes } from '../certs/cert-pdf';

export interface DocTable {
  title: string;
  head: string[];
  /** Column widths in points (the table is 495 pt wide); numeric columns are right-aligned. */
  widths: number[];
  numeric: boolean[];
  rows: string[][];
  /** Lines under the table, e.g. 小計 / 値引き. */
  lines?: [string, string][];
}

export interface JpDocument {
  title: string;
  subtitle?: string;
  no: string;
  date: string;
  addressee: string;
  intro?: string;
  /** The amount in large type under the addressee (御見積金額（税込） ¥…), with a note beside it. */
  headline?: { label: string; amount: string; note?: string };
  meta: [string, string][];
  tables: DocTable[];
  summary: [string, string][];
  issuer: string[];
  footer?: string;
}

const A4: [number, number] = [595.28, 841.89];
const M = 50;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.4, 0.4, 0.45);
const RULE = rgb(0.75, 0.75, 0.78);

export const yenText = (n: number) => `¥${Math.round(n).toLocaleString('ja-JP')}`;

interface Ctx {
  doc: PDFDocument;
  font: PDFFont;
  page: PDFPage;
  y: number;
  known: Set<number>;
  title: string;
}

function clean(c: Ctx, text: string): string {
  return Array.from(text.replace(/[\r\n\t]+/g, ' '))
    .map((ch) => (c.known.has(ch.codePointAt(0) ?? 0) ? ch : '?'))
    .join('');
}

function fit(font: PDFFont, text: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  const chars = Array.from(text);
  while (chars.length && font.widthOfTextAtSize(`${chars.join('')}…`, size) > width) chars.pop();
  return `${chars.join('')}…`;
}

function draw(c: Ctx, text: string, x: number, size: number, o: { width?: number; right?: boolean; color?: ReturnType<typeof rgb> } = {}): void {
  let t = clean(c, text);
  if (o.width) t = fit(c.font, t, size, o.width);
  const dx = o.right && o.width ? o.width - c.font.widthOfTextAtSize(t, size) : 0;
  c.page.drawText(t, { x: x + dx, y: c.y, size, font: c.font, color: o.color ?? INK });
}

function room(c: Ctx, need: number): void {
  if (c.y - need >= M + 20) return;
  c.page = c.doc.addPage(A4);
  c.y = A4[1] - M;
  draw(c, `${c.title}（続き）`, M, 10, { color: MUTED });
  c.y -= 22;
}

function table(c: Ctx, t: DocTable): void {
  room(c, 60);
  draw(c, t.title, M, 12);
  c.y -= 18;
  const header = () => {
    c.page.drawRectangle({ x: M, y: c.y - 5, width: A4[0] - 2 * M, height: 18, color: rgb(0.93, 0.94, 0.96) });
    let x = M;
    t.head.forEach((h, i) => {
      draw(c, h, x + 4, 9, { width: (t.widths[i] ?? 60) - 8, right: t.numeric[i] });
      x += t.widths[i] ?? 60;
    });
    c.y -= 18;
  };
  header();
  for (const row of t.rows) {
    if (c.y < M + 40) {
      room(c, 1000);
      header();
    }
    let x = M;
    row.forEach((cell, i) => {
      draw(c, cell, x + 4, 9, { width: (t.widths[i] ?? 60) - 8, right: t.numeric[i] });
      x += t.widths[i] ?? 60;
    });
    c.page.drawLine({ start: { x: M, y: c.y - 5 }, end: { x: A4[0] - M, y: c.y - 5 }, thickness: 0.3, color: RULE });
    c.y -= 16;
  }
  if (t.rows.length === 0) {
    draw(c, '（明細なし）', M + 4, 9, { color: MUTED });
    c.y -= 16;
  }
  for (const [label, amount] of t.lines ?? []) {
    room(c, 16);
    draw(c, label, A4[0] - M - 240, 9.5, { width: 130 });
    draw(c, amount, A4[0] - M - 110, 9.5, { width: 106, right: true });
    c.y -= 15;
  }
  c.y -= 14;
}

/** Render the document to PDF bytes. */
export async function renderJpDocument(d: JpDocument, at: Date): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(await loadFontBytes(), { subset: true });
  doc.setTitle(`${d.title} ${d.no}`);
  doc.setProducer('Kitting Station');
  doc.setCreator('Kitting Station');
  doc.setCreationDate(at);
  doc.setModificationDate(at);
  const c: Ctx = { doc, font, page: doc.addPage(A4), y: A4[1] - M, known: new Set(font.getCharacterSet()), title: `${d.title} ${d.no}` };
  const right = A4[0] - M;
  draw(c, d.title, M, 22);
  if (d.subtitle) {
    c.y -= 16;
    draw(c, d.subtitle, M, 10, { color: MUTED });
  }
  c.y -= 26;
  draw(c, `番号  ${d.no}`, M, 11);
  draw(c, `発行日  ${d.date}`, right - 160, 11, { width: 160, right: true });
  c.y -= 30;
  draw(c, `${d.addressee} 御中`, M, 15, { width: 320 });
  c.page.drawLine({ start: { x: M, y: c.y - 5 }, end: { x: M + 320, y: c.y - 5 }, thickness: 0.8, color: INK });
  c.y -= 26;
  if (d.intro) {
    draw(c, d.intro, M, 10.5, { width: right - M });
    c.y -= 22;
  }
  if (d.headline) {
    c.y -= 6;
    draw(c, d.headline.label, M, 12);
    draw(c, d.headline.amount, M + 150, 22, { width: 200 });
    c.page.drawLine({ start: { x: M, y: c.y - 6 }, end: { x: M + 350, y: c.y - 6 }, thickness: 1.2, color: INK });
    c.y -= 28;
    if (d.headline.note) {
      draw(c, d.headline.note, M, 10.5, { width: right - M });
      c.y -= 20;
    }
    c.y -= 4;
  }
  for (const [k, v] of d.meta) {
    draw(c, k, M, 10.5, { color: MUTED });
    draw(c, v, M + 110, 10.5, { width: right - M - 110 });
    c.y -= 17;
  }
  c.y -= 10;
  for (const t of d.tables) table(c, t);
  room(c, 20 + d.summary.length * 18);
  for (const [label, amount] of d.summary) {
    draw(c, label, right - 300, 11, { width: 180 });
    draw(c, amount, right - 120, 11, { width: 120, right: true });
    c.y -= 18;
  }
  c.y -= 14;
  room(c, 20 + d.issuer.length * 15);
  draw(c, '発行者', M, 10, { color: MUTED });
  c.y -= 16;
  d.issuer.filter(Boolean).forEach((line, i) => {
    draw(c, line, M, i === 0 ? 12 : 9.5, { width: right - M });
    c.y -= 15;
  });
  if (d.footer) {
    c.y -= 8;
    room(c, 14);
    draw(c, d.footer, M, 8, { color: MUTED, width: right - M });
  }
  const pages = doc.getPages();
  pages.forEach((p, i) => {
    const label = `${d.no}  ${i + 1} / ${pages.length}`;
    p.drawText(label, { x: right - font.widthOfTextAtSize(label, 8), y: 28, size: 8, font, color: MUTED });
  });
  return doc.save();
}
