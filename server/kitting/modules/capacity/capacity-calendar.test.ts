import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstDate } from '../../../../shared/dates';
import { readDue } from '../../../../shared/job-due';
import { japaneseHolidays } from '../../../../shared/jp-holidays';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';
import { addDays, configOf, weekView } from './capacity.service';

describe('Japanese public holidays', () => {
  it('match the published 2026 list, with 振替休日 and 国民の休日', () => {
    expect([...japaneseHolidays(2026).entries()]).toEqual([
      ['2026-01-01', '元日'],
      ['2026-01-12', '成人の日'],
      ['2026-02-11', '建国記念の日'],
      ['2026-02-23', '天皇誕生日'],
      ['2026-03-20', '春分の日'],
      ['2026-04-29', '昭和の日'],
      ['2026-05-03', '憲法記念日'],
      ['2026-05-04', 'みどりの日'],
      ['2026-05-05', 'こどもの日'],
      ['2026-05-06', '振替休日'],
      ['2026-07-20', '海の日'],
      ['2026-08-11', '山の日'],
      ['2026-09-21', '敬老の日'],
      ['2026-09-22', '国民の休日'],
      ['2026-09-23', '秋分の日'],
      ['2026-10-12', 'スポーツの日'],
      ['2026-11-03', '文化の日'],
      ['2026-11-23', '勤労感謝の日'],
    ]);
  });

  it('match the published 2027 list', () => {
    expect([...japaneseHolidays(2027).keys()]).toEqual([
      '2027-01-01', '2027-01-11', '2027-02-11', '2027-02-23', '2027-03-21', '2027-03-22', '2027-04-29', '2027-05-03', '2027-05-04', '2027-05-05',
      '2027-07-19', '2027-08-11', '2027-09-20', '2027-09-23', '2027-10-11', '2027-11-03', '2027-11-23',
    ]);
    expect(japaneseHolidays(2027).get('2027-03-22')).toBe('振替休日');
  });
});

describe('a card 期限 read as a date', () => {
  const today = '2026-11-26';
  it('reads full dates and month/day text as the next such date', () => {
    expect(readDue('2026-12-10', today)).toEqual({ date: '2026-12-10', guessed: false });
    expect(readDue('2026/12/1', today)).toEqual({ date: '2026-12-01', guessed: false });
    expect(readDue('2027年1月8日', today)).toEqual({ date: '2027-01-08', guessed: false });
    expect(readDue('12/10', today)).toEqual({ date: '2026-12-10', guessed: false });
    expect(readDue('１２月１０日', today)).toEqual({ date: '2026-12-10', guessed: false });
    expect(readDue('1/15', today)).toEqual({ date: '2027-01-15', guessed: false });
    expect(readDue('11/26', today)).toEqual({ date: '2026-11-26', guessed: false });
  });
  it('reads a month/day just past as this year (late), marked for the user to confirm', () => {
    expect(readDue('11/24', today)).toEqual({ date: '2026-11-24', guessed: true });
    expect(readDue('5/1', today)).toEqual({ date: '2027-05-01', guessed: false });
  });
  it('flags what it cannot read instead of dropping the card', () => {
    expect(readDue('来週中', today)).toEqual({ date: null, reason: 'unreadable' });
    expect(readDue('2/30', today)).toEqual({ date: null, reason: 'unreadable' });
    expect(readDue('2026-13-01', today)).toEqual({ date: null, reason: 'unreadable' });
    expect(readDue('', today)).toEqual({ date: null, reason: 'empty' });
  });
});

