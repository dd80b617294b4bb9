import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudio, type TestStudio } from '../testing.testkit';

let s: TestStudio;
let owner: { token: string };
beforeAll(async () => {
  s = await startStudio();
  owner = await s.register('owner@cross-site.test');
});
afterAll(() => s.close());

const keys = async () => (await s.call<{ keys: unknown[] }>('GET', '/api/settings/api-keys', { auth: owner.token })).body.keys;

describe('attack: cross-site writes against the studio', () => {
  it('a text/plain form post from https://evil.example carrying cookies mints no API key', async () => {
    const r = await fetch(`${s.url}/api/settings/api-keys`, {
      method: 'POST',
      headers: { cookie: 'session=anything', 'content-type': 'text/plain', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      body: '{"name":"stolen"}',
    });
    expect(r.status).toBe(403);
    expect(await r.json()).toMatchObject({ ok: false, error: 'cross-site request refused' });
    expect(await keys()).toEqual([]);
  });

  it('a non-JSON body is refused with 415 even with a valid token, and nothing is minted', async () => {
    const r = await fetch(`${s.url}/api/settings/api-keys`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'text/plain' }, body: '{"name":"x"}' });
    expect(r.status).toBe(415);
    expect(await keys()).toEqual([]);
  });

  it('token-authenticated JSON calls are unaffected by Origin', async () => {
    const r = await fetch(`${s.url}/api/settings/api-keys`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json', origin: 'https://evil.example' }, body: '{"name":"cli"}' });
    expect(r.status).toBe(200);
    expect(await keys()).toHaveLength(1);
  });
});
