/**
 * A bench pushes what its own routes stored, for the roster, replacement proposal and onboarding collections
 * too: every record the shift, staff, time clock, replace and onboarding routes write (with values the routes
 * clip, default or normalise) passes the push check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldProblem } from '../../core/http/collection-schema';
import { collectionSchemas } from '../modules';
import { startTestServer, type TestResponse, type TestServer } from '../testing/harness';

let bench: TestServer;
beforeAll(async () => {
  bench = await startTestServer({ mode: 'bench' });
});
afterAll(() => bench.close());

const COLLS = ['shifts', 'shiftHistory', 'replace', 'onboarding', 'deviceRequests'];

describe('records written by the roster, replace and onboarding routes pass the push schema', () => {
  it('covers records the routes create, update, clip and default', async () => {
    const api = bench.client();
    const ok = async <T,>(p: Promise<TestResponse<T>>): Promise<T> => {
      const r = await p;
      expect(r.status, r.text).toBe(200);
      return r.body;
    };
    // staff, roster, clock, draft, history
    const a = (await ok(api.post<{ staff: { id: string } }>('/api/staff', { name: ' 高橋 ' }))).staff.id;
    const b = (await ok(api.post<{ staff: { id: string } }>('/api/staff', { name: '鈴木' }))).staff.id;
    await ok(api.post('/api/shifts', { grid: { [a]: ['day', 'late', 'x', 'night', 'disp', 'off', 'day'], [b]: Array(7).fill('day'), ghost: Array(7).fill('day') } }));
    await ok(api.post('/api/shifts', { grid: { [a]: Array(7).fill('late') }, clock: { [a]: { in: '09:00', out: 'later', units: '3.7' }, [b]: { status: 's'.repeat(40), units: -2 } } }));
    await ok(api.post(`/api/timeclock/${b}/punch`, {}));
    await ok(api.post('/api/shifts/draft', { grid: { [b]: Array(7).fill('night') } }));
    const { applied } = await ok(api.post<{ applied: { restoreId: string } }>('/api/shifts/draft/apply', {}));
    await ok(api.post('/api/shifts/draft', { grid: { [a]: Array(7).fill('off'), [b]: Array(7).fill('disp') } }));
    await ok(api.post(`/api/shifts/restore/${applied.restoreId}`, {}));
    await ok(api.post('/api/shifts/draft', { grid: { [a]: Array(7).fill('off'), [b]: Array(7).fill('disp') } }));
    await ok(api.post(`/api/staff/${a}/delete`, {}));
    // replace
    await ok(api.post('/api/replace/proposal', { cust: ' A社 ' }));
    await ok(api.post('/api/replace/proposal', { cust: 'c'.repeat(200) }));
    // onboarding
    await ok(api.request('PUT', '/api/onboarding/projects', { sel: 's'.repeat(200), tab: 'other', projects: { ['p'.repeat(150)]: { mdm: 7, steps: { kickoff: '2026-11-20', abm: 3, x: 'y' }, start: 's'.repeat(30) }, B社: null } }));
    const { request } = await ok(api.post<{ request: { id: string } }>('/api/onboarding/request', { name: ' 田中 ', dept: ' 総務 ', model: '', use: 'u'.repeat(400), ticket: 12 }));
    await ok(api.post('/api/onboarding/request', { id: 'REQ-own', name: '佐藤', dept: '営業', mdm: 'Intune', ts: '1700000000000' }));
    await ok(api.post(`/api/onboarding/request/${request.id}`, { status: 'approved', lead: '1.5' }));
    await ok(api.post('/api/onboarding/request/REQ-own', { status: 'approved' }));
    await ok(api.post('/api/onboarding/request/REQ-own', { status: 'rejected' }));

    const ws = bench.ctx.benchWorkspace ?? '';
    const problems: string[] = [];
    const seen: Record<string, number> = {};
    for (const coll of COLLS) {
      const schema = collectionSchemas.find((s) => s.coll === coll);
      expect(schema, coll).toBeDefined();
      if (!schema) continue;
      for (const d of await bench.store.list(ws, coll)) {
        seen[coll] = (seen[coll] ?? 0) + 1;
        const p = fieldProblem(schema, String(d[schema.idField]), d);
        if (p) problems.push(`${coll} ${String(d[schema.idField])}: ${p.field} ${p.message}`);
      }
    }
    expect(problems).toEqual([]);
    expect(COLLS.filter((c) => !seen[c])).toEqual([]);
  });
});