describe('weekView with the company calendar', () => {
  const cal = { workdays: [1, 2, 3, 4, 5], holidays: true, closedDates: ['2026-11-26'] };
  const config = configOf({ kittingDaily: 100 });
  const job = (id: string, t: string, due: string, s = 2) => ({ id, t, c: 'A社', s, due });
  const jobs = [
    job('j1', 'iPhone ×40台', '11/28'), // Saturday: worked on Friday 11/27
    job('j2', 'iPad ×20台', '2026-11-23'), // 勤労感謝の日, already past: late, counted on the first working day
    job('j3', 'Pixel ×10台', '12/01'),
    job('j4', 'Galaxy ×7台', '未定'),
    job('j5', '出荷済み ×99台', '11/27', 6),
  ];
  const v = weekView(config, [{ id: 'CAP-0001', date: '2026-11-23', qty: 30, cust: 'B社', kind: 'キッティング' }], '2026-11-23', { jobs }, cal, '2026-11-25');

  it('closed days (weekend, public holiday, company closed date) have no capacity and say why', () => {
    expect(v.week.map((d) => [d.date, d.capacity, d.closedReason])).toEqual([
      ['2026-11-23', 0, '祝日（勤労感謝の日）'],
      ['2026-11-24', 100, null],
      ['2026-11-25', 100, null],
      ['2026-11-26', 0, '休業日'],
      ['2026-11-27', 100, null],
      ['2026-11-28', 0, '土曜休業'],
      ['2026-11-29', 0, '日曜休業'],
    ]);
    expect(v.summary).toMatchObject({ weekCapacity: 300, openDays: 3, closedDays: 4 });
    // A plan on a closed day is still counted, and shows as over.
    expect(v.week[0]).toMatchObject({ planned: 30, load: 30, over: true, entries: [{ id: 'CAP-0001', qty: 30 }] });
  });

  it('each day lists the cards behind its load; text deadlines count; nothing is dropped', () => {
    expect(v.week[2]).toMatchObject({ date: '2026-11-25', jobUnits: 20, cards: [{ id: 'j2', overdue: true, units: 20 }] });
    expect(v.week[4]).toMatchObject({ date: '2026-11-27', jobUnits: 40, cards: [{ id: 'j1', due: '11/28', date: '2026-11-28', overdue: false }] });
    expect(v.week.flatMap((d) => d.cards.map((c) => c.id)).sort()).toEqual(['j1', 'j2']);
    expect(v.summary).toMatchObject({ openJobs: 4, openUnits: 77, overdueJobs: 1, undatedJobs: 1, flaggedJobs: 1, weekJobUnits: 60 });
    expect(v.flagged).toEqual([{ id: 'j4', t: 'Galaxy ×7台', c: 'A社', units: 7, due: '未定', date: null, reason: '期限を日付として読めない' }]);
  });
});

describe('GET /api/capacity?from=', () => {
  let server: TestServer;
  let api: Client;
  beforeAll(async () => {
    server = await startTestServer();
    api = server.client();
    for (const j of (await api.get<{ jobs: { id: string }[] }>('/api/jobs')).body.jobs) await api.post(`/api/job/${j.id}/delete`);
  });
  afterAll(() => server.close());

  interface Day { date: string; capacity: number; closed: boolean; closedReason: string | null; jobUnits: number; cards: { id: string; date: string }[] }
  interface View { week: Day[]; summary: Record<string, unknown>; calendar: { workdays: number[] }; flagged: { id: string }[] }

  it('shows any chosen week counted with the company calendar and Japanese public holidays', async () => {
    const v = (await api.get<View>('/api/capacity?from=2027-09-20')).body;
    expect(v.calendar.workdays).toEqual([1, 2, 3, 4, 5]);
    expect(v.week.map((d) => d.date)).toEqual(['2027-09-20', '2027-09-21', '2027-09-22', '2027-09-23', '2027-09-24', '2027-09-25', '2027-09-26']);
    expect(v.week.filter((d) => d.closed).map((d) => d.closedReason)).toEqual(['祝日（敬老の日）', '祝日（秋分の日）', '土曜休業', '日曜休業']);
    expect(v.week.filter((d) => d.closed).every((d) => d.capacity === 0)).toBe(true);
    expect(v.summary).toMatchObject({ from: '2027-09-20', to: '2027-09-26', weekCapacity: 1200, openDays: 3 });
    for (const from of ['2027-02-30', 'tomorrow', '1999-12-31']) expect((await api.get(`/api/capacity?from=${from}`)).status).toBe(400);
  });

  it('counts a card whose 期限 is typed as month/day, lists it under its day, and flags what cannot be read', async () => {
    const target = addDays(jstDate(), 10);
    const text = `${Number(target.slice(5, 7))}/${Number(target.slice(8, 10))}`;
    const a = (await api.post<{ job: { id: string } }>('/api/job', { c: 'A社', t: 'iPhone 16 ×30台', s: 2, due: text })).body.job;
    const b = (await api.post<{ job: { id: string } }>('/api/job', { c: 'B社', t: 'iPad ×5台', s: 1, due: '来週中' })).body.job;
    await api.put('/api/settings/company', { workdays: [0, 1, 2, 3, 4, 5, 6], holidays: false, closedDates: [target] });
    const v = (await api.get<View>(`/api/capacity?from=${addDays(target, -3)}`)).body;
    // The company closed the due date: the units load the working day before it.
    const day = v.week.find((d) => d.cards.some((c) => c.id === a.id));
    expect(day).toMatchObject({ date: addDays(target, -1), jobUnits: 30 });
    expect(day?.cards.find((c) => c.id === a.id)?.date).toBe(target);
    expect(v.week.find((d) => d.date === target)).toMatchObject({ closed: true, closedReason: '休業日', capacity: 0 });
    expect(v.flagged.map((f) => f.id)).toEqual([b.id]);
    expect(v.summary).toMatchObject({ openJobs: 2, undatedJobs: 1 });
  });
});
