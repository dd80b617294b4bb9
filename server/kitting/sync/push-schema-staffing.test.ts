/**
 * A bench pushes what its own routes stored, for the roster, replacement proposal and onboarding collections
 * too: every record the shift, staff, time clock, replace and onboarding routes write (with values the routes
 * clip, default or normalise) passes the push check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.testkit';
import { ok, storedRecordProblems } from '../testing/route-records.testkit';

let bench: TestServer;
beforeAll(async () => {
  bench = await startTestServer({ mode: 'bench' });
});
afterAll(() => bench.close());

const COLLS = ['shifts', 'shiftHistory', 'replace', 'onboarding', 'deviceRequests'];

describe('records written by the roster, replace and onboarding routes pass the push schema', () => {
  it('covers records the routes create, update, clip and default', async () => {
    const api = bench.client();
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

    expect(await storedRecordProblems(bench, COLLS)).toEqual({ problems: [], empty: [] });
  });
});
