/**
 * A round-robin HTTP load balancer for tests with several central processes: each request goes to the
 * next upstream that is up; an upstream that refuses the connection is skipped. A hook may intercept a
 * request after the upstream answered (to kill that upstream and lose the answer on the way back).
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface Upstream {
  url: string;
  up: boolean;
}

export interface Routed {
  method: string;
  path: string;
  upstream: string;
  status: number | null;
}

/** Called with the upstream's answer before it is relayed; return false to drop the connection instead. */
export type AfterAnswer = (req: IncomingMessage, upstream: Upstream, status: number) => boolean | Promise<boolean>;

export class Balancer {
  readonly upstreams: Upstream[];
  readonly routed: Routed[] = [];
  afterAnswer: AfterAnswer | null = null;
  private server: Server | null = null;
  private nextIndex = 0;
  url = '';

  constructor(urls: string[]) {
    this.upstreams = urls.map((url) => ({ url, up: true }));
  }

  async listen(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', () => resolve()));
    const addr = this.server.address();
    this.url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    return this.url;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private pick(skip: Set<Upstream>): Upstream | null {
    for (let i = 0; i < this.upstreams.length; i += 1) {
      const u = this.upstreams[(this.nextIndex + i) % this.upstreams.length] as Upstream;
      if (u.up && !skip.has(u)) {
        this.nextIndex = (this.nextIndex + i + 1) % this.upstreams.length;
        return u;
      }
    }
    return null;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const tried = new Set<Upstream>();
    for (;;) {
      const u = this.pick(tried);
      if (!u) {
        res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, error: 'no upstream' }));
        return;
      }
      tried.add(u);
      const entry: Routed = { method: req.method ?? 'GET', path: req.url ?? '/', upstream: u.url, status: null };
      this.routed.push(entry);
      try {
        const answer = await forward(u.url, req, body);
        entry.status = answer.status;
        if (this.afterAnswer && !(await this.afterAnswer(req, u, answer.status))) {
          res.socket?.destroy();
          return;
        }
        res.writeHead(answer.status, answer.headers).end(answer.body);
        return;
      } catch (err) {
        // Connection refused: that upstream is down, try the next (what a load balancer's health check does).
        if ((err as NodeJS.ErrnoException).code === 'ECONNREFUSED') {
          u.up = false;
          continue;
        }
        res.socket?.destroy();
        return;
      }
    }
  }
}

function forward(base: string, req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> {
  const target = new URL(req.url ?? '/', base);
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, host: target.host };
    const out = request(target, { method: req.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && k !== 'connection' && k !== 'transfer-encoding') h[k] = v;
        resolve({ status: res.statusCode ?? 502, headers: h, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    out.on('error', reject);
    out.end(body);
  });
}
