import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Inbound, InboundLine } from '../../../../shared/api/contracts/inbound';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';
import type { Doc } from '../../store/types';
import { b64, csvFile, noticeRows } from './inbound.testkit';
import { INBOUND_LINES } from './inbound.service';
import { backfillInboundAt } from './inbound-upgrade';

/**
 * Upgrade: lines an earlier release stored carry no `at` (they were found by `list`, and a scanned line
 * held `hit: <list id>`). After the start-up backfill the list shows them and counts them again.
 */
let server: TestServer;
let c: Client;
beforeAll(async () => {
  server = await startTestServer();
  c = server.client();
});
afterAll(() => server.close());

type Detail = { inbound: Inbound; lines: InboundLine[] };

describe('inbound lines of an earlier release', () => {
  it('are found and counted again after the start-up backfill, scanned ones as scanned', async () => {
    const made = await c.post<{ inbound: Inbound }>('/api/inbound', { name: '旧版の入荷予定', cust: 'ABC物流株式会社', filename: 'n.csv', file: b64(csvFile(noticeRows(3, 700))) });
    expect(made.status, made.text).toBe(200);
    const id = made.body.inbound.id;
    const before = (await c.get<Detail>(`/api/inbound/${id}`)).body;
    const scanned = await c.post(`/api/inbound/${id}/scan`, { imei: before.lines[0].imei });
    expect(scanned.status, scanned.text).toBe(200);
    // Rewrite the lines as the earlier release stored them: no `at`, `hit` on the scanned one.
    let rewritten = 0;
    for (const w of await server.store.replica.logWorkspaces()) {
      rewritten += await server.store.transact(w, async (tx) => {
        let n = 0;
        for (const l of await tx.list<Doc>(INBOUND_LINES)) {
          if (l.list !== id) continue;
          const { at, ...old } = l;
          await tx.remove(INBOUND_LINES, String(l.id));
          await tx.put(INBOUND_LINES, String(l.id), { ...old, ...(String(at).endsWith(':scanned') ? { hit: id } : {}) });
          n++;
        }
        return n;
      });
    }
    expect(rewritten).toBe(3);
    const lost = (await c.get<Detail>(`/api/inbound/${id}`)).body;
    expect(lost.lines).toEqual([]);
    await server.store.setMeta('inbound_lines_at_backfilled', '');
    expect(await backfillInboundAt(server.store)).toBe(3);
    const after = (await c.get<Detail>(`/api/inbound/${id}`)).body;
    expect(after.lines.map((l) => l.state)).toEqual(['received', 'expected', 'expected']);
    expect(after.inbound.counts).toEqual({ expected: 3, received: 1, unexpected: 0, missing: 2 });
    expect(await backfillInboundAt(server.store)).toBe(0);
  });
});
