// What each payment bound to a booking captured and what has been refunded of it. The
// table's CHECK refuses a refunded total above the capture, so no interleaving of refunds
// (across requests, processes, the sweep and the refund jobs) can give back more than was
// taken: each refund is reserved here, in the transaction that claims it, before the gateway
// is asked, and given back only when the gateway refused it.
import { sql } from 'kysely';
import type { Mode } from '../../db/database.js';
import type { Db } from '../../lib/db-handle.js';
import { pgCode } from '../../lib/pg-errors.js';

export interface Capture {
  mode: Mode;
  paymentId: string;
  accountId: string;
  registrationId: string | null;
  capturedPaise: number;
}

/** Records a captured payment once (a repeat changes nothing). */
export async function recordCapture(db: Db, c: Capture, at: Date): Promise<void> {
  await db
    .insertInto('payment_captures')
    .values({
      mode: c.mode,
      payment_id: c.paymentId,
      account_id: c.accountId,
      registration_id: c.registrationId,
      captured_paise: c.capturedPaise,
      created_at: at,
    })
    .onConflict((oc) => oc.columns(['mode', 'payment_id']).doNothing())
    .execute();
}

/**
 * Reserves `paise` of a payment's capture for a refund, in one guarded statement: false when
 * the refunds would sum above the capture (the CHECK refuses the row). A payment not yet
 * recorded is recorded with the capture given.
 */
export async function reserveRefund(db: Db, c: Capture, paise: number, at: Date): Promise<boolean> {
  try {
    await sql`savepoint reserve_refund`.execute(db);
    await db
      .insertInto('payment_captures')
      .values({
        mode: c.mode,
        payment_id: c.paymentId,
        account_id: c.accountId,
        registration_id: c.registrationId,
        captured_paise: c.capturedPaise,
        refunded_paise: paise,
        created_at: at,
      })
      .onConflict((oc) =>
        oc
          .columns(['mode', 'payment_id'])
          .doUpdateSet({ refunded_paise: sql`payment_captures.refunded_paise + ${paise}` }),
      )
      .execute();
    await sql`release savepoint reserve_refund`.execute(db);
    return true;
  } catch (err) {
    if (pgCode(err) !== '23514') throw err;
    await sql`rollback to savepoint reserve_refund`.execute(db);
    return false;
  }
}

/** Gives a reservation back: the gateway refused the refund, nothing left the account. */
export async function releaseRefund(db: Db, mode: Mode, paymentId: string, paise: number): Promise<void> {
  await db
    .updateTable('payment_captures')
    .set({ refunded_paise: sql`refunded_paise - ${paise}` })
    .where('mode', '=', mode)
    .where('payment_id', '=', paymentId)
    .execute();
}

export function findCapture(db: Db, mode: Mode, paymentId: string) {
  return db
    .selectFrom('payment_captures')
    .selectAll()
    .where('mode', '=', mode)
    .where('payment_id', '=', paymentId)
    .executeTakeFirst();
}

/** The gateway refunded all of a payment (a refund job, or one found at the gateway): recorded as such. */
export async function refundedInFull(db: Db, mode: Mode, paymentId: string): Promise<void> {
  await db
    .updateTable('payment_captures')
    .set({ refunded_paise: sql`captured_paise` })
    .where('mode', '=', mode)
    .where('payment_id', '=', paymentId)
    .execute();
}
