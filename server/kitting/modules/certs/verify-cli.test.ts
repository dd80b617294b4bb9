import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';
import { attachment, fetchPdf, withAttachment } from './cert.testkit';
import { runVerify } from './verify-run';

/** npm run cert:verify -- <file.pdf> [--keys <jwks file or URL>]: exit 0 only when valid. */
let server: TestServer;
let api: Client;
let dir: string;
let genuine: string;
let forged: string;
let jwksFile: string;

beforeAll(async () => {
  server = await startTestServer({ mode: 'central' });
  api = server.client();
  const made = await api.post<{ cert: { no: string } }>('/api/cert', { cust: 'ABC物流株式会社', devices: [{ model: 'iPhone 15', id: '356938035643809', storage: '128GB' }] });
  const pdf = await fetchPdf(server, api, made.body.cert.no);
  dir = mkdtempSync(join(tmpdir(), 'cert-cli-'));
  genuine = join(dir, 'genuine.pdf');
  writeFileSync(genuine, pdf);
  const a = await attachment(pdf);
  forged = join(dir, 'forged.pdf');
  writeFileSync(forged, await withAttachment(pdf, { ...a, record: { ...a.record, customer: 'XYZ商事' } }));
  const ws = api.workspaceId() as string;
  jwksFile = join(dir, 'keys.json');
  writeFileSync(jwksFile, (await server.client().get(`/api/public/cert-keys?ws=${ws}`)).text);
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await server.close();
});

async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runVerify(args, { KITTING_DATA_DIR: dir, ...env }, (l) => out.push(l), (l) => err.push(l));
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('cert:verify', () => {
  it('prints the certificate and valid, exit 0, with a JWKS file or the JWKS URL of central', async () => {
    const file = await run([genuine, '--keys', jwksFile]);
    expect(file.code).toBe(0);
    expect(file.out).toContain('ABC物流株式会社');
    expect(file.out).toContain('356938035643809');
    expect(file.out.trim().endsWith('valid')).toBe(true);
    expect((await run([genuine, '--keys', `${server.url}/api/public/cert-keys`])).code).toBe(0);
  });

  it('exits 1 with the reason for a tampered certificate', async () => {
    const res = await run([forged, `--keys=${jwksFile}`]);
    expect(res.code).toBe(1);
    expect(res.out).toContain('not valid: record_differs');
  });

  it('exits 1 for a key set that does not hold the signing key', async () => {
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, '{"keys":[]}');
    const res = await run([genuine, '--keys', empty]);
    expect(res.code).toBe(1);
    expect(res.out).toContain('unknown_key');
  });

  it('exits 2 with a clear message without keys on a machine not enrolled with a central', async () => {
    const res = await run([genuine]);
    expect(res.code).toBe(2);
    expect(res.err).toContain('pass --keys');
    expect((await run([])).code).toBe(2);
    expect((await run([join(dir, 'missing.pdf'), '--keys', jwksFile])).code).toBe(2);
  });

  it('runs as npm run cert:verify with those exit codes', async () => {
    const exec = (args: string[]) =>
      new Promise<number>((resolve) => {
        const p = spawn(process.execPath, ['--import', 'tsx', 'server/kitting/modules/certs/verify-cli.ts', ...args], { stdio: 'ignore', env: { ...process.env, KITTING_DATA_DIR: dir } });
        p.on('exit', (code) => resolve(code ?? -1));
      });
    expect(await exec([genuine, '--keys', jwksFile])).toBe(0);
    expect(await exec([forged, '--keys', jwksFile])).toBe(1);
    expect(await exec([genuine])).toBe(2);
  }, 60_000);
});
