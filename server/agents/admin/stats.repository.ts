import { countAll, utcMonthOf } from '../sql';
import type { AgentsDb } from '../schema';

/** Platform-wide figures for the operator overview (every workspace). */

type Counted = 'users' | 'workspaces' | 'agents' | 'sources' | 'passages' | 'conversations' | 'messages' | 'leads' | 'contacts';
type Dated = 'users' | 'conversations' | 'messages' | 'leads';

const n = (r: { n: number | string | null } | undefined) => Number(r?.n ?? 0);

export async function countRows(db: AgentsDb, table: Counted): Promise<number> {
  return n(await db.selectFrom(table).select(countAll().as('n')).executeTakeFirst());
}

/** Rows created at or after `since` (epoch ms). */
export async function countSince(db: AgentsDb, table: Dated, since: number): Promise<number> {
  return n(await db.selectFrom(table).select(countAll().as('n')).where('created_at', '>=', since).executeTakeFirst());
}

export async function countSuspendedUsers(db: AgentsDb): Promise<number> {
  return n(await db.selectFrom('users').select(countAll().as('n')).where('suspended', '=', 1).executeTakeFirst());
}

export async function countPausedWorkspaces(db: AgentsDb): Promise<number> {
  return n(await db.selectFrom('workspaces').select(countAll().as('n')).where('paused', '=', 1).executeTakeFirst());
}

export async function countOpenTickets(db: AgentsDb): Promise<number> {
  return n(await db.selectFrom('support_tickets').select(countAll().as('n')).where('status', 'in', ['open', 'pending']).executeTakeFirst());
}

export async function creditsOutstanding(db: AgentsDb): Promise<number> {
  return n(await db.selectFrom('workspaces').select((eb) => eb.fn.sum<number | null>('credits').as('n')).executeTakeFirst());
}

export async function workspacesByTier(db: AgentsDb) {
  const rows = await db.selectFrom('workspaces').select(['tier', countAll().as('n')]).groupBy('tier').execute();
  return rows.map((r) => ({ tier: r.tier, n: Number(r.n) }));
}

/** Paid payments, each at the time it was paid (its creation when the provider gave no time). */
function paid(db: AgentsDb) {
  return db
    .selectFrom((eb) =>
      eb
        .selectFrom('payments')
        .select(['amount_cents', 'provider', 'kind', (e) => e.fn.coalesce('paid_at', 'created_at').as('at')])
        .where('status', '=', 'paid')
        .as('p'),
    );
}

export async function paidTotals(db: AgentsDb, since: number) {
  const r = await paid(db)
    .select((eb) => [
      eb.fn.sum<number | null>('p.amount_cents').as('cents'),
      countAll().as('payments'),
      eb.fn.sum<number | null>(eb.case().when('p.at', '>=', since).then(eb.ref('p.amount_cents')).else(0).end()).as('recent'),
    ])
    .executeTakeFirst();
  return { cents: Number(r?.cents ?? 0), payments: Number(r?.payments ?? 0), recentCents: Number(r?.recent ?? 0) };
}

/** Paid cents and payments per UTC month, the last 12 months that had any, newest first. */
export async function paidByMonth(db: AgentsDb) {
  const month = utcMonthOf(db, 'p.at');
  const rows = await paid(db)
    .select((eb) => [month.as('month'), eb.fn.sum<number>('p.amount_cents').as('cents'), countAll().as('payments')])
    .groupBy(month)
    .orderBy('month', 'desc')
    .limit(12)
    .execute();
  return rows.map((r) => ({ month: r.month, cents: Number(r.cents), payments: Number(r.payments) }));
}

/** Paid cents and payments per provider or per kind, largest first. */
export async function paidBy(db: AgentsDb, column: 'provider' | 'kind') {
  const rows = await paid(db)
    .select((eb) => [eb.ref(`p.${column}`).as('key'), eb.fn.sum<number>('p.amount_cents').as('cents'), countAll().as('payments')])
    .groupBy(`p.${column}`)
    .orderBy('cents', 'desc')
    .execute();
  return rows.map((r) => ({ key: r.key, cents: Number(r.cents), payments: Number(r.payments) }));
}

export async function recentSignups(db: AgentsDb, limit: number) {
  return db.selectFrom('users').select(['id', 'email', 'created_at']).orderBy('created_at', 'desc').limit(limit).execute();
}

export async function recentTickets(db: AgentsDb, limit: number) {
  return db.selectFrom('support_tickets').select(['id', 'subject', 'status', 'user_id', 'created_at']).orderBy('created_at', 'desc').limit(limit).execute();
}

export async function recentConversations(db: AgentsDb, limit: number) {
  return db.selectFrom('conversations').select(['id', 'workspace_id', 'agent_id', 'channel', 'handoff', 'created_at']).orderBy('created_at', 'desc').limit(limit).execute();
}

/** Assistant replies since `since`, counted per engine (null: none recorded). */
export async function repliesByEngine(db: AgentsDb, since: number) {
  const rows = await db.selectFrom('messages').select(['engine', countAll().as('n')]).where('role', '=', 'assistant').where('created_at', '>=', since).groupBy('engine').execute();
  return rows.map((r) => ({ engine: r.engine, n: Number(r.n) }));
}

/** Agents whose model names a hosted model (Claude, GPT, o-series). */
export async function countAgentsNamingAModel(db: AgentsDb): Promise<number> {
  return n(
    await db
      .selectFrom('agents')
      .select(countAll().as('n'))
      .where((eb) => eb.or(['claude%', 'gpt%', 'o_%'].map((p) => eb(eb.fn<string>('lower', ['model']), 'like', p))))
      .executeTakeFirst(),
  );
}
