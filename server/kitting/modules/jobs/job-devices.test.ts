import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_STATUSES } from '../../../../shared/devices';
import { generateImei } from '../../../../shared/imei';
import { deviceStatusForStage, JOB_STAGE_NAMES, STAGE_DEVICE_STATUS } from '../../../../shared/jobs';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer();
  api = server.client();
});
afterAll(() => server.close());

interface Job {
  id: string;
  s: number;
  devices?: string[];
}
interface Device {
  imei: string;
  status: string;
  job?: string;
  jobStage?: string;
  history?: { what: string; detail: string }[];
}
const device = async (imei: string) => (await api.get<{ devices: Device[] }>('/api/devices')).body.devices.find((d) => d.imei === imei);
const newDevice = async () => {
  const imei = generateImei();
  expect((await api.post('/api/device', { imei, model: 'iPhone 15', cust: 'ABC物流株式会社' })).status).toBe(200);
  return imei;
};
const newJob = async (s = 2) => (await api.post<{ job: Job }>('/api/job', { t: '検証 ×2台', c: 'ABC物流株式会社', s, due: '2026-12-10' })).body.job;

describe('POST /api/job/{id}/devices', () => {
  it('adds ledger devices to a card; they take its stage at once', async () => {
    const job = await newJob(3);
    const a = await newDevice();
    const b = await newDevice();
    const res = await api.post<{ job: Job }>(`/api/job/${job.id}/devices`, { add: [a, b, a] });
    expect(res.status).toBe(200);
    expect(res.body.job.devices).toEqual([a, b]);
    expect(await device(a)).toMatchObject({ job: job.id, jobStage: 'キッティング', status: 'キッティング' });
    expect((await device(b))?.history?.at(-1)?.what).toBe('案件に追加');
  });

  it('refuses an IMEI not in the ledger with 404 and changes nothing', async () => {
    const job = await newJob();
    const a = await newDevice();
    const stranger = generateImei();
    const res = await api.post<{ error: string; imeis: string[] }>(`/api/job/${job.id}/devices`, { add: [a, stranger] });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'device not found', imeis: [stranger] });
    expect((await device(a))?.job).toBeUndefined();
    const jobs = (await api.get<{ jobs: Job[] }>('/api/jobs')).body.jobs;
    expect(jobs.find((j) => j.id === job.id)?.devices).toBeUndefined();
  });

  it('answers 404 job not found and 400 for an empty change', async () => {
    expect((await api.post('/api/job/job-nope/devices', { add: [await newDevice()] })).status).toBe(404);
    const job = await newJob();
    expect((await api.post(`/api/job/${job.id}/devices`, {})).status).toBe(400);
    expect((await api.post(`/api/job/${job.id}/devices`, { add: 'x' })).status).toBe(400);
  });

  it('moving the card moves its devices: status, stage and a history entry per move', async () => {
    const job = await newJob(2);
    const a = await newDevice();
    await api.post(`/api/job/${job.id}/devices`, { add: [a] });
    await api.post(`/api/job/${job.id}`, { s: 5 });
    expect(await device(a)).toMatchObject({ jobStage: '梱包', status: '梱包' });
    await api.post(`/api/job/${job.id}`, { s: 6 });
    const d = await device(a);
    expect(d).toMatchObject({ jobStage: '出荷', status: '出荷済' });
    expect(d?.history?.at(-1)?.detail).toContain('梱包 → 出荷');
    // Editing other fields does not touch the devices.
    const before = (await device(a))?.history?.length;
    await api.post(`/api/job/${job.id}`, { tag: '至急' });
    expect((await device(a))?.history?.length).toBe(before);
  });

  it('a device moved onto another card leaves the first; removing or deleting the card releases it', async () => {
    const one = await newJob(1);
    const two = await newJob(4);
    const a = await newDevice();
    await api.post(`/api/job/${one.id}/devices`, { add: [a] });
    await api.post(`/api/job/${two.id}/devices`, { add: [a] });
    const jobs = (await api.get<{ jobs: Job[] }>('/api/jobs')).body.jobs;
    expect(jobs.find((j) => j.id === one.id)?.devices).toEqual([]);
    expect(jobs.find((j) => j.id === two.id)?.devices).toEqual([a]);
    expect(await device(a)).toMatchObject({ job: two.id, jobStage: '動作検証' });
    await api.post(`/api/job/${two.id}/delete`);
    expect((await device(a))?.job).toBe('');
  });
});

describe('status integrity across board moves', () => {
  it('every stage maps to a ledger status under one vocabulary', () => {
    for (const [i, name] of JOB_STAGE_NAMES.entries()) {
      expect(DEVICE_STATUSES).toContain(STAGE_DEVICE_STATUS[name]);
      expect(deviceStatusForStage(i)).toBe(STAGE_DEVICE_STATUS[name]);
    }
    expect(STAGE_DEVICE_STATUS.キッティング).toBe('キッティング');
  });

  it('a board move never undoes an erasure: 消去済 and its certificate stay, the move is in the history', async () => {
    const job = await newJob(2);
    const erased = await newDevice();
    const other = await newDevice();
    await api.post(`/api/job/${job.id}/devices`, { add: [erased, other] });
    const cert = await api.post<{ cert: { no: string } }>('/api/cert', { cust: 'ABC物流株式会社', methodKey: 'purge', devices: [{ id: erased, model: 'iPhone 15', storage: '128GB' }], operator: '山田' });
    expect(cert.status).toBe(200);
    for (const s of [3, 4, 2, 6]) expect((await api.post(`/api/job/${job.id}`, { s })).status).toBe(200);
    const d = (await device(erased)) as Device & { erasure?: { cert: string } };
    expect(d).toMatchObject({ status: '消去済', jobStage: '出荷', erasure: { cert: cert.body.cert.no } });
    expect(d.history?.at(-1)?.detail).toContain('状態は消去済のまま');
    expect(await device(other)).toMatchObject({ status: '出荷済', jobStage: '出荷' });
  });

  it('every status change is in the device history: board moves and edits', async () => {
    const job = await newJob(2);
    const a = await newDevice();
    await api.post(`/api/job/${job.id}/devices`, { add: [a] });
    await api.post(`/api/job/${job.id}`, { s: 3 });
    expect((await device(a))?.history?.at(-1)?.detail).toContain('状態 入荷検品 → キッティング');
    await api.post(`/api/device/${a}`, { status: '修理中' });
    expect((await device(a))?.history?.at(-1)).toMatchObject({ what: '状態変更', detail: 'キッティング → 修理中' });
    const n = (await device(a))?.history?.length;
    await api.post(`/api/device/${a}`, { note: 'メモだけ' });
    expect((await device(a))?.history?.length).toBe(n);
  });
});
