import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../server/agents/harness.testkit';
import { startStudio, type TestStudio } from '../server/studio/testing.testkit';
import { launch, type Browser } from './harness.testkit';

/** The pages mailed links open, driven in Chromium: the page's own script calls the API (under its CSP). */
let agents: AgentsTestServer;
let studio: TestStudio;
let b: Browser;
const problems: string[] = [];

beforeAll(async () => {
  agents = await startAgentsServer({ adminEmails: ['ops-e2e@example.com'] });
  studio = await startStudio();
  b = await launch();
  // A CSP violation or a script error shows up here.
  b.page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
  b.page.on('pageerror', (e) => void problems.push(e.message));
}, 60_000);
afterAll(async () => {
  await b?.close();
  await agents?.close();
  await studio?.close();
});

describe('mailed link pages in Chromium', () => {
  it('agents: a new person registers from the invitation page and lands in the inviting workspace', async () => {
    const owner = await agents.signup();
    const email = `e2e-invitee-${Date.now()}@example.com`;
    expect((await owner.post('/api/workspace/members', { email, role: 'member' })).status).toBe(200);
    const page = b.page;
    await page.goto(`${agents.base}/invite/${agents.mailedToken(email, 'invite')}`);
    await page.locator('#reg-email').fill(email);
    await page.locator('#reg-password').fill('secret-pass-1');
    await page.locator('#register-form button[type=submit]').click();
    await page.locator('#status.ok', { hasText: 'ワークスペースに参加しました' }).waitFor();
    const ownerWs = str((await owner.get('/api/workspace/general')).body.workspace.id);
    const login = await agents.api(null, { 'x-forwarded-for': '10.77.0.1' }).post('/api/auth/login', { email, password: 'secret-pass-1' });
    expect(arr((await agents.api(str(login.body.token)).get('/api/workspaces')).body.workspaces).map((w) => str(w.id))).toContain(ownerWs);
  });

  it('agents: a used link says why it did not work', async () => {
    const owner = await agents.signup();
    const email = `e2e-twice-${Date.now()}@example.com`;
    await owner.post('/api/workspace/members', { email, role: 'viewer' });
    const link = `${agents.base}/invite/${agents.mailedToken(email, 'invite')}`;
    await agents.api(null, { 'x-forwarded-for': '10.77.0.2' }).post('/api/auth/register', { email, password: 'secret-pass-1', invite: agents.mailedToken(email, 'invite') });
    await b.page.goto(link);
    await b.page.locator('#login-email').fill(email);
    await b.page.locator('#login-password').fill('secret-pass-1');
    await b.page.locator('#login-form button[type=submit]').click();
    await b.page.locator('#status.err', { hasText: 'invalid or already used invitation' }).waitFor();
  });

  it('agents: an existing account signed in by cookie accepts with one button', async () => {
    const owner = await agents.signup();
    const email = `e2e-existing-${Date.now()}@example.com`;
    await agents.signup(email);
    await owner.post('/api/workspace/members', { email, role: 'member' });
    const page = b.page;
    // Sign in on the same origin first (the app's login sets the session cookie).
    await page.goto(`${agents.base}/invite/${agents.mailedToken(email, 'invite')}`);
    const status = await page.evaluate(
      async (body) => (await fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status,
      { email, password: 'secret-pass' },
    );
    expect(status).toBe(200);
    await page.reload();
    await page.locator('#signed-in-as', { hasText: email }).waitFor();
    await page.locator('#accept').click();
    await page.locator('#status.ok', { hasText: 'ワークスペースに参加しました' }).waitFor();
    expect(arr((await owner.get('/api/workspace/members')).body.members).some((m) => str(m.email) === email && str(m.status) === 'active')).toBe(true);
  });

  it('agents: the verification page confirms the address when the button is pressed', async () => {
    const email = 'ops-e2e@example.com';
    const api = await agents.signup(email);
    const page = b.page;
    await page.goto(`${agents.base}/verify-email?token=${agents.mailedToken(email, 'verify')}`);
    await page.locator('h1', { hasText: 'メールアドレスの確認' }).waitFor();
    expect((await api.get('/api/auth/me')).body.user.emailVerified).toBe(false);
    await page.locator('#verify').click();
    await page.locator('#status.ok', { hasText: 'メールアドレスを確認しました' }).waitFor();
    expect((await api.get('/api/auth/me')).body.user.emailVerified).toBe(true);
  });

  it('studio: an existing account signs in on the invitation page and joins', async () => {
    const owner = await studio.register('e2e-owner@example.com');
    await studio.call('POST', '/api/billing/plan', { auth: owner.token, body: { plan: 'pro' } });
    await studio.register('e2e-member@example.com');
    expect((await studio.call('POST', '/api/workspace/members', { auth: owner.token, body: { email: 'e2e-member@example.com', role: 'editor' } })).status).toBe(200);
    const page = b.page;
    await page.goto(`${studio.url}/invite/${studio.inviteToken('e2e-member@example.com')}`);
    await page.locator('#login-email').fill('e2e-member@example.com');
    await page.locator('#login-password').fill('correct horse');
    await page.locator('#login-form button[type=submit]').click();
    await page.locator('#status.ok', { hasText: 'ワークスペースに参加しました' }).waitFor();
    const members = await studio.call<{ members: { email: string }[] }>('GET', '/api/workspace/members', { auth: owner.token });
    expect(members.body.members.map((m) => m.email)).toContain('e2e-member@example.com');
  });

  it('no page raised a script error or a CSP violation', () => {
    expect(problems.filter((p) => !/status of 40[0-9]/.test(p))).toEqual([]);
  });
});
