import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, PDFString, PDFHexString, type PDFObject } from 'pdf-lib';
import { PROOF_ATTACHMENT } from './cert-pdf';
import type { CertRecord } from './cert-sign';
import { pdfPagesText } from './pdf-text';

/**
 * Reading a certificate PDF back: the signed proof it attaches (certificate.json) and whether what it
 * prints is still what was signed. The signature protects the attachment; the print check catches a PDF
 * whose visible text was edited after signing (a changed number, date, customer or device id, a page
 * with content drawn over it, an incremental update appended to the file).
 */
export interface PdfProof {
  record?: unknown;
  jws: string;
  kid?: string;
}

/** Largest PDF a verification reads (a 5000-device certificate is far smaller). */
export const MAX_PDF_BYTES = 6 * 1024 * 1024;

function deref(doc: PDFDocument, o: PDFObject | undefined): PDFObject | undefined {
  return o instanceof PDFRef ? doc.context.lookup(o) : o;
}

const nameText = (o: PDFObject | undefined) => (o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : '');

/** The certificate.json attachment of a PDF, or null when it has none (or it is not a proof). */
export async function readPdfProof(bytes: Uint8Array): Promise<{ proof: PdfProof | null; doc: PDFDocument | null }> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { updateMetadata: false });
  } catch {
    return { proof: null, doc: null };
  }
  const names = deref(doc, doc.catalog.get(PDFName.of('Names')));
  const files = names instanceof PDFDict ? deref(doc, names.get(PDFName.of('EmbeddedFiles'))) : undefined;
  const list = files instanceof PDFDict ? deref(doc, files.get(PDFName.of('Names'))) : undefined;
  if (!(list instanceof PDFArray)) return { proof: null, doc };
  const items = list.asArray();
  let found: PdfProof | null = null;
  for (let i = 0; i + 1 < items.length; i += 2) {
    if (nameText(deref(doc, items[i])) !== PROOF_ATTACHMENT) continue;
    // Two attachments of that name: which one is "the" proof is ambiguous, so neither is.
    if (found) return { proof: null, doc };
    const spec = deref(doc, items[i + 1]);
    const ef = spec instanceof PDFDict ? deref(doc, spec.get(PDFName.of('EF'))) : undefined;
    const stream = ef instanceof PDFDict ? deref(doc, ef.get(PDFName.of('F'))) : undefined;
    if (!(stream instanceof PDFRawStream)) return { proof: null, doc };
    try {
      const parsed = JSON.parse(Buffer.from(decodePDFRawStream(stream).decode()).toString('utf8')) as Record<string, unknown>;
      if (typeof parsed.jws !== 'string') return { proof: null, doc };
      found = { jws: parsed.jws, record: parsed.record, kid: typeof parsed.kid === 'string' ? parsed.kid : undefined };
    } catch {
      return { proof: null, doc };
    }
  }
  return { proof: found, doc };
}

/** Does one printed line show this value (whole, or cut to fit and ended with …)? */
function printed(lines: string[], value: string, suffix = ''): boolean {
  return lines.some((l) => {
    if (l === `${value}${suffix}` || l.includes(value)) return true;
    if (!l.endsWith('…')) return false;
    const cut = l.slice(0, -1);
    return cut.length >= 4 && `${value}${suffix}`.startsWith(cut);
  });
}

/** What a PDF prints, read for the comparison with its signed record: a structural problem, or its text lines. */
export type PdfPrint = { problem: string } | { lines: string[] };

async function readPrint(bytes: Uint8Array, doc: PDFDocument): Promise<PdfPrint> {
  // pdf-lib and every editor that saves incrementally append a second trailer.
  const eofs = Buffer.from(bytes).toString('latin1').split('%%EOF').length - 1;
  if (eofs !== 1) return { problem: 'pdf_updated' };
  for (const page of doc.getPages()) {
    const contents = deref(doc, page.node.get(PDFName.of('Contents')));
    const streams = contents instanceof PDFArray ? contents.size() : contents instanceof PDFRawStream ? 1 : 0;
    if (streams !== 1) return { problem: 'pdf_page_edited' };
  }
  try {
    return { lines: (await pdfPagesText(bytes)).join('\n').split('\n') };
  } catch {
    return { problem: 'pdf_unreadable' };
  }
}

/** A proof PDF read whole: is it a PDF, the proof it attaches, and (when it attaches one) what it prints. Heavy: runs in the PDF worker pool on a server. */
export interface InspectedPdf {
  readable: boolean;
  proof: PdfProof | null;
  print: PdfPrint | null;
}

export async function inspectProofPdf(bytes: Uint8Array): Promise<InspectedPdf> {
  const { proof, doc } = await readPdfProof(bytes);
  if (!doc) return { readable: false, proof: null, print: null };
  return { readable: true, proof, print: proof ? await readPrint(bytes, doc) : null };
}

/** Why a certificate PDF's print no longer matches its signed record (null when it does). */
export function printedMismatch(print: PdfPrint, record: CertRecord): string | null {
  if ('problem' in print) return print.problem;
  const { lines } = print;
  const all = lines.join('\n');
  if (!all.includes(record.no)) return 'printed_number_differs';
  if (!all.includes(record.date)) return 'printed_date_differs';
  if (!printed(lines, record.customer, ' 御中')) return 'printed_customer_differs';
  const ids = new Set(record.devices.map((d) => d.imei ?? d.serial ?? '').filter(Boolean));
  for (const id of ids) if (!printed(lines, id)) return 'printed_device_differs';
  // No IMEI is printed in the device table that the record does not list (each cell is its own line).
  for (const l of lines) if (/^[0-9]{15}$/.test(l) && !ids.has(l)) return 'printed_device_differs';
  return null;
}
