/** The loopback HTTP client the benchmarks share: keep-alive, a fixed number of requests in flight. */
import type express from 'express';
import { Agent, request } from 'node:http';
import type { AddressInfo, Server } from 'node:net';

export function listen(app: express.Express): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port }));
  });
}

export function call(
  agent: Agent,
  port: number,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const h = body ? { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : headers;
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers: h }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface DriveOptions {
  count: number;
  concurrency: number;
  headers?: Record<string, string>;
}

/** `count` POSTs to `path`, `concurrency` in flight over keep-alive connections; answers requests/s. */
export async function drive(port: number, path: string, bodyFor: (i: number) => string, opts: DriveOptions): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.concurrency });
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (next < opts.count) {
        const i = next++;
        const res = await call(agent, port, 'POST', path, bodyFor(i), opts.headers);
        if (res.status !== 200) throw new Error(`POST ${path} answered ${res.status}`);
      }
    }),
  );
  agent.destroy();
  return opts.count / ((performance.now() - start) / 1000);
}
