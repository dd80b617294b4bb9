/**
 * Attack (issue 26): a bench poisons the clocks. A stamp with a 999999 counter, observed by central and
 * handed on, used to make every other bench stamp 7-digit counters that the protocol refuses: every later
 * push of theirs failed with 400 for ever. Now central refuses such stamps, and clocks keep their width.
 */
import { describe, expect, it } from 'vitest';
import { HLC_COUNTER_LIMIT, HLC_PATTERN, HlcClock, parseHlc } from '../../../../shared/hlc';
import { pushHarness, type Body } from './helpers.testkit';

const h = pushHarness('clocks-attack@example.jp', 'clock-bench');
const stamp = (ms: number, counter: number, node = 'clock-bench') => `${String(ms).padStart(15, '0')}:${String(counter).padStart(6, '0')}:${node}`;
let seq = 100_000;
const pushRaw = async (token: string, changes: { coll: string; id: string; hlc: string; fields: Record<string, unknown> }[]) =>
  h.server.client().post<Body>('/api/sync/v1/push', { batch: `raw-${seq}`, changes: changes.map((c) => ({ seq: seq++, ...c })) }, { 'x-kitting-bench-token': token });

async function enrolOther(name: string) {
  const code = (await h.owner.c.post<{ code: string }>('/api/sync/enrol-code', {}, h.owner.auth)).body.code;
  const r = await h.server.client().post<{ token: string }>('/api/sync/v1/enrol', { code, bench: name, name });
  expect(r.status).toBe(200);
  return r.body.token;
}

describe('clocks a bench cannot poison', () => {
  it('a stamp whose counter is at its limit is refused and nothing is stored', async () => {
    const token = await enrolOther('poison-1');
    const before = await h.server.store.replica.lastSeq(h.owner.ws);
    const res = await pushRaw(token, [{ coll: 'customers', id: 'cust-poison', hlc: stamp(Date.now(), 999999, 'poison-1'), fields: { id: 'cust-poison', name: '毒' } }]);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('hlc_counter_exhausted');
    expect(await h.server.store.replica.lastSeq(h.owner.ws)).toBe(before);
    expect(await h.server.store.get(h.owner.ws, 'customers', 'cust-poison')).toBeNull();
  });

  it('a stamp beyond the skew window is refused', async () => {
    const token = await enrolOther('poison-2');
    const res = await pushRaw(token, [{ coll: 'customers', id: 'cust-future', hlc: stamp(Date.now() + 3_600_000, 0, 'poison-2'), fields: { id: 'cust-future', name: '未来' } }]);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('hlc_in_future');
    expect(await h.server.store.get(h.owner.ws, 'customers', 'cust-future')).toBeNull();
  });

  it('a counter one below the limit is taken, and every bench keeps syncing: central never hands on a wider counter', async () => {
    const mallory = await enrolOther('poison-3');
    const victim = await enrolOther('victim');
    const ms = Date.now() + 60_000;
    const res = await pushRaw(mallory, [{ coll: 'customers', id: 'cust-edge', hlc: stamp(ms, HLC_COUNTER_LIMIT - 1, 'poison-3'), fields: { id: 'cust-edge', name: '限界' } }]);
    expect(res.status).toBe(200);
    // central writes after observing it: its stamps keep six digits and sort after the poisoned one
    const made = await h.owner.c.post('/api/customer', { name: '中央の顧客' }, h.owner.auth);
    expect(made.status).toBe(200);
    const pulled = await h.server.client().get<{ changes: { hlc: string }[] }>('/api/sync/v1/changes?after=0&limit=5000', { 'x-kitting-bench-token': victim });
    expect(pulled.status).toBe(200);
    for (const c of pulled.body.changes) {
      expect(c.hlc).toMatch(HLC_PATTERN);
      expect(parseHlc(c.hlc).counter).toBeLessThan(HLC_COUNTER_LIMIT);
    }
    // the victim's clock observes everything it pulled; its next stamp still passes central
    const clock = new HlcClock('victim', () => Date.now());
    for (const c of pulled.body.changes) clock.observe(c.hlc);
    const next = clock.tick();
    expect(next).toMatch(HLC_PATTERN);
    const mine = await pushRaw(victim, [{ coll: 'customers', id: 'cust-victim', hlc: next, fields: { id: 'cust-victim', name: '被害者の顧客' } }]);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect((await h.server.store.get(h.owner.ws, 'customers', 'cust-victim'))?.name).toBe('被害者の顧客');
  });

  it('a clock that observes a counter at the limit moves its time forward instead of widening the counter', () => {
    const clock = new HlcClock('n1', () => 1000);
    clock.observe(stamp(5000, 999999, 'x'));
    clock.observe(stamp(5000, 999998, 'x'));
    const a = clock.tick();
    expect(a).toMatch(HLC_PATTERN);
    expect(a > stamp(5000, 999999, 'x')).toBe(true);
    expect(parseHlc(a).ms).toBe(5001);
    const legacy = `${String(6000).padStart(15, '0')}:1000000:x`;
    clock.observe(legacy);
    const b = clock.tick();
    expect(b).toMatch(HLC_PATTERN);
    expect(parseHlc(b).ms).toBeGreaterThan(6000);
  });
});
