// Deleting an event, once none of its bookings holds money (or staff settle them first).
import type { SessionPrincipal } from '../../http/auth.js';
import { conflict, forbidden, notFound } from '../../lib/errors.js';
import * as audit from '../audit/audit.service.js';
import { eventFacts } from './event-facts.js';
import type { EventDeps } from './events.deps.js';
import * as repo from './events.repo.js';

/**
 * Deleting an event cascades to its bookings, so it waits until none holds money:
 * 409 `has_payments_in_flight` while a booking has a payment in
 * flight or captured and not refunded. Staff with `force` refund them first (each refund
 * through the gateway and into the ledger), then delete. Test events move no money and
 * skip the check.
 */
export async function deleteEvent(
  deps: EventDeps,
  s: SessionPrincipal,
  id: string,
  force: boolean,
): Promise<void> {
  const row = await repo.findEvent(deps.db, id);
  if (!row) throw notFound('no such event', 'event_not_found');
  if (row.account_id !== s.userId && !s.isStaff)
    throw forbidden('not_your_object', 'this event belongs to another account');
  const forced = force && s.isStaff;
  if (row.mode === 'live') {
    const holding = forced
      ? await deps.bookings.settlePayments(id)
      : await deps.bookings.paymentsInFlight(id);
    if (holding > 0) {
      throw conflict(
        'has_payments_in_flight',
        forced
          ? `${holding} booking(s) of this event took money meanwhile; try again`
          : `${holding} booking(s) of this event hold a payment in flight or captured and not refunded: refund or cancel them first (force=true, for platform staff only, refunds them and deletes)`,
        { bookings: holding },
      );
    }
  }
  await deps.db.transaction().execute(async (trx) => {
    await repo.deleteEvent(trx, id);
    const actor = audit.actorOfSession(s, row.account_id !== s.userId || forced);
    await audit.recordChange(trx, deps, {
      accountId: row.account_id,
      mode: row.mode,
      actor,
      action: forced ? 'event.force_delete' : 'event.delete',
      target: { type: 'event', id },
      before: eventFacts(row),
    });
  });
}
