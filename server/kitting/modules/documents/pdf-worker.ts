/**
 * Worker thread of the PDF pool: the renderers and the reading of uploaded proof PDFs run here, never on the server's main thread (a
 * 5,000-device certificate takes seconds of CPU). Inputs and outputs are the renderers' own.
 */
import { serveTasks } from '../../../core/work/serve-tasks';
import { renderCertPdf } from '../certs/cert-pdf';
import { inspectProofPdf } from '../certs/cert-pdf-proof';
import { renderInvoicePdf } from '../invoices/invoice-pdf';
import { renderQuotePdf } from '../quotes/quote-pdf';

serveTasks({ inspectProof: inspectProofPdf, cert: renderCertPdf, invoice: renderInvoicePdf, quote: renderQuotePdf });
