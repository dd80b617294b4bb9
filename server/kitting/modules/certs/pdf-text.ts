/**
 * Reads the text back out of a PDF written with pdf-lib and an embedded CID font
 * (hex glyph strings mapped through the font's ToUnicode CMap). Certificate verification
 * compares it with the signed record (cert-pdf-proof.ts); tests read generated PDFs with it.
 */
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, type PDFObject } from 'pdf-lib';

function streamText(obj: PDFObject | undefined, doc: PDFDocument): string {
  const o = obj instanceof PDFRef ? doc.context.lookup(obj) : obj;
  if (o instanceof PDFRawStream) return Buffer.from(decodePDFRawStream(o).decode()).toString('latin1');
  if (o instanceof PDFArray) return o.asArray().map((x) => streamText(x, doc)).join('\n');
  return '';
}

function hexToCodes(hex: string, width: number): number[] {
  const out: number[] = [];
  for (let i = 0; i + width <= hex.length; i += width) out.push(parseInt(hex.slice(i, i + width), 16));
  return out;
}

function utf16(hex: string): string {
  return String.fromCharCode(...hexToCodes(hex, 4));
}

function parseCMap(cmap: string, map: Map<number, string>): void {
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const m of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) map.set(parseInt(m[1], 16), utf16(m[2]));
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const m of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(<([0-9a-fA-F]+)>|\[([^\]]*)\])/g)) {
      const lo = parseInt(m[1], 16);
      const hi = parseInt(m[2], 16);
      if (m[4]) {
        const base = utf16(m[4]);
        const last = base.charCodeAt(base.length - 1);
        for (let g = lo; g <= hi; g++) map.set(g, base.slice(0, -1) + String.fromCharCode(last + g - lo));
      } else if (m[5]) {
        const items = [...m[5].matchAll(/<([0-9a-fA-F]+)>/g)].map((x) => utf16(x[1]));
        items.forEach((s, i) => map.set(lo + i, s));
      }
    }
  }
}

/** One string per page: the text of its Tj operators, one line per operator. */
export async function pdfPagesText(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  const glyphs = new Map<number, string>();
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (obj instanceof PDFDict && obj.get(PDFName.of('Type')) === PDFName.of('Font')) {
      const tu = obj.get(PDFName.of('ToUnicode'));
      if (tu) parseCMap(streamText(tu, doc), glyphs);
    }
  }
  return doc.getPages().map((page) => {
    const content = streamText(page.node.get(PDFName.of('Contents')), doc);
    const lines: string[] = [];
    for (const m of content.matchAll(/<([0-9a-fA-F]*)>\s*Tj/g)) lines.push(hexToCodes(m[1], 4).map((g) => glyphs.get(g) ?? '\uFFFD').join(''));
    return lines.join('\n');
  });
}
