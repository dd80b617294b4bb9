import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';

type Inquiry = Record<string, string> & { id: string; inquiryId: string };
type InquiryBody = { ok: boolean; inquiry: Inquiry };

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer();
  api = server.client();
});
afterAll(() => server.close());

describe('inquiries', () => {
  it('POST /api/inquiry assigns the next zero-padded 5-digit id with defaults', async () => {
    const seeded = (await api.get<{ inquiries: Inquiry[] }>('/api/inquiries')).body.inquiries;
    const res = await api.post<InquiryBody>('/api/inquiry', { customer: 'ABC物流株式会社', title: '画面割れ交換' });
    const q = res.body.inquiry;
    expect(q.id).toMatch(/^\d{5}$/);
    expect(Number(q.id)).toBe(Math.max(...seeded.map((s) => Number(s.id))) + 1);
    expect(q.inquiryId).toBe(q.id);
    expect(q).toMatchObject({ status: 'オープン', type: '故障', customer: 'ABC物流株式会社', title: '画面割れ交換' });
  });

  it('GET /api/inquiries lists oldest id first', async () => {
    const ids = (await api.get<{ inquiries: Inquiry[] }>('/api/inquiries')).body.inquiries.map((q) => q.id);
    expect(ids).toEqual([...ids].sort());
  });

  it('POST /api/inquiry/{id} updates fields and preserves id and inquiryId', async () => {
    const q = (await api.post<InquiryBody>('/api/inquiry', {})).body.inquiry;
    const res = await api.post<InquiryBody>(`/api/inquiry/${q.id}`, { status: '対応中', id: '99999', inquiryId: '12345', remarks: '代替機発送済' });
    expect(res.body.inquiry).toMatchObject({ id: q.id, inquiryId: q.id, status: '対応中', remarks: '代替機発送済' });
  });

  it('answers 404 for unknown ids and 400 for wrong types', async () => {
    expect((await api.post('/api/inquiry/77777', { status: 'x' })).body).toEqual({ ok: false, error: 'inquiry not found' });
    expect((await api.post('/api/inquiry', { summary: { a: 1 } })).status).toBe(400);
  });

  it('POST /api/inquiry/{id}/delete answers the id', async () => {
    const q = (await api.post<InquiryBody>('/api/inquiry', {})).body.inquiry;
    expect((await api.post(`/api/inquiry/${q.id}/delete`)).body).toEqual({ ok: true, id: q.id });
  });
});
