import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../testing/harness.testkit';
import { b64, fetchPdf, jwsDigest, jwsPayload } from '../modules/certs/cert.testkit';
import { canonicalize } from '../modules/certs/jcs';
import { PLATFORM_WS } from '../modules/platform-collections';

/**
 * A standalone bench's certificates signed before it enrolled verify on central afterwards — also for a
 * bench that joined before central knew of signing keys: it registers its standalone workspace as an
 * alias at its next sync, found from the certificates it signed.
 */
type Body = Record<string, unknown> & { ok: boolean };
interface Signed {
  cert: { no: string };
  signature: { kid: string; jws: string };
}
interface Answer {
  status: string;
  synced?: boolean;
  reason?: string;
  certificate: { no: string; formerNo?: string } | null;
}

let central: TestServer;
let bench: TestServer;
let owner: Client;
let ui: Client;

beforeAll(async () => {
  central = await startTestServer({ mode: 'central' });
  bench = await startTestServer({ mode: 'bench' });
  owner = central.client();
  ui = bench.client();
  await owner.get('/api/devices');
  await ui.get('/api/devices');
});
afterAll(async () => {
  await bench.close();
  await central.close();
});

const payload = jwsPayload;
const digestOf = jwsDigest;

describe('certificates a bench signed standalone, after it joined before aliases existed', () => {
  it('verify on central once the bench has synced: by PDF and by their printed number', async () => {
    const made = await ui.post<{ cert: { no: string } }>('/api/cert', { cust: '単独時代の顧客', devices: [{ model: 'iPhone 15', id: '356938035641001', storage: '128GB' }] });
    expect(made.status, made.text).toBe(200);
    const signed = (await ui.get<Signed>(`/api/cert/${made.body.cert.no}`)).body;
    const localWs = bench.ctx.benchWorkspace as string;
    expect(payload(signed.signature.jws).ws).toBe(localWs);

    const { code } = (await owner.post<Body & { code: string }>('/api/sync/enrol-code')).body;
    expect((await ui.post<Body>('/api/sync/enrol', { central: central.url, code })).status).toBe(200);
    const ws = owner.workspaceId() as string;
    // As a bench that enrolled with a central before this version: central holds none of its keys and no
    // alias, and the bench neither sent its key nor remembered its standalone workspace.
    for (const row of await central.store.list(PLATFORM_WS, 'certKeys')) {
      if (row.bench === bench.store.node) await central.store.transact(PLATFORM_WS, (tx) => tx.remove('certKeys', String(row.id)));
    }
    await bench.store.setMeta('sync_cert_key', '');
    await bench.store.setMeta('bench_standalone_workspace', '');
    const c = central.client();
    const pdf = await fetchPdf(bench, ui, (await ui.get<Signed>(`/api/cert/${made.body.cert.no}`)).body.cert.no);
    expect((await c.post<Answer>('/api/public/verify', { file: b64(pdf) })).body).toMatchObject({ status: 'mismatch', reason: 'unknown_key' });

    expect((await ui.post<Body>('/api/sync/now')).status).toBe(200);
    const aliasKeys = await c.get<{ keys: { kid: string }[] }>(`/api/public/cert-keys?ws=${localWs}`);
    expect(aliasKeys.body.keys.map((k) => k.kid)).toEqual([signed.signature.kid]);
    const byPdf = await c.post<Answer>('/api/public/verify', { file: b64(pdf) });
    expect(byPdf.body).toMatchObject({ status: 'valid', synced: true });
    // Pushed before the alias existed, and still found by the number printed on it.
    const formerNo = String(payload(signed.signature.jws).no);
    const byNo = await c.get<Answer>(`/api/public/verify?no=${encodeURIComponent(formerNo)}&d=${digestOf(signed.signature.jws)}`);
    expect(byNo.body).toMatchObject({ status: 'valid', synced: true });
    expect(byNo.body.certificate?.no).toBe(byPdf.body.certificate?.no);
    // Sent once: the next cycle does not ask again.
    const sent = await bench.store.meta('sync_cert_key');
    expect(sent).toBe(`${ws} ${signed.signature.kid} ${localWs}`);
  });
});
