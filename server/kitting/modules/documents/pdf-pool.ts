import type { AppContext } from '../../context';
import { hitLimit } from '../../security/limits';
import { WorkerPool } from '../../../core/work/worker-pool';
import type { renderCertPdf } from '../certs/cert-pdf';
import type { InspectedPdf } from '../certs/cert-pdf-proof';
import type { renderInvoicePdf } from '../invoices/invoice-pdf';
import type { renderQuotePdf } from '../quotes/quote-pdf';

/**
 * PDF rendering (certificates, quotes, invoices) in a pool of worker threads: at most
 * KITTING_PDF_WORKERS renders at once (default: cores less one, 1..4), the rest wait their turn (503
 * busy past 32 waiting). The render functions keep their inputs and outputs; only the call path moves.
 */
const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
let pool: WorkerPool | null = null;

function pdfPool(): WorkerPool {
  const size = Number(process.env.KITTING_PDF_WORKERS);
  pool ??= new WorkerPool({ module: new URL(`./pdf-worker${ext}`, import.meta.url), size: Number.isInteger(size) && size > 0 ? size : undefined });
  return pool;
}

type Args<F extends (...a: never[]) => unknown> = Parameters<F>;

const render = async (task: string, args: unknown[]) => {
  const out = await pdfPool().run<Uint8Array>(task, args);
  return out instanceof Uint8Array ? out : new Uint8Array(out as ArrayBufferLike);
};

export const pdfRenderers = {
  cert: (...a: Args<typeof renderCertPdf>) => render('cert', a),
  invoice: (...a: Args<typeof renderInvoicePdf>) => render('invoice', a),
  quote: (...a: Args<typeof renderQuotePdf>) => render('quote', a),
};

/** Work on uploaded PDFs (public verification): parsed and read in the pool, off the event loop. */
export const pdfTasks = {
  inspectProof: (bytes: Uint8Array) => pdfPool().run<InspectedPdf>('inspectProof', [bytes]),
};

/**
 * Per-address and per-workspace limits of the PDF and export routes (429 with Retry-After): a client
 * cannot queue heavy renders faster than they finish.
 */
export async function limitHeavy(app: AppContext, ws: string, ip: string | undefined): Promise<void> {
  await hitLimit(app, 'heavy', ip);
  await hitLimit(app, 'heavyWorkspace', `ws:${ws}`);
}

/** Tasks the pool is running and holding now (tests observe work in flight through this). */
export function pdfPoolLoad(): { running: number; waiting: number } {
  return pool?.load() ?? { running: 0, waiting: 0 };
}

/** Stop the workers (tests, shutdown). */
export async function closePdfPool(): Promise<void> {
  const p = pool;
  pool = null;
  await p?.close();
}
