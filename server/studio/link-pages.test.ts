import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudio, type TestStudio } from './testing.testkit';

/** `/invite/<token>`: the page the invitation mail opens, and the API calls its script makes. */
let s: TestStudio;
beforeAll(async () => {
  s = await startStudio();
});
afterAll(() => s.close());

const mailedPath = (email: string) => {
  const links = s.mails.filter((m) => m.to === email).map((m) => /https?:\/\/[^\s]+\/invite\/[A-Za-z0-9_%-]+/.exec(m.text)?.[0]).filter((x): x is string => !!x);
  return new URL(links[links.length - 1]!).pathname;
};
const page = async (path: string) => {
  const res = await fetch(s.url + path);
  return { status: res.status, headers: res.headers, html: await res.text() };
};
/** The free plan has one account; members need a plan with seats. */
const upgrade = (token: string) => s.call('POST', '/api/billing/plan', { auth: token, body: { plan: 'pro' } });
const dataToken = (html: string) => /data-token="([^"]*)"/.exec(html)?.[1] ?? '';

describe('GET /invite/<token> (studio)', () => {
  it('opens a page to register with the invitation; what its form sends joins the workspace', async () => {
    const owner = await s.register('lp-owner@example.com');
    expect((await upgrade(owner.token)).status).toBe(200);
    expect((await s.call('POST', '/api/workspace/members', { auth: owner.token, body: { email: 'lp-new@example.com', role: 'editor' } })).status).toBe(200);
    const p = await page(mailedPath('lp-new@example.com'));
    expect(p.status).toBe(200);
    expect(p.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(p.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(p.headers.get('referrer-policy')).toBe('no-referrer');
    expect(p.html.match(/<script[^>]*>/g)).toEqual(['<script src="/link-page.js" defer>']);
    expect(p.html).toContain('招待を承認する');
    expect(p.html).toContain('Accept invitation');
    expect(p.html).toContain('data-service="studio"');
    expect(dataToken(p.html)).toBe(s.inviteToken('lp-new@example.com'));

    const reg = await s.call<{ token: string; workspace_id: number }>('POST', '/api/auth/register', { body: { email: 'lp-new@example.com', password: 'correct horse', invite: dataToken(p.html) }, headers: { origin: s.url } });
    expect(reg.status).toBe(200);
    expect(reg.body.workspace_id).toBe(owner.ws);
  });

  it('an existing account signs in and accepts, as the page does', async () => {
    const owner = await s.register('lp-owner2@example.com');
    expect((await upgrade(owner.token)).status).toBe(200);
    await s.register('lp-existing@example.com');
    expect((await s.call('POST', '/api/workspace/members', { auth: owner.token, body: { email: 'lp-existing@example.com', role: 'viewer' } })).status).toBe(200);
    const token = dataToken((await page(mailedPath('lp-existing@example.com'))).html);
    const login = await s.call<{ token: string }>('POST', '/api/auth/login', { body: { email: 'lp-existing@example.com', password: 'correct horse' } });
    expect(login.status).toBe(200);
    const accepted = await s.call<{ token: string; workspace_id: number }>('POST', '/api/workspace/invitations/accept', { auth: login.body.token, body: { token } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.workspace_id).toBe(owner.ws);
  });

  it('a malformed token answers 404; the script is served from the same origin', async () => {
    const bad = await page('/invite/nope');
    expect(bad.status).toBe(404);
    expect(bad.html).toContain('無効なリンク');
    const js = await fetch(`${s.url}/link-page.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(await js.text()).toContain("'/api/workspace/invitations/accept'");
  });
});
