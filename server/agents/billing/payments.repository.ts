import type { Insertable, Selectable } from 'kysely';
import { countAll } from '../sql';
import type { AgentsDb, PaymentsTable } from '../schema';

/** Payments with the two providers, their webhook deliveries, and the second provider's catalog plans. */
export type PaymentRow = Omit<Selectable<PaymentsTable>, 'created_at' | 'paid_at'>;

const COLUMNS = ['id', 'workspace_id', 'provider', 'external_id', 'kind', 'bundle', 'plan', 'credits', 'amount_cents', 'currency', 'status'] as const;

export async function insertPayment(db: AgentsDb, p: Insertable<PaymentsTable>): Promise<void> {
  await db.insertInto('payments').values(p).execute();
}

export async function paymentByExternal(db: AgentsDb, provider: string, externalId: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').select(COLUMNS).where('provider', '=', provider).where('external_id', '=', externalId).executeTakeFirst();
}

/** Marks paid (the first payment time is kept). */
export async function markPaid(db: AgentsDb, provider: string, externalId: string, now: number): Promise<void> {
  await db
    .updateTable('payments')
    .set((eb) => ({ status: 'paid', paid_at: eb.fn.coalesce('paid_at', eb.val(now)) }))
    .where('provider', '=', provider).where('external_id', '=', externalId)
    .execute();
}

/** Sales of one second-provider subscription recorded so far. */
export async function countSales(db: AgentsDb, subscriptionId: string): Promise<number> {
  const r = await db.selectFrom('payments').select(countAll().as('n')).where('provider', '=', 'paypal').where('kind', '=', 'sale').where('plan', '=', subscriptionId).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Records a webhook delivery; false when this event id was recorded before (insert-or-ignore). */
export async function recordDelivery(db: AgentsDb, provider: string, eventId: string, type: string): Promise<boolean> {
  const r = await db
    .insertInto('provider_events').values({ provider, event_id: eventId, type, received_at: Date.now() })
    .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function forgetDelivery(db: AgentsDb, provider: string, eventId: string): Promise<void> {
  await db.deleteFrom('provider_events').where('provider', '=', provider).where('event_id', '=', eventId).execute();
}

export async function paypalPlanId(db: AgentsDb, plan: string): Promise<string | undefined> {
  return (await db.selectFrom('paypal_plans').select('plan_id').where('plan', '=', plan).executeTakeFirst())?.plan_id;
}

export async function savePaypalPlan(db: AgentsDb, plan: string, productId: string, planId: string): Promise<void> {
  await db
    .insertInto('paypal_plans').values({ plan, product_id: productId, plan_id: planId })
    .onConflict((oc) => oc.column('plan').doUpdateSet((eb) => ({ product_id: eb.ref('excluded.product_id'), plan_id: eb.ref('excluded.plan_id') })))
    .execute();
}
