// fontkit 1.9 rather than @pdf-lib/fontkit 1.1: the older fork writes a corrupt `loca` table
// when subsetting large CJK TrueType fonts, so most Japanese glyphs would print blank.
import fontkit from 'fontkit';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import bwipjs from 'bwip-js/node';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { unavailable } from '../../../core/errors';
import { signatureFingerprint, type CertProof } from './cert-sign';
import type { ErasureCert } from './certs.service';

/** The signed proof a certificate PDF carries: attached as certificate.json, linked by a QR code. */
export interface CertPdfProof extends CertProof {
  /** The public verification page (null while central's public address is unknown). */
  verifyUrl: string | null;
}

/** Name of the embedded file holding `{record, jws, kid}`. */
export const PROOF_ATTACHMENT = 'certificate.json';
const QR_SIZE = 70;

/** Noto Sans JP (SIL OFL 1.1, see assets/fonts/OFL.txt), embedded as a subset. */
export const JP_FONT_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'assets', 'fonts', 'NotoSansJP-Regular.ttf');

let fontBytes: Promise<Buffer> | null = null;
/** The font file, read once (503 when it is missing from the install). */
export function loadFontBytes(): Promise<Buffer> {
  fontBytes ??= readFile(JP_FONT_PATH).catch(() => {
    fontBytes = null;
    throw unavailable('pdf font unavailable', { message: `証明書用フォントが見つかりません: ${JP_FONT_PATH}` });
  });
  return fontBytes;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.4, 0.4, 0.45);
const RULE = rgb(0.75, 0.75, 0.78);

/** Cut text to fit a width, ending with … when cut. */
function fit(font: PDFFont, text: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  const chars = Array.from(text);
  while (chars.length && font.widthOfTextAtSize(`${chars.join('')}…`, size) > width) chars.pop();
  return `${chars.join('')}…`;
}

/** Text with characters the font lacks replaced, so a stray symbol never breaks the document. */
const charsets = new WeakMap<PDFFont, Set<number>>();
function safe(font: PDFFont, text: string): string {
  let supported = charsets.get(font);
  if (!supported) {
    supported = new Set(font.getCharacterSet());
    charsets.set(font, supported);
  }
  const known = supported;
  return Array.from(text.replace(/[\r\n\t]+/g, ' '))
    .map((ch) => (known.has(ch.codePointAt(0) ?? 0) ? ch : '?'))
    .join('');
}

interface Ctx {
  doc: PDFDocument;
  font: PDFFont;
  page: PDFPage;
  y: number;
}

function draw(c: Ctx, text: string, x: number, size: number, opts: { width?: number; color?: ReturnType<typeof rgb> } = {}): void {
  const t = safe(c.font, text);
  c.page.drawText(opts.width ? fit(c.font, t, size, opts.width) : t, { x, y: c.y, size, font: c.font, color: opts.color ?? INK });
}

const COLS = [
  { label: 'No.', x: MARGIN, w: 34 },
  { label: '機種', x: MARGIN + 34, w: 190 },
  { label: '識別番号 (IMEI / シリアル)', x: MARGIN + 224, w: 180 },
  { label: 'ストレージ', x: MARGIN + 404, w: 91 },
];

function tableHeader(c: Ctx): void {
  c.page.drawRectangle({ x: MARGIN, y: c.y - 5, width: A4[0] - MARGIN * 2, height: 18, color: rgb(0.93, 0.94, 0.96) });
  for (const col of COLS) draw(c, col.label, col.x + 4, 9, { width: col.w - 8 });
  c.y -= 18;
}

function newPage(c: Ctx, cert: ErasureCert): void {
  c.page = c.doc.addPage(A4);
  c.y = A4[1] - MARGIN;
  draw(c, `データ消去証明書 ${cert.no}（続き）`, MARGIN, 11, { color: MUTED });
  c.y -= 24;
  tableHeader(c);
}

/**
 * The erasure certificate as an A4 PDF with the Japanese font embedded (subset). Pure: the certificate
 * and its proof in, the bytes out (it may run in a worker). With a proof, the PDF attaches
 * certificate.json, prints a QR code and the URL of the verification page, and names the signing key
 * and the signature's fingerprint in the footer; up to 20 devices stay on one A4 page.
 */
