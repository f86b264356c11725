// An event's per-buyer limit (`onSale.perBuyerLimit`, docs/decisions/26-a-fair-waiting-room.md):
// the tickets one buyer holds on the event, by email and by phone, with this booking's may not
// exceed it. Checked in the transaction that writes the booking, under advisory locks on the
// buyer's email and phone, so two bookings of one buyer at once are counted one after the other.
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, OnSaleDoc } from '../../db/database.js';
import { conflict } from '../../lib/errors.js';
import { normaliseEmail } from '../waiting-room/queue-tokens.js';
import { ticketsHeldByBuyer } from './buyer-limit.repo.js';

/** The event's limit, or null when it sets none. */
export const perBuyerLimit = (event: { on_sale: OnSaleDoc | null }): number | null =>
  event.on_sale?.perBuyerLimit ?? null;

/**
 * 409 `per_buyer_limit_reached` when the buyer's tickets on the event (by `email`, and by `phone`
 * where the booking has one) and `quantity` more exceed the event's limit. Takes the buyer's
 * locks first (sorted keys: no deadlock; always after the unpaid cap's locks of pending-room.ts).
 */
export async function assertBuyerLimit(
  trx: Transaction<Database>,
  event: { id: string; on_sale: OnSaleDoc | null },
  buyer: { email: string; phone: string | null; quantity: number },
): Promise<void> {
  const limit = perBuyerLimit(event);
  if (limit === null) return;
  const email = normaliseEmail(buyer.email);
  await sql`set local lock_timeout = '5s'`.execute(trx);
  const keys = [
    `buyer-email:${event.id}:${email}`,
    ...(buyer.phone === null ? [] : [`buyer-phone:${event.id}:${buyer.phone}`]),
  ].sort();
  for (const k of keys) await sql`select pg_advisory_xact_lock(8016, hashtext(${k}))`.execute(trx);
  const held = await ticketsHeldByBuyer(trx, event.id, email, buyer.phone);
  if (held + buyer.quantity > limit) {
    throw conflict(
      'per_buyer_limit_reached',
      `this event sells at most ${limit} ticket${limit === 1 ? '' : 's'} to one buyer (one email or phone number, counting their confirmed and pending bookings): this booking would exceed it`,
      { limit },
    );
  }
}

/** The same, before a paid booking's gateway order (in a short transaction of its own); enforced again where the booking is written. */
export async function assertBuyerLimitEarly(
  db: Kysely<Database>,
  event: { id: string; on_sale: OnSaleDoc | null },
  buyer: { email: string; phone: string | null; quantity: number },
): Promise<void> {
  if (perBuyerLimit(event) === null) return;
  await db.transaction().execute((trx) => assertBuyerLimit(trx, event, buyer));
}
