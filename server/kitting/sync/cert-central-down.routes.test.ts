import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../testing/harness.testkit';
import { b64, fetchPdf, jwsDigest, jwsPayload } from '../modules/certs/cert.testkit';
import { canonicalize } from '../modules/certs/jcs';

/**
 * Central really stopped: its server closed while an enrolled bench issues a certificate (signed with
 * nobody to ask), then central started again on the same database and address. Central answers from the
 * PDF before the bench has synced (`valid, synced: false`) and by number after the bench's sync cycle.
 */
type Body = Record<string, unknown> & { ok: boolean; error?: string };
interface Signed {
  cert: { no: string };
  signature: { kid: string; jws: string } | null;
}
interface Answer {
  status: string;
  synced?: boolean;
  certificate: { no: string } | null;
  issuer: { bench: string | null; kid: string } | null;
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

describe('a certificate issued on an enrolled bench while central is stopped', () => {
  it('verifies on the restarted central from its PDF before sync, and by number after the sync cycle', async () => {
    const { code } = (await owner.post<Body & { code: string }>('/api/sync/enrol-code')).body;
    const enrolled = await ui.post<Body>('/api/sync/enrol', { central: central.url, code });
    expect(enrolled.status, enrolled.text).toBe(200);
    expect((await ui.post<Body>('/api/sync/now')).status).toBe(200);
    const ws = owner.workspaceId() as string;

    // Central's process is gone: its server closed, its database kept.
    const port = Number(new URL(central.url).port);
    const { dataDir } = central;
    await central.close({ keepData: true });
    const unreachable = await ui.post<Body>('/api/sync/now');
    expect(unreachable.status).not.toBe(200);

    const made = await ui.post<{ cert: { no: string } }>('/api/cert', { cust: '停止中発行の顧客', devices: [{ model: 'Galaxy S24', id: '356938035642001', storage: '256GB' }] });
    expect(made.status, made.text).toBe(200);
    const signed = (await ui.get<Signed>(`/api/cert/${made.body.cert.no}`)).body;
    expect(signed.signature).not.toBeNull();
    const jws = (signed.signature as { jws: string }).jws;
    expect(payload(jws)).toMatchObject({ ws, no: made.body.cert.no, customer: '停止中発行の顧客' });
    const pdf = await fetchPdf(bench, ui, made.body.cert.no);

    // Central starts again on the same database, where the bench expects it; the bench has not synced.
    central = await startTestServer({ mode: 'central', dataDir, port });
    const visitor = central.client();
    const before = await visitor.post<Answer>('/api/public/verify', { file: b64(pdf) });
    expect(before.status, before.text).toBe(200);
    expect(before.body).toMatchObject({ status: 'valid', synced: false, certificate: { no: made.body.cert.no }, issuer: { bench: bench.store.node } });
    const url = `/api/public/verify?no=${encodeURIComponent(made.body.cert.no)}&d=${digestOf(jws)}`;
    expect((await visitor.get<Answer>(url)).body.status).toBe('unknown');

    const synced = await ui.post<Body>('/api/sync/now');
    expect(synced.status, synced.text).toBe(200);
    const after = await visitor.get<Answer>(url);
    expect(after.body).toMatchObject({ status: 'valid', synced: true, certificate: { no: made.body.cert.no } });
    expect((await visitor.post<Answer>('/api/public/verify', { file: b64(pdf) })).body).toMatchObject({ status: 'valid', synced: true });
  });
});
