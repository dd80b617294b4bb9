import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudio, type TestStudio } from './testing.testkit';

/** Requests that arrive at the same instant (on PostgreSQL they run side by side on the pool). */
let s: TestStudio;
beforeAll(async () => {
  s = await startStudio();
});
afterAll(() => s.close());

describe('simultaneous writes', () => {
  it('one address registered eight times at once: one account, seven 409 "email already registered"', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => s.call('POST', '/api/auth/register', { body: { email: 'twice@race.test', password: 'correct horse' } })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409).map((r) => r.body.error)).toEqual(Array(7).fill('email already registered'));
    expect(await s.get('SELECT COUNT(*) AS n FROM users WHERE email = ?', 'twice@race.test')).toEqual({ n: 1 });
  });

  it('grants at once all count: the balance is their sum', async () => {
    const o = await s.register('grants@race.test');
    await Promise.all(Array.from({ length: 10 }, () => s.grant(o.ws, 7)));
    const billing = await s.call<{ credits: { balance: number } }>('GET', '/api/billing', { auth: o.token });
    expect(billing.body.credits.balance).toBe(70);
  });
});
