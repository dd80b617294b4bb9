import { badRequest, tooLarge } from '../../core/errors';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/csv', 'text/html', 'application/json']);

const FILE_MAX_BYTES = 9 * 1024 * 1024;

/** The mime a file names, or one guessed from its first bytes (%PDF, a zip for DOCX). */
export function sniffMime(data: Buffer, mime: string): string {
  const m = mime.split(';')[0].trim().toLowerCase();
  if (m) return m;
  if (data.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (data[0] === 0x50 && data[1] === 0x4b) return DOCX;
  return 'text/plain';
}

export function decodeBase64(data: string): Buffer {
  const body = data.replace(/^data:[^;,]*(;[^,]*)?,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(body)) throw badRequest('dataBase64 is not base64');
  return Buffer.from(body, 'base64');
}

/** Plain text of a PDF (unpdf), a DOCX (mammoth) or a text file; 400 for anything else or unreadable. */
export async function extractFileText(data: Buffer, mime: string): Promise<string> {
  const m = sniffMime(data, mime);
  if (data.length === 0) throw badRequest('file is empty');
  if (data.length > FILE_MAX_BYTES) throw tooLarge('file too large');
  try {
    if (m === 'application/pdf') {
      const { extractText } = await import('unpdf');
      const { text } = await extractText(new Uint8Array(data), { mergePages: true });
      return text.replace(/[ \t]+\n/g, '\n').trim();
    }
    if (m === DOCX) {
      const { default: mammoth } = await import('mammoth');
      const r = await mammoth.extractRawText({ buffer: data });
      return r.value.trim();
    }
  } catch {
    throw badRequest('could not extract text from the file');
  }
  if (TEXT_TYPES.has(m) || m.startsWith('text/')) return data.toString('utf8').replace(/^\uFEFF/, '').trim();
  throw badRequest('unsupported file type (PDF, DOCX or text)');
}
