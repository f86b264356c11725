// Queries on the table the payments module owns: gateway_orders (the orders asked of the
// gateway, one row per receipt), written by the bookings and memberships that ask, settled
// by the reconciliation sweep.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, GatewayOrdersTable, Mode } from '../../db/database.js';
import { movedClocks, onMovedClock } from '../accounts/account-clock.js';

export type Db = Kysely<Database> | Transaction<Database>;
export type OrderRow = Selectable<GatewayOrdersTable>;

export interface NewOrderCheck {
  receipt: string;
  kind: 'registration' | 'membership';
  mode: Mode;
  account_id: string;
  amount_paise: number;
  currency: string;
}

export async function insertOrderCheck(db: Db, row: NewOrderCheck, now: Date): Promise<void> {
  await db
    .insertInto('gateway_orders')
    .values({
      ...row,
      order_id: null,
      payment_id: null,
      created_at: now,
      check_after: now,
      settled_at: null,
      outcome: null,
      last_error: null,
    })
    .execute();
}

export async function attachOrder(db: Db, receipt: string, orderId: string): Promise<void> {
  await db.updateTable('gateway_orders').set({ order_id: orderId }).where('receipt', '=', receipt).execute();
}

export async function recordMembershipPayment(db: Db, orderId: string, paymentId: string): Promise<void> {
  await db
    .updateTable('gateway_orders')
    .set({ payment_id: paymentId })
    .where('order_id', '=', orderId)
    .where('payment_id', 'is', null)
    .execute();
}

export async function reopen(db: Db, orderId: string, now: Date): Promise<void> {
  await db
    .updateTable('gateway_orders')
    .set({ settled_at: null, check_after: now, checks: 0 })
    .where('order_id', '=', orderId)
    .execute();
}

/**
 * Open rows due by `started` and created before `cutoff`, the longest-waiting first. A test-mode
 * row is timed on its account's clock: once that clock is moved on, it is due by the moved clock
 * (the second part, which reads only the open test-mode orders of moved clocks).
 */
export function dueOrders(db: Db, started: Date, cutoff: Date, limit: number): Promise<OrderRow[]> {
  const byServiceClock = db
    .selectFrom('gateway_orders')
    .selectAll()
    .where('settled_at', 'is', null)
    .where('check_after', '<=', started)
    .where('created_at', '<=', cutoff);
  const byMovedClock = db
    .selectFrom('gateway_orders')
    .innerJoin(movedClocks(db), 'moved_clock.account_id', 'gateway_orders.account_id')
    .selectAll('gateway_orders')
    .where('mode', '=', 'test')
    .where('settled_at', 'is', null)
    .where((eb) => eb.or([eb('check_after', '>', started), eb('created_at', '>', cutoff)]))
    .where('check_after', '<=', onMovedClock(started))
    .where('created_at', '<=', onMovedClock(cutoff));
  return (
    byServiceClock
      .unionAll(byMovedClock)
      // Due at the same instant: oldest order first, so a sweep walks them in one order every time.
      .orderBy('check_after')
      .orderBy('created_at')
      .orderBy('receipt')
      .limit(limit)
      .execute()
  );
}

/** Asked about again at `checkAfter`. */
export async function checkLater(
  db: Db,
  receipt: string,
  change: { checks: number; checkAfter: Date; outcome?: string | null; lastError: string | null },
): Promise<void> {
  await db
    .updateTable('gateway_orders')
    .set({
      checks: change.checks,
      check_after: change.checkAfter,
      last_error: change.lastError,
      ...(change.outcome === undefined ? {} : { outcome: change.outcome }),
    })
    .where('receipt', '=', receipt)
    .execute();
}

export async function settle(
  db: Db,
  receipt: string,
  change: { at: Date; outcome: string; checks: number },
): Promise<void> {
  await db
    .updateTable('gateway_orders')
    .set({ settled_at: change.at, outcome: change.outcome, checks: change.checks, last_error: null })
    .where('receipt', '=', receipt)
    .execute();
}

/** The row of a gateway order, by the gateway's order id. */
export function findByOrderId(db: Db, orderId: string): Promise<OrderRow | undefined> {
  return db.selectFrom('gateway_orders').selectAll().where('order_id', '=', orderId).executeTakeFirst();
}

/** Whether some membership period was confirmed with this payment. */
export async function isRecordedPayment(db: Db, paymentId: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('gateway_orders')
      .select('receipt')
      .where('payment_id', '=', paymentId)
      .executeTakeFirst()) !== undefined
  );
}

/** The payment a membership period was confirmed with on this row, if any. */
export async function recordedPayment(db: Db, receipt: string): Promise<string | null> {
  return (
    (
      await db
        .selectFrom('gateway_orders')
        .select('payment_id')
        .where('receipt', '=', receipt)
        .executeTakeFirst()
    )?.payment_id ?? null
  );
}

export interface OrderListQuery {
  status?: 'open' | 'settled' | undefined;
  receipt?: string | undefined;
  limit: number;
  startingAfter?: string | undefined;
}

/** One page (limit + 1 rows read, so the caller knows whether more follow), oldest first. */
export async function listPage(db: Db, q: OrderListQuery): Promise<OrderRow[]> {
  let query = db.selectFrom('gateway_orders').selectAll();
  if (q.status === 'open') query = query.where('settled_at', 'is', null);
  if (q.status === 'settled') query = query.where('settled_at', 'is not', null);
  if (q.receipt !== undefined) query = query.where('receipt', '=', q.receipt);
  if (q.startingAfter !== undefined) {
    const after = await db
      .selectFrom('gateway_orders')
      .select(['created_at', 'receipt'])
      .where('receipt', '=', q.startingAfter)
      .executeTakeFirst();
    if (after)
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '>', after.created_at),
          eb.and([eb('created_at', '=', after.created_at), eb('receipt', '>', after.receipt)]),
        ]),
      );
  }
  return query
    .orderBy('created_at')
    .orderBy('receipt')
    .limit(q.limit + 1)
    .execute();
}

/** Watched orders by state and last outcome, for /metrics. */
export async function outcomeCounts(db: Db): Promise<{ open: boolean; outcome: string | null; n: number }[]> {
  const rows = await db
    .selectFrom('gateway_orders')
    .select((eb) => [eb('settled_at', 'is', null).as('open'), 'outcome', eb.fn.countAll<number>().as('n')])
    .groupBy([(eb) => eb('settled_at', 'is', null), 'outcome'])
    .execute();
  return rows.map((r) => ({ open: Boolean(r.open), outcome: r.outcome, n: Number(r.n) }));
}
