import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentsApp } from '../app';
import { signatureHeader, verifySignature } from '../webhooks/sender';
import { startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';
import { testStore } from '../store.testkit';

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer({}, { webhookWorker: false });
});
afterAll(() => t.close());

const code = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() });
const mode = (p: string) => statSync(p).mode & 0o777;
const login = (email: string, c?: string) => t.api(null, { 'x-forwarded-for': '10.51.0.1' }).post('/api/auth/login', { email, password: 'secret-pass', code: c });

/** A second app over the same database: what a restart of the service runs at startup. */
async function restart(): Promise<void> {
  const again = await createAgentsApp({ config: t.ctx.config, log: () => {}, webhookWorker: false });
  await again.close();
}

describe('attack: reading secrets off the disk', () => {
  it('the data folder is 0700 and the database, its -wal/-shm and the key files are 0600', async () => {
    const u = await t.signup();
    await u.post('/api/auth/2fa/setup'); // seals a secret: the key file exists from then on
    await u.get('/api/webhooks/secret');
    expect(mode(t.dir)).toBe(0o700);
    for (const f of ['jwt.secret', 'secrets.key']) expect(mode(join(t.dir, f)), f).toBe(0o600);
    if (testStore() === 'sqlite') {
      for (const f of ['agents.db', 'agents.db-wal', 'agents.db-shm']) {
        expect(existsSync(join(t.dir, f)), f).toBe(true);
        expect(mode(join(t.dir, f)), f).toBe(0o600);
      }
    }
  });

  it('a TOTP secret is stored sealed, never as the base32 text, and two-factor login still works', async () => {
    const u = await t.signup();
    const secret = str((await u.post('/api/auth/2fa/setup')).body.secret);
    const pending = await t.ctx.db.selectFrom('users').select('totp_pending').where('email', '=', u.email).executeTakeFirstOrThrow();
    expect(pending.totp_pending).not.toContain(secret);
    expect(pending.totp_pending).toMatch(/^v1:/);
    expect((await u.post('/api/auth/2fa/enable', { code: code(secret) })).status).toBe(200);
    const row = await t.ctx.db.selectFrom('users').select('totp_secret').where('email', '=', u.email).executeTakeFirstOrThrow();
    expect(row.totp_secret).toMatch(/^v1:/);
    expect(row.totp_secret).not.toContain(secret);
    expect((await login(u.email)).status).toBe(401);
    expect((await login(u.email, code(secret))).status).toBe(200);
  });

  it('the webhook signing secret is stored sealed and deliveries still verify with the secret the owner reads', async () => {
    const u = await t.signup();
    const secret = str((await u.get('/api/webhooks/secret')).body.secret);
    expect(secret).toMatch(/^whsec_/);
    const stored = await t.ctx.db.selectFrom('webhook_secrets').select('secret').execute();
    expect(stored.length).toBeGreaterThan(0);
    for (const s of stored) expect(s.secret).toMatch(/^v1:/);
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(str((await u.get('/api/webhooks/secret')).body.secret)).toBe(secret);
    const now = Math.floor(Date.now() / 1000);
    expect(verifySignature(secret, signatureHeader(secret, now, '{"a":1}'), '{"a":1}', now)).toBe(true);
  });

  it('plain-text secrets written by an earlier version are sealed at the next start and keep working', async () => {
    const u = await t.signup();
    const { ws } = await t.ctx.db.selectFrom('members as m').innerJoin('users as x', 'x.id', 'm.user_id').select('m.workspace_id as ws').where('x.email', '=', u.email).executeTakeFirstOrThrow();
    const base32 = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    await t.ctx.db.updateTable('users').set({ totp_secret: base32, totp_enabled: 1 }).where('email', '=', u.email).execute();
    await t.ctx.db.deleteFrom('webhook_secrets').where('workspace_id', '=', ws).execute();
    await t.ctx.db.insertInto('webhook_secrets').values({ workspace_id: ws, secret: 'whsec_legacyplaintextsecret0000000000', created_at: Date.now() }).execute();

    await restart();

    const row = await t.ctx.db.selectFrom('users').select('totp_secret').where('email', '=', u.email).executeTakeFirstOrThrow();
    expect(row.totp_secret).toMatch(/^v1:/);
    const hook = await t.ctx.db.selectFrom('webhook_secrets').select('secret').where('workspace_id', '=', ws).executeTakeFirstOrThrow();
    expect(hook.secret).toMatch(/^v1:/);
    expect((await login(u.email, code(base32))).status).toBe(200);
    expect(str((await u.get('/api/webhooks/secret')).body.secret)).toBe('whsec_legacyplaintextsecret0000000000');
  });
});
