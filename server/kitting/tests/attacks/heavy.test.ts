/**
 * Attack (issue 26): one request froze the server. A certificate with 5,000 devices (the contract's
 * maximum) rendered as PDF on the main thread for about 20 s, and /healthz waited for it. PDFs now render
 * in worker threads, and PDF and export routes are limited per address and per workspace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureLimit } from '../../security/limits';
import { CERT_MAX_DEVICES } from '../../../../shared/api/contracts/certs-labels';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';
import { closePdfPool, pdfPoolLoad } from '../../modules/documents/pdf-pool';
import { signUp } from './helpers.testkit';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  configureLimit(server.ctx, 'signup', 1000);
});
afterAll(async () => {
  await server.close();
  await closePdfPool();
});

let bigPdf: Buffer | null = null;

/** Resolves once the PDF pool holds a task: the request was read and its heavy work left the main thread. */
async function workInFlight(): Promise<void> {
  for (let i = 0; i < 6000 && pdfPoolLoad().running === 0; i++) await new Promise((r) => setTimeout(r, 5));
  expect(pdfPoolLoad().running).toBeGreaterThan(0);
}

/**
 * Asks /healthz up to three times while the pool still runs the heavy task, noting for each answer whether
 * the task was still running when it came. No fixed sleep and no order of completion: each probe starts
 * only after the work is known to be in flight.
 */
async function probesDuringWork(): Promise<boolean[]> {
  await workInFlight();
  const during: boolean[] = [];
  for (let i = 0; i < 3 && pdfPoolLoad().running > 0; i++) {
    const h = await fetch(`${server.url}/healthz`);
    expect(h.status).toBe(200);
    during.push(pdfPoolLoad().running > 0);
  }
  return during;
}
const devices = Array.from({ length: CERT_MAX_DEVICES }, (_, i) => ({ model: 'iPhone 15', id: `35${String(i).padStart(13, '0')}`, storage: '128GB' }));

describe('no request holds the event loop', () => {
  it('/healthz answers while a 5,000-device certificate renders', { timeout: 180_000 }, async () => {
    const o = await signUp(server, 'heavy-cert@example.jp');
    const cert = await o.c.post<{ cert: { no: string } }>('/api/cert', { cust: '大量消去株式会社', devices }, o.auth);
    expect(cert.status, cert.text).toBe(200);
    const pdf = fetch(`${server.url}/api/cert/${cert.body.cert.no}/pdf`, { headers: o.auth }).then(async (r) => ({ status: r.status, body: Buffer.from(await r.arrayBuffer()) }));
    // the render takes seconds: /healthz answers each time while it is still running
    const during = await probesDuringWork();
    const done = await pdf;
    expect(done.status).toBe(200);
    expect(done.body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(during).toEqual([true, true, true]);
    bigPdf = done.body;
  });

  it('/healthz answers while an uploaded 5,000-device certificate PDF is read for verification', { timeout: 180_000 }, async () => {
    expect(bigPdf).not.toBeNull();
    const verify = fetch(`${server.url}/api/public/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ file: bigPdf!.toString('base64') }) }).then(async (r) => ({ status: r.status, body: (await r.json()) as { status: string } }));
    // reading the PDF may be quick on a fast machine: at least the first probe answers while it runs
    const during = await probesDuringWork();
    const done = await verify;
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('valid');
    expect(during[0]).toBe(true);
  });

  it('PDF routes are limited per address: a burst beyond the limit answers 429', async () => {
    configureLimit(server.ctx, 'heavy', 3);
    const o = await signUp(server, 'heavy-burst@example.jp');
    const cert = await o.c.post<{ cert: { no: string } }>('/api/cert', { cust: '連打株式会社', count: 1 }, o.auth);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await o.c.request('GET', `/api/cert/${cert.body.cert.no}/pdf`, undefined, o.auth)).status);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});
