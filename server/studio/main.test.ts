import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../core/testing/process.testkit';
import { createTestSchema, type TestSchema } from '../core/db/postgres.testkit';
import { openStudioDb } from './db';
import { testStore } from './testing.testkit';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'studio-main-'));
const home = mkdtempSync(join(tmpdir(), 'studio-cli-home-'));
let studio: ServerProcess;
let cliFile: string;
/** Under studio-pg the process's tables live in a fresh PostgreSQL schema (STUDIO_DATABASE_URL). */
let schema: TestSchema | null = null;

beforeAll(async () => {
  if (testStore() === 'pg') schema = await createTestSchema('studiomain');
  studio = await startServerProcess(
    { STUDIO_DATA_DIR: dataDir, STUDIO_ADMIN_SECRET: 'adm', STUDIO_LOCAL_PLATFORM_MS: '300', STUDIO_LOG: '0', ...(schema ? { STUDIO_DATABASE_URL: schema.url } : {}) },
    60_000,
    'server/studio/main.ts',
  );
  cliFile = join(home, 'studio.js');
  const res = await fetch(`${studio.url}/cli/studio.js`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/javascript/);
  const { writeFileSync } = await import('node:fs');
  writeFileSync(cliFile, Buffer.from(await res.arrayBuffer()));
}, 90_000);
afterAll(async () => {
  if (studio.child.exitCode === null) await studio.stop();
  await schema?.drop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/** The downloaded client, run outside the repository the way a user runs it. */
const cli = (args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, [cliFile, ...args], { cwd: home, env: { PATH: process.env.PATH ?? '', HOME: home, ...env }, timeout: 60_000 }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

describe('npm run studio and the command-line client', () => {
  it('starts on a fresh data folder; the CLI logs in, quotes, generates with --yes --out, follows jobs --wait, then SIGTERM exits 0', async () => {
    expect(studio.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const reg = await fetch(`${studio.url}/api/auth/register`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'cli@studio.test', password: 'correct horse' }),
    });
    const { workspace_id } = (await reg.json()) as { workspace_id: number };
    await fetch(`${studio.url}/api/admin/credits`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-admin-secret': 'adm' }, body: JSON.stringify({ workspace_id, amount: 200 }),
    });

    const login = await cli(['login', '--url', studio.url, '--email', 'cli@studio.test', '--password', 'correct horse']);
    expect(login.stdout, JSON.stringify(login)).toMatch(/Logged in/);
    const config = JSON.parse(readFileSync(join(home, '.studio', 'config.json'), 'utf8')) as { url: string; key: string };
    expect(config.url).toBe(studio.url);

    expect((await cli(['models'])).stdout).toMatch(/studio\/image-v1\s+image\s+12 credits/);
    expect((await cli(['effects'])).stdout).toMatch(/product-shot/);
    expect((await cli(['balance'])).stdout).toMatch(/credits 200/);

    const noYes = await cli(['generate', '--model', 'studio/image-v1', '--prompt', 'a paper crane']);
    expect(noYes.code, JSON.stringify(noYes)).not.toBe(0);
    expect(noYes.stdout).toMatch(/12 credits; balance 200 credits/);
    expect(noYes.stderr).toMatch(/--yes/);

    const out = join(home, 'out', 'crane.png');
    const gen = await cli(['generate', '--model', 'studio/image-v1', '--prompt', 'a paper crane', '--aspect', '16:9', '--yes', '--out', out]);
    expect(gen.code, JSON.stringify(gen)).toBe(0);
    expect(gen.stdout).toMatch(/Job job_\w+: completed/);
    expect(gen.stderr).toMatch(/completed/);
    const png = readFileSync(out);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(320);

    // An API key from the environment, a video job submitted without waiting, then followed with jobs --wait.
    const keyRes = await fetch(`${studio.url}/api/settings/api-keys`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${config.key}` }, body: JSON.stringify({ name: 'cli' }),
    });
    const { key } = (await keyRes.json()) as { key: string };
    const env = { STUDIO_API_KEY: key, STUDIO_URL: studio.url, HOME: join(home, 'elsewhere') };
    const video = await cli(['generate', '--model', 'studio/frontier-video-v1', '--prompt', 'waves', '--duration', '3', '--resolution', '480p', '--yes', '--no-wait'], env);
    expect(video.code, JSON.stringify(video)).toBe(0);
    const id = /Submitted job (job_\w+)/.exec(video.stdout)?.[1];
    expect(id).toBeTruthy();
    const vout = join(home, 'waves.apng');
    const waited = await cli(['jobs', id!, '--wait', '--out', vout], env);
    expect(waited.code, JSON.stringify(waited)).toBe(0);
    expect(waited.stdout).toMatch(/completed/);
    const apng = readFileSync(vout);
    expect(apng.includes(Buffer.from('acTL'))).toBe(true);
    expect((await cli(['balance'], env)).stdout).toMatch(/credits 68/);

    expect(await studio.stop()).toBe(0);
    expect(existsSync(join(dataDir, 'jwt.key'))).toBe(true);
    expect(existsSync(join(dataDir, 'studio.db'))).toBe(schema === null);
    const store = await openStudioDb({ file: join(dataDir, 'studio.db'), url: schema?.url, statementTimeoutMs: 5000, lockTimeoutMs: 5000 });
    try {
      expect((await store.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n).toBe(2);
    } finally {
      await store.close();
    }
  }, 120_000);
});
