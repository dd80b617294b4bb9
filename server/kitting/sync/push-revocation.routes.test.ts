import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../core/errors';
import { startTestServer, type Client, type TestServer } from '../testing/harness.testkit';
import { checkPush } from './push-policy';

/** A pushed revocation obeys the revoke route: owners and admins only, and never undone or rewritten. */
let central: TestServer;
let owner: Client;
let ws: string;
let no: string;

beforeAll(async () => {
  central = await startTestServer({ mode: 'central' });
  owner = central.client();
  const made = await owner.post<{ cert: { no: string } }>('/api/cert', { cust: 'ABC物流株式会社', devices: [{ model: 'iPhone 15', id: '356938035643809', storage: '128GB' }] });
  no = made.body.cert.no;
  ws = owner.workspaceId() as string;
});
afterAll(() => central.close());

const push = (role: 'owner' | 'admin' | 'member', revoked: unknown) =>
  checkPush(central.ctx, { ws, role, scopes: { ops: 'edit' } }, { batch: 'b-1', changes: [{ seq: 1, coll: 'erasureCerts', id: no, hlc: '0000000000001-0000-bench', fields: { revoked } }] });

const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return (err as DomainError).error;
};

describe('a pushed revocation', () => {
  it('is refused from a bench enrolled by a member who may edit operations', async () => {
    expect(await refusal(push('member', { reason: '記載誤り', at: 1 }))).toBe('forbidden');
  });

  it('is accepted from an owner or admin', async () => {
    await expect(push('admin', { reason: '記載誤り', at: 1 })).resolves.toBeUndefined();
  });

  it('never lifts or rewrites a revocation central holds', async () => {
    const res = await owner.post(`/api/cert/${no}/revoke`, { reason: '顧客名の誤り' });
    expect(res.status).toBe(200);
    const held = (await central.store.get<{ revoked: unknown }>(ws, 'erasureCerts', no))?.revoked;
    expect(await refusal(push('owner', null))).toBe('already revoked');
    expect(await refusal(push('owner', { reason: '別の理由', at: 2 }))).toBe('already revoked');
    // the same revocation again (a retried batch) passes
    await expect(push('owner', held)).resolves.toBeUndefined();
  });

  it('carries a reason and a time, as the route writes it', async () => {
    expect(await refusal(push('owner', { reason: '', at: 1 }))).toBe('invalid_field');
  });
});
