/**
 * Attack (issue 26): a bench pushes a new numbered record outside the ranges central leased to it, so
 * that central later issues the same number and overwrites it. Refused with 422, nothing stored.
 */
import { describe, expect, it } from 'vitest';
import { benchPusher, pushHarness } from './helpers.testkit';

const h = pushHarness('leases-attack@example.jp', 'lease-bench');

describe('pushes are checked against the bench leases', () => {
  it('a ticket numbered just past the bench lease is refused, and central then issues that number itself', async () => {
    const level = (await h.server.store.replica.localSeries(h.owner.ws)).ticket ?? 0;
    const next = `TK-0${level + 1}`;
    const before = await h.server.store.replica.lastSeq(h.owner.ws);
    const res = await h.pushAsIs([{ coll: 'tickets', id: next, fields: { id: next, subject: '盗んだ番号' } }]);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('number_not_leased');
    expect(await h.server.store.replica.lastSeq(h.owner.ws)).toBe(before);
    expect(await h.server.store.get(h.owner.ws, 'tickets', next)).toBeNull();
    const made = await h.owner.c.post<{ ticket: { id: string; subject: string } }>('/api/ticket', { subject: '中央の問い合わせ' }, h.owner.auth);
    expect(made.body.ticket.id).toBe(next);
    expect((await h.server.store.get(h.owner.ws, 'tickets', next))?.subject).toBe('中央の問い合わせ');
  });

  it("a number leased to another bench of the workspace is refused too; the bench's own number is accepted", async () => {
    const code = (await h.owner.c.post<{ code: string }>('/api/sync/enrol-code', {}, h.owner.auth)).body.code;
    const other = await h.server.client().post<{ token: string; blocks: { series: string; lo: number; hi: number; overflow?: boolean }[] }>('/api/sync/v1/enrol', { code, bench: 'other-bench', name: 'other' });
    expect(other.status).toBe(200);
    const theirs = other.body.blocks.find((b) => b.series === 'ticket' && !b.overflow);
    expect(theirs).toBeDefined();
    const stolen = `TK-0${theirs?.lo}`;
    const res = await h.pushAsIs([{ coll: 'tickets', id: stolen, fields: { id: stolen, subject: '他の作業台の番号' } }]);
    expect(res.status).toBe(422);
    expect(await h.server.store.get(h.owner.ws, 'tickets', stolen)).toBeNull();
    const pushOther = benchPusher(h.server, other.body.token, 'other-bench');
    const own = await pushOther([{ coll: 'tickets', id: stolen, fields: { id: stolen, subject: '自分の番号' } }]);
    expect(own.status).toBe(200);
    expect((await h.server.store.get(h.owner.ws, 'tickets', stolen))?.subject).toBe('自分の番号');
  });

  it('an edit of a numbered record central already holds is not a creation and passes', async () => {
    const made = await h.owner.c.post<{ ticket: { id: string } }>('/api/ticket', { subject: '編集される問い合わせ' }, h.owner.auth);
    const id = made.body.ticket.id;
    const res = await h.pushAsIs([{ coll: 'tickets', id, fields: { subject: '作業台で編集' } }]);
    expect(res.status).toBe(200);
    expect((await h.server.store.get(h.owner.ws, 'tickets', id))?.subject).toBe('作業台で編集');
  });
});
