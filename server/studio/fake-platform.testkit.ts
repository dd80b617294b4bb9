import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makePng } from './platform/media-gen';

export type Outcome = { status: 'completed' } | { status: 'failed'; error?: string } | { status: 'nsfw' } | { status: 'in_progress' };

interface FakeRequest {
  id: string;
  model: string;
  body: Record<string, unknown>;
  outcome: Outcome | null;
  cancelled: boolean;
}

/**
 * A queue API like the generation platform's, for tests: jobs stay queued until the test ends
 * them (completed, failed, nsfw), and every status call is counted.
 */
export interface FakePlatform {
  url: string;
  key: string;
  requests: FakeRequest[];
  statusCalls: Map<string, number>;
  /** Answer the next submits with this HTTP status and body (then normally again). */
  failNextSubmits: (n: number, status: number, body: unknown) => void;
  /** Make the next status calls fail with this status (retries). */
  failNextStatus: (n: number, status: number) => void;
  end: (requestId: string, outcome: Outcome) => void;
  last: () => FakeRequest;
  close: () => Promise<void>;
}

export async function startFakePlatform(key = 'kid:secret'): Promise<FakePlatform> {
  const app = express();
  app.use(express.json());
  const requests: FakeRequest[] = [];
  const statusCalls = new Map<string, number>();
  let submitFailures: { n: number; status: number; body: unknown } = { n: 0, status: 500, body: {} };
  let statusFailures = { n: 0, status: 500 };
  let base = '';
  const png = makePng('fake', 8, 8);

  app.use((req, res, next) => {
    if (req.path.startsWith('/media/')) return next();
    if (req.headers.authorization !== `Key ${key}`) return void res.status(401).json({ detail: 'bad key' });
    next();
  });
  app.get('/media/:name', (_req, res) => void res.type('image/png').send(png));
  app.get('/requests/:id/status', (req, res) => {
    const r = requests.find((x) => x.id === req.params.id);
    statusCalls.set(req.params.id, (statusCalls.get(req.params.id) ?? 0) + 1);
    if (statusFailures.n > 0) {
      statusFailures.n--;
      return void res.status(statusFailures.status).json({ detail: 'temporarily unavailable' });
    }
    if (!r) return void res.status(404).json({ detail: 'not found' });
    const o = r.outcome;
    if (!o) return void res.json({ request_id: r.id, status: 'queued' });
    if (o.status === 'completed') {
      const media = `${base}/media/${r.id}.png`;
      if (r.model.includes('video')) return void res.json({ request_id: r.id, status: 'completed', video: { url: media } });
      if (r.model.includes('audio')) return void res.json({ request_id: r.id, status: 'completed', audio: { url: media } });
      return void res.json({ request_id: r.id, status: 'completed', images: [{ url: media }] });
    }
    res.json({ request_id: r.id, ...o });
  });
  app.post('/requests/:id/cancel', (req, res) => {
    const r = requests.find((x) => x.id === req.params.id);
    if (r) r.cancelled = true;
    res.status(202).json({ ok: true });
  });
  app.post('/{*model}', (req, res) => {
    if (submitFailures.n > 0) {
      submitFailures.n--;
      return void res.status(submitFailures.status).json(submitFailures.body);
    }
    const id = `req-${requests.length + 1}`;
    const model = (req.params as { model: string[] }).model.join('/');
    requests.push({ id, model, body: req.body as Record<string, unknown>, outcome: null, cancelled: false });
    res.json({ request_id: id, status: 'queued', status_url: `${base}/requests/${id}/status`, cancel_url: `${base}/requests/${id}/cancel` });
  });

  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base, key, requests, statusCalls,
    failNextSubmits: (n, status, body) => void (submitFailures = { n, status, body }),
    failNextStatus: (n, status) => void (statusFailures = { n, status }),
    end: (id, outcome) => {
      const r = requests.find((x) => x.id === id);
      if (!r) throw new Error(`no request ${id}`);
      r.outcome = outcome;
    },
    last: () => requests[requests.length - 1],
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
