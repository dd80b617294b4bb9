import type { StudioDb } from '../db';
import type { NewJob } from '../schema';

/**
 * PostgreSQL only (data-modifying WITH; SQLite runs the same writes one by one in one transaction): a new
 * job row, its charge (the balance moved and the ledger entry explaining it) and its metering in the
 * workspace's allowance month, as ONE statement, so atomic without BEGIN/COMMIT round trips.
 *
 * `charge` null: nothing to charge (a pass covers the job); the job and its metering only, answers undefined.
 * `overdraw` false: the charge is one conditional UPDATE (balance >= cost) and every other write reads its
 * result, so when the balance does not cover it nothing at all is written and null is answered (concurrent
 * spenders in any number of processes cannot both pass). Else the new balance.
 */
export async function insertChargedJobPg(
  db: StudioDb, job: NewJob & { id: string; workspace_id: number; created_at: string }, charge: { cost: number; overdraw: boolean } | null, kind: 'ai_units',
): Promise<number | null | undefined> {
  const ws = job.workspace_id;
  if (!charge) {
    await db
      .with('j', (q) => q.insertInto('jobs').values(job))
      .insertInto('usage').columns(['workspace_id', 'month', kind])
      .expression((eb) => eb.selectFrom('workspaces').select([eb.cast<number>(eb.val(ws), 'integer').as('workspace_id'), 'month', eb.cast<number>(eb.val(1), 'integer').as(kind)]).where('id', '=', ws))
      .onConflict((oc) => oc.columns(['workspace_id', 'month']).doUpdateSet((eb) => ({ [kind]: eb(`usage.${kind}`, '+', eb.ref(`excluded.${kind}`)) })))
      .execute();
    return undefined;
  }
  const cost = charge.cost;
  const moved = charge.overdraw
    ? db.with('d', (q) =>
        q.insertInto('credit_balances').values({ workspace_id: ws, balance: -cost })
          .onConflict((oc) => oc.column('workspace_id').doUpdateSet((eb) => ({ balance: eb('credit_balances.balance', '+', eb.ref('excluded.balance')) })))
          .returning('balance'))
    : db.with('d', (q) =>
        q.updateTable('credit_balances').set((eb) => ({ balance: eb('balance', '-', cost) }))
          .where('workspace_id', '=', ws).where('balance', '>=', cost)
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
    .with('u', (q) =>
      q.insertInto('usage').columns(['workspace_id', 'month', kind])
        .expression((eb) =>
          eb.selectFrom(['workspaces', 'd']).select([eb.cast<number>(eb.val(ws), 'integer').as('workspace_id'), 'workspaces.month', eb.cast<number>(eb.val(1), 'integer').as(kind)]).where('workspaces.id', '=', ws))
        .onConflict((oc) => oc.columns(['workspace_id', 'month']).doUpdateSet((eb) => ({ [kind]: eb(`usage.${kind}`, '+', eb.ref(`excluded.${kind}`)) }))))
    .selectFrom('d').select('balance')
    .executeTakeFirst();
  return r ? Number(r.balance) : null;
}