export async function renderCertPdf(cert: ErasureCert, proof: CertPdfProof | null = null): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(await loadFontBytes(), { subset: true });
  const issued = new Date(cert.issuedAt);
  doc.setTitle(`データ消去証明書 ${cert.no}`);
  doc.setSubject(`SHA-256 ${cert.digest}`);
  doc.setKeywords([cert.no, cert.digest, `NIST SP 800-88 ${cert.nist}`]);
  doc.setAuthor(cert.issuer.name || 'Kitting Station');
  doc.setProducer('Kitting Station');
  doc.setCreator('Kitting Station');
  doc.setCreationDate(issued);
  doc.setModificationDate(issued);

  const c: Ctx = { doc, font, page: doc.addPage(A4), y: A4[1] - MARGIN };
  const right = A4[0] - MARGIN;
  const width = right - MARGIN;

  draw(c, 'データ消去証明書', MARGIN, 22);
  c.y -= 18;
  draw(c, 'Certificate of Data Sanitization', MARGIN, 10, { color: MUTED });
  if (proof) {
    await attachProof(doc, proof, issued);
    if (proof.verifyUrl) {
      const png: Buffer = await bwipjs.toBuffer({ bcid: 'qrcode', text: proof.verifyUrl, scale: 4, paddingwidth: 0, paddingheight: 0, backgroundcolor: 'FFFFFF' });
      const qr = await doc.embedPng(png);
      c.page.drawImage(qr, { x: right - QR_SIZE, y: A4[1] - MARGIN - QR_SIZE + 12, width: QR_SIZE, height: QR_SIZE });
    }
  }
  c.y -= 22;
  // A certificate renumbered at enrolment names the number it was signed (and first printed) under too.
  const former = proof && proof.record.no !== cert.no ? proof.record.no : null;
  draw(c, `証明書番号  ${cert.no}`, MARGIN, 11);
  draw(c, `発行日  ${cert.date}`, MARGIN + 250, 11);
  if (former) {
    c.y -= 11;
    draw(c, `旧番号 ${former}`, MARGIN + 62, 7.5, { color: MUTED });
    c.y += 11;
  }
  c.y -= 26;
  draw(c, `${cert.cust} 御中`, MARGIN, 15, { width: width - QR_SIZE - 10 });
  c.page.drawLine({ start: { x: MARGIN, y: c.y - 5 }, end: { x: MARGIN + 300, y: c.y - 5 }, thickness: 0.8, color: INK });
  c.y -= 24;
  draw(c, '下記の機器に記録されていたデータについて、NIST SP 800-88 Rev.1 に準拠した', MARGIN, 10.5);
  c.y -= 16;
  draw(c, '方式によりデータ消去を実施し、復元できない状態であることを確認したことを証明します。', MARGIN, 10.5);
  c.y -= 22;

  const rows: [string, string][] = [
    ['消去方式', `${cert.method}（NIST SP 800-88: ${cert.nist}）`],
    ['対象台数', `${cert.count} 台`],
    ['実施日', cert.date],
    ['作業者', cert.operator || '—'],
  ];
  for (const [k, v] of rows) {
    draw(c, k, MARGIN, 10.5, { color: MUTED });
    draw(c, v, MARGIN + 90, 10.5, { width: width - 90 });
    c.y -= 18;
  }
  c.y -= 12;

  draw(c, '対象機器一覧', MARGIN, 12);
  c.y -= 20;
  tableHeader(c);
  const footerSpace = 165;
  cert.devices.forEach((d, i) => {
    if (c.y < MARGIN + 30) newPage(c, cert);
    const cells = [String(i + 1), d.model || '—', d.id || '—', d.storage || '—'];
    COLS.forEach((col, j) => draw(c, cells[j], col.x + 4, 9, { width: col.w - 8 }));
    c.page.drawLine({ start: { x: MARGIN, y: c.y - 5 }, end: { x: right, y: c.y - 5 }, thickness: 0.3, color: RULE });
    c.y -= 16;
  });
  if (cert.devices.length === 0) {
    draw(c, '（機器明細なし）', MARGIN + 4, 9, { color: MUTED });
    c.y -= 16;
  }
  if (c.y < MARGIN + footerSpace) {
    c.page = doc.addPage(A4);
    c.y = A4[1] - MARGIN;
  }

  c.y -= 20;
  draw(c, '発行者', MARGIN, 10.5, { color: MUTED });
  c.y -= 18;
  const issuer = [cert.issuer.name || '—', cert.issuer.addr, cert.issuer.tel ? `TEL ${cert.issuer.tel}` : '', cert.issuer.rep ? `代表者 ${cert.issuer.rep}` : '', cert.issuer.regno ? `登録番号 ${cert.issuer.regno}` : ''];
  for (const line of issuer.filter(Boolean)) {
    draw(c, line, MARGIN, line === issuer[0] ? 12 : 9.5, { width });
    c.y -= 15;
  }
  c.y -= 10;
  draw(c, `証明書データの SHA-256 ダイジェスト  ${cert.digest}`, MARGIN, 7.5, { width });
  c.y -= 13;
  if (proof?.verifyUrl) {
    draw(c, `検証ページ / Verify:  ${proof.verifyUrl}`, MARGIN, 7.5, { width });
    c.y -= 13;
  }
  draw(
    c,
    proof
      ? '本証明書は電子署名されています。QRコードの検証ページ、または添付の certificate.json で真正性を確認できます。'
      : '発行済みの証明書は変更できません。内容の照合は上記ダイジェストで行えます。',
    MARGIN,
    8,
    { color: MUTED, width },
  );

  const pages = doc.getPages();
  const signedBy = proof ? safe(font, `署名鍵 ${proof.kid}  署名 ${signatureFingerprint(proof.jws)}`) : '';
  pages.forEach((p, i) => {
    const label = `${cert.no}  ${i + 1} / ${pages.length}`;
    p.drawText(label, { x: right - font.widthOfTextAtSize(label, 8), y: 28, size: 8, font, color: MUTED });
    if (signedBy) p.drawText(signedBy, { x: MARGIN, y: 28, size: 6.5, font, color: MUTED });
  });
  return doc.save();
}

/** `{record, jws, kid}` as the embedded file certificate.json (dated like the certificate, so the bytes are reproducible). */
async function attachProof(doc: PDFDocument, proof: CertPdfProof, issued: Date): Promise<void> {
  const json = JSON.stringify({ record: proof.record, jws: proof.jws, kid: proof.kid });
  await doc.attach(Buffer.from(json, 'utf8'), PROOF_ATTACHMENT, {
    mimeType: 'application/json',
    description: 'Signed erasure certificate record (RFC 8785 JCS, JWS EdDSA)',
    creationDate: issued,
    modificationDate: issued,
  });
}
