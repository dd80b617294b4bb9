import { decodePDFRawStream, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef } from 'pdf-lib';

/** Tests only: which fonts a generated PDF embeds, and how large their programs are. */
export interface PdfFontInfo {
  baseFont: string;
  /** Length of the embedded font program in bytes (0 when not embedded). */
  embeddedBytes: number;
  program: Uint8Array | null;
}

/** The fonts of a PDF with the size of their embedded programs (FontFile, FontFile2, FontFile3). */
export async function pdfFonts(bytes: Uint8Array): Promise<PdfFontInfo[]> {
  const doc = await PDFDocument.load(bytes);
  const out: PdfFontInfo[] = [];
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict) || obj.get(PDFName.of('Type')) !== PDFName.of('FontDescriptor')) continue;
    const name = obj.get(PDFName.of('FontName'));
    let program: Uint8Array | null = null;
    for (const key of ['FontFile', 'FontFile2', 'FontFile3']) {
      const ref = obj.get(PDFName.of(key));
      const stream = ref instanceof PDFRef ? doc.context.lookup(ref) : ref;
      if (stream instanceof PDFRawStream) program = decodePDFRawStream(stream).decode();
    }
    out.push({ baseFont: name instanceof PDFName ? name.decodeText() : String(name), embeddedBytes: program?.length ?? 0, program });
  }
  return out;
}
