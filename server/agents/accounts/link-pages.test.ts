import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';

/** The pages the mailed links open, and the API calls their script makes (same origin, JSON). */
let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer({ adminEmails: ['ops-page@example.com'] });
});
afterAll(() => t.close());

/** The path of the last mailed link of this kind (the mail names AGENTS_APP_URL; the test server listens elsewhere). */
const mailedPath = (email: string, re: RegExp) => {
  const m = t.mails.filter((x) => x.to === email).map((x) => re.exec(x.text)?.[0]).filter((x): x is string => !!x);
  return new URL(m[m.length - 1]!).pathname + new URL(m[m.length - 1]!).search;
};
const page = async (path: string) => {
  const res = await fetch(t.base + path);
  return { status: res.status, headers: res.headers, html: await res.text() };
};
const dataToken = (html: string) => /data-token="([^"]*)"/.exec(html)?.[1] ?? '';
const sameOrigin = () => ({ origin: t.base });
let n = 0;
const from = () => ({ 'x-forwarded-for': `10.61.0.${++n}` });

function expectSafePage(p: { status: number; headers: Headers; html: string }) {
  expect(p.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(p.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(p.headers.get('referrer-policy')).toBe('no-referrer');
  expect(p.headers.get('cache-control')).toBe('no-store');
  // The only script is the same-origin file: no inline code.
  expect(p.html.match(/<script[^>]*>/g)).toEqual(['<script src="/link-page.js" defer>']);
}

describe('GET /invite/<token>', () => {
  it('the mailed link opens a page to register with the invitation or accept it, in Japanese and English', async () => {
    const owner = await t.signup();
    const email = `page-invitee-${Date.now()}@example.com`;
    expect((await owner.post('/api/workspace/members', { email, role: 'member' })).status).toBe(200);
    const p = await page(mailedPath(email, /https?:\/\/[^\s]+\/invite\/[A-Za-z0-9_%-]+/));
    expect(p.status).toBe(200);
    expectSafePage(p);
    expect(p.html).toContain('招待を承認する');
    expect(p.html).toContain('Accept invitation');
    expect(p.html).toContain('登録して参加する');
    expect(p.html).toContain('data-action="invite"');
    expect(dataToken(p.html)).toBe(t.mailedToken(email, 'invite'));

    // What the page's register form sends joins the inviting workspace.
    const reg = await t.api(null, { ...from(), ...sameOrigin() }).post('/api/auth/register', { email, password: 'secret-pass', name: '佐藤', invite: dataToken(p.html) });
    expect(reg.status).toBe(200);
    const joined = t.api(str(reg.body.token));
    const ownerWs = str((await owner.get('/api/workspace/general')).body.workspace.id);
    expect(arr((await joined.get('/api/workspaces')).body.workspaces).map((w) => str(w.id))).toContain(ownerWs);
  });

  it('a signed-in account accepts it the way the page does: /api/auth/me by cookie, then accept (and sign in, then accept by token)', async () => {
    for (const way of ['cookie', 'login'] as const) {
      // A free workspace has two seats: one inviter per way.
      const owner = await t.signup();
      const ownerWs = str((await owner.get('/api/workspace/general')).body.workspace.id);
      const email = `page-existing-${way}-${Date.now()}@example.com`;
      await t.signup(email);
      expect((await owner.post('/api/workspace/members', { email, role: 'viewer' })).status).toBe(200);
      const token = dataToken((await page(mailedPath(email, /https?:\/\/[^\s]+\/invite\/[A-Za-z0-9_%-]+/))).html);
      const login = await t.api(null, from()).post('/api/auth/login', { email, password: 'secret-pass' });
      expect(login.status).toBe(200);
      let accepted;
      if (way === 'cookie') {
        const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
        expect(cookie).toMatch(/^service_token=/);
        const browser = t.api(null, { cookie, ...sameOrigin() });
        expect((await browser.get('/api/auth/me')).status).toBe(200);
        accepted = await browser.post('/api/workspace/invitations/accept', { token });
      } else {
        accepted = await t.api(str(login.body.token), sameOrigin()).post('/api/workspace/invitations/accept', { token });
      }
      expect(accepted.status, way).toBe(200);
      expect(arr(accepted.body.workspaces).map((w) => str(w.id))).toContain(ownerWs);
    }
  });

  it('a malformed token answers 404 with a page that offers nothing to do', async () => {
    for (const path of ['/invite/short', `/invite/${'x'.repeat(201)}`, '/invite/%3Cscript%3E']) {
      const p = await page(path);
      expect(p.status, path).toBe(404);
      expect(p.html).toContain('無効なリンク');
      expect(p.html).not.toContain('register-form');
      expect(p.html).not.toContain('<script>');
    }
  });
});

describe('GET /verify-email?token=', () => {
  it('the mailed link opens a page whose button POSTs the token to /api/auth/verify', async () => {
    const email = 'ops-page@example.com';
    const api = await t.signup(email);
    expect((await api.get('/api/admin/stats')).status).toBe(403);
    const p = await page(mailedPath(email, /https?:\/\/[^\s]+\/verify-email\?token=[A-Za-z0-9_%-]+/));
    expect(p.status).toBe(200);
    expectSafePage(p);
    expect(p.html).toContain('メールアドレスを確認する');
    expect(p.html).toContain('Confirm email address');
    expect(p.html).toContain('data-action="verify"');
    // Opening the page confirms nothing (a mail scanner's GET); the button's POST does.
    expect((await api.get('/api/auth/me')).body.user.emailVerified).toBe(false);
    const v = await t.api(null, { ...from(), ...sameOrigin() }).post('/api/auth/verify', { token: dataToken(p.html) });
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({ ok: true, email });
    expect((await api.get('/api/auth/me')).body.user.emailVerified).toBe(true);
    expect((await api.get('/api/admin/stats')).status).toBe(200);
  });

  it('without a token answers 404', async () => {
    expect((await page('/verify-email')).status).toBe(404);
    expect((await page('/verify-email?token=a&token=b')).status).toBe(404);
  });
});

describe('GET /link-page.js', () => {
  it('serves the pages script, which calls exactly the API routes above', async () => {
    const res = await fetch(`${t.base}/link-page.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    const js = await res.text();
    for (const path of ['/api/auth/register', '/api/auth/login', '/api/auth/me', '/api/workspace/invitations/accept', '/api/auth/verify']) expect(js).toContain(`'${path}'`);
  });
});
