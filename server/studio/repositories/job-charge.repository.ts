import { sql } from 'kysely';
import type { StudioDb } from '../db';
import type { NewJob } from '../schema';

/**
 * PostgreSQL only (data-modifying WITH; SQLite runs the same writes one by one in one transaction): a new
 * job row, its charge (the balance moved and the ledger entry explaining it) and its metering in the
 * workspace's allowance month, as ONE statement, so atomic without BEGIN/COMMIT round trips.
 *
 * The metering `u` comes first and is the authority on the allowance: with a `limit` (null: unlimited) it is a
 * conditional upsert (usage + 1 <= limit, checked on the locked usage row) and every other write selects from
 * its RETURNING, so when the allowance is used up nothing at all is written and 'limit' is answered (concurrent
 * generations in any number of processes cannot both take the last unit).
 *
 * `charge` null: nothing to charge (a pass covers the job); the job and its metering only, balance undefined.
 * `overdraw` false: the charge is one conditional UPDATE (balance >= cost) that the job and ledger entry read,
 * answered balance null when the balance does not cover it; the unit metered then must be undone, so the
 * caller runs this case inside a transaction and rolls it back. Else the new balance.
 */
export async function insertChargedJobPg(
  db: StudioDb, job: NewJob & { id: string; workspace_id: number; created_at: string }, charge: { cost: number; overdraw: boolean } | null,
  kind: 'ai_units', limit: number | null,
): Promise<'limit' | { balance: number | null | undefined }> {
  const ws = job.workspace_id;
  // With a charge the balance row is locked first (`b`, read by `u` before it touches the usage row): the same
  // order as an analysis (debit, then meter), so the two never wait on each other's rows (no deadlock).
  const start = (charge ? db.with('b', (q) => q.selectFrom('credit_balances').select('balance').where('workspace_id', '=', ws).forUpdate()) : db) as StudioDb;
  const metered = start.with('u', (q) =>
    q.insertInto('usage').columns(['workspace_id', 'month', kind])
      .expression((eb) => {
        const source = eb.selectFrom('workspaces').select([eb.cast<number>(eb.val(ws), 'integer').as('workspace_id'), 'month', eb.cast<number>(eb.val(1), 'integer').as(kind)]).where('id', '=', ws);
        return charge ? source.where(sql<boolean>`(SELECT count(*) FROM b) >= 0`) : source;
      })
      .onConflict((oc) => {
        const up = oc.columns(['workspace_id', 'month']).doUpdateSet((eb) => ({ [kind]: eb(`usage.${kind}`, '+', eb.ref(`excluded.${kind}`)) }));
        return limit === null ? up : up.where((eb) => eb(eb(`usage.${kind}`, '+', eb.ref(`excluded.${kind}`)), '<=', limit));
      })
      .returning(kind));
  if (limit !== null && limit < 1) return 'limit';
  if (!charge) {
    const r = await metered
      .with('j', (q) => q.insertInto('jobs').expression((eb) => eb.selectFrom('u').select([
        eb.val(job.id).as('id'), eb.cast<number>(eb.val(ws), 'integer').as('workspace_id'), eb.val(job.model).as('model'), eb.val(job.surface).as('surface'),
        eb.val(job.prompt).as('prompt'), eb.val(job.status).as('status'), eb.val(job.settings).as('settings'), eb.val(job.media).as('media'),
        eb.cast<number>(eb.val(job.charged ?? 0), 'integer').as('charged'), eb.cast<string | null>(eb.val(job.pass_id ?? null), 'text').as('pass_id'), eb.val(job.actor).as('actor'),
        eb.val(job.created_at).as('created_at'), eb.val(job.updated_at).as('updated_at'),
      ])).columns(['id', 'workspace_id', 'model', 'surface', 'prompt', 'status', 'settings', 'media', 'charged', 'pass_id', 'actor', 'created_at', 'updated_at']))
      .selectFrom('u').select(kind)
      .executeTakeFirst();
    return r ? { balance: undefined } : 'limit';
  }
  const cost = charge.cost;
  const moved = charge.overdraw
    ? metered.with('d', (q) =>
        q.insertInto('credit_balances').columns(['workspace_id', 'balance'])
          .expression((eb) => eb.selectFrom('u').select([eb.cast<number>(eb.val(ws), 'integer').as('workspace_id'), eb.cast<number>(eb.val(-cost), 'integer').as('balance')]))
          .onConflict((oc) => oc.column('workspace_id').doUpdateSet((eb) => ({ balance: eb('credit_balances.balance', '+', eb.ref('excluded.balance')) })))
          .returning('balance'))
    : metered.with('d', (q) =>
        q.updateTable('credit_balances').set((eb) => ({ balance: eb('balance', '-', cost) }))
          .where('workspace_id', '=', ws).where('balance', '>=', cost)
          .where((eb) => eb.exists(eb.selectFrom('u').select(kind)))
          .returning('balance'));
  const r = await moved
    .with('j', (q) =>
      q.insertInto('jobs')
        .columns(['id', 'workspace_id', 'model', 'surface', 'prompt', 'status', 'settings', 'media', 'charged', 'pass_id', 'actor', 'created_at', 'updated_at'])
        .expression((eb) =>
          eb.selectFrom('d').select([
            eb.val(job.id).as('id'), eb.cast<number>(eb.val(ws), 'integer').as('workspace_id'), eb.val(job.model).as('model'), eb.val(job.surface).as('surface'),
            eb.val(job.prompt).as('prompt'), eb.val(job.status).as('status'), eb.val(job.settings).as('settings'), eb.val(job.media).as('media'),
            eb.cast<number>(eb.val(cost), 'integer').as('charged'), eb.cast<string | null>(eb.val(job.pass_id ?? null), 'text').as('pass_id'), eb.val(job.actor).as('actor'),
            eb.val(job.created_at).as('created_at'), eb.val(job.updated_at).as('updated_at'),
          ])))
    .with('l', (q) =>
      q.insertInto('credit_ledger').columns(['workspace_id', 'amount', 'reason', 'job_id', 'note', 'created_at'])
        .expression((eb) =>
          eb.selectFrom('d').select([
            eb.cast<number>(eb.val(ws), 'integer').as('workspace_id'), eb.cast<number>(eb.val(-cost), 'integer').as('amount'), eb.val('charge' as const).as('reason'),
            eb.val(job.id).as('job_id'), eb.cast<string | null>(eb.val(null), 'text').as('note'), eb.val(job.created_at).as('created_at'),
          ])))
    .selectFrom('u').select((eb) => eb.selectFrom('d').select('balance').as('balance'))
    .executeTakeFirst();
  if (!r) return 'limit';
  return { balance: r.balance === null || r.balance === undefined ? null : Number(r.balance) };
}
