/**
 * Pushed values the roster, replacement proposal and onboarding routes would refuse, clip or replace: each is
 * refused with 422 invalid_field and nothing of the batch is stored, while records with values the routes
 * would store go through.
 */
import { describe, expect, it } from 'vitest';
import { pushHarness } from './helpers.testkit';

const h = pushHarness('push-staffing@example.jp', 'bench-staffing');
const { refused, accepted } = h;


const week = (v: string) => Array(7).fill(v);

describe('pushes into the roster, proposal and onboarding collections pass the routes’ rules', () => {
  it('shifts: unknown shift values, rows not 7 days long, clock rows the time clock would rewrite, records the routes never write', async () => {
    await refused('shifts', 'roster', { id: 'roster', grid: { 'st-1': [...week('day').slice(0, 6), 'holiday'] } }, 'grid');
    await refused('shifts', 'roster', { grid: { 'st-1': week('day').slice(0, 6) } }, 'grid');
    await refused('shifts', 'roster', { grid: { ['s'.repeat(41)]: week('day') } }, 'grid');
    await refused('shifts', 'roster', { clock: { 'st-1': { in: '9時', out: null, status: 'in', units: 0 } } }, 'clock');
    await refused('shifts', 'roster', { clock: { 'st-1': { in: null, out: null, status: 's'.repeat(21), units: 0 } } }, 'clock');
    await refused('shifts', 'roster', { clock: { 'st-1': { in: null, out: null, status: 'off', units: 1.5 } } }, 'clock');
    await refused('shifts', 'roster', { clock: { 'st-1': { in: null, out: null, status: 'off', units: 0, html: '<b>' } } }, 'clock');
    await refused('shifts', 'draft', { status: 'confirmed' }, 'status');
    await refused('shifts', 'draft', { diff: [{ staffId: 'st-1', day: 7, from: null, to: 'day' }] }, 'diff');
    await refused('shifts', 'draft', { owner: 'attacker' }, 'owner');
    await refused('shifts', 'other', { id: 'other', grid: {} }, 'id');
    await accepted('shifts', 'roster', { id: 'roster', grid: { 'st-1': week('day') }, clock: { 'st-1': { in: '09:00', out: null, status: 'in', units: 2 } } });
    await accepted('shifts', 'draft', { id: 'draft', grid: { 'st-1': week('late') }, diff: [{ staffId: 'st-1', day: 0, from: 'day', to: 'late' }], ts: 1, status: 'unconfirmed' });
  });

  it('shiftHistory: a reason the routes never write, a grid they would not store, a time that is not a stamp', async () => {
    await refused('shiftHistory', 'snap-90000', { id: 'snap-90000', reason: '<script>' }, 'reason');
    await refused('shiftHistory', 'snap-90001', { grid: { 'st-1': week('holiday') } }, 'grid');
    await refused('shiftHistory', 'snap-90002', { ts: 'now' }, 'ts');
    await refused('shiftHistory', 'snap-90003', { seq: 0 }, 'seq');
    await accepted('shiftHistory', 'snap-90004', { id: 'snap-90004', seq: 90004, ts: 1, reason: '適用前のシフト', grid: { 'st-1': week('off') } });
  });

  it('replace: customer names the route would trim or clip, times that are not ISO times, another record', async () => {
    await refused('replace', 'proposals', { id: 'proposals', map: { ' A社': '2026-11-20T00:00:00.000Z' } }, 'map');
    await refused('replace', 'proposals', { map: { ['c'.repeat(121)]: '2026-11-20T00:00:00.000Z' } }, 'map');
    await refused('replace', 'proposals', { map: { '': '2026-11-20T00:00:00.000Z' } }, 'map');
    await refused('replace', 'proposals', { map: { A社: 'yesterday' } }, 'map');
    await refused('replace', 'proposals', { map: { A社: '2026-13-40T00:00:00.000Z' } }, 'map');
    await refused('replace', 'other', { id: 'other', map: {} }, 'id');
    await accepted('replace', 'proposals', { id: 'proposals', map: { A社: '2026-11-20T00:00:00.000Z' } });
  });

  it('onboarding: a board the projects route would clip or default, device requests the request routes would refuse or rewrite', async () => {
    await refused('onboarding', 'projects', { id: 'projects', tab: 'admin' }, 'tab');
    await refused('onboarding', 'projects', { sel: 's'.repeat(121) }, 'sel');
    await refused('onboarding', 'projects', { projects: { A社: { mdm: 'Intune', steps: { kickoff: 'd'.repeat(21) }, start: '' } } }, 'projects');
    await refused('onboarding', 'projects', { projects: { A社: { mdm: 'Intune', steps: { unknown: 'x' }, start: '' } } }, 'projects');
    await refused('onboarding', 'projects', { projects: { A社: { mdm: 'Intune', steps: {} } } }, 'projects');
    await refused('onboarding', 'projects', { projects: Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`p${i}`, { mdm: '', steps: {}, start: '' }])) }, 'projects');
    await refused('onboarding', 'state', { id: 'state', sel: '' }, 'id');
    await refused('deviceRequests', 'REQ-9000', { id: 'REQ-9000', name: ' 田中 ' }, 'name');
    await refused('deviceRequests', 'REQ-9001', { dept: '' }, 'dept');
    await refused('deviceRequests', 'REQ-9002', { model: 'm'.repeat(61) }, 'model');
    await refused('deviceRequests', 'REQ-9003', { status: 'done' }, 'status');
    await refused('deviceRequests', 'REQ-9004', { lead: -1 }, 'lead');
    await refused('deviceRequests', 'REQ-9005', { ts: '1700000000000' }, 'ts');
    await refused('deviceRequests', 'REQ-9006', { owner: 'attacker' }, 'owner');
    await accepted('onboarding', 'projects', { id: 'projects', sel: 'A社', tab: 'emp', projects: { A社: { mdm: 'Intune', steps: { kickoff: '2026-11-20' }, start: '2026-11-01' } } });
    await accepted('deviceRequests', 'REQ-9007', { id: 'REQ-9007', name: '田中', dept: '総務', model: 'iPhone 16', mdm: 'Jamf Pro', use: '', ticket: '', status: 'approved', lead: 1.5, ts: 1, updated: 2 });
  });
});
