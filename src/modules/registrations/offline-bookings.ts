// Registering, step 1, for payment outside the gateway (docs/decisions/24-payment-outside-the-gateway.md):
// the booking is written pending (`await_offline_payment`) with its method, a reference the buyer
// quotes and `payBy`; unlike a gateway booking it takes its seats now (and keeps a seated
// event's held seats), because the buyer may take days to pay. The buyer's mail with the
// instructions, the reminder a day before `payBy` and the lapse at `payBy` are queued in the
// same transaction. Marking it paid (mark-paid.service.ts) confirms it.
import type { BillingDoc, OfflineMethod } from '../../db/database.js';
import { enqueue } from '../../jobs/queue.js';
import * as audit from '../audit/audit.service.js';
import { nowFor } from '../accounts/account-clock.js';
import * as events from '../events/events.service.js';
import * as seatHolds from '../seat-holds/booked-seats.service.js';
import { paymentDueMailJob } from '../tickets/payment-due-mail.jobs.js';
import { bookedEntry } from './lifecycle/booking-audit.js';
import * as lifecycle from './lifecycle/lifecycle.repo.js';
import { offlineLapseJob, offlineReminderJob } from './offline-deadlines.jobs.js';
import { withFreshReference } from './offline-reference.js';
import { assertPendingRoom, lockPendingRoom } from './pending-room.js';
import { assertBuyerLimit } from './buyer-limit.js';
import * as promos from './promo.service.js';
import type { Booking, RegisterResult } from './register-writes.js';
import { soldOut } from './registrations.errors.js';
import * as repo from './registrations.repo.js';

const DAY_MS = 86_400_000;

export async function bookOffline(
  { deps, p, event, booking, people, ticketIds, promo, held, quantity }: Booking,
  {
    method,
    billing,
    email,
    clientAddress,
  }: { method: OfflineMethod; billing: BillingDoc | null; email: string; clientAddress: string | null },
): Promise<RegisterResult> {
  const days = event.offline_payment!.payWithinDays;
  // payBy is on the account's clock (test mode: the sandbox clock); the jobs run by the service's.
  const payBy = new Date((await nowFor(deps, event.account_id, event.mode)).getTime() + days * DAY_MS);
  const runAt = new Date(deps.clock.now().getTime() + days * DAY_MS);
  await assertPendingRoom(deps.db, event.id, email, clientAddress);
  const reference = await withFreshReference((ref) =>
    deps.db.transaction().execute(async (trx) => {
      // As for a gateway booking: at most so many awaiting payment per email and address.
      await lockPendingRoom(trx, event.id, email, clientAddress);
      await assertPendingRoom(trx, event.id, email, clientAddress);
      await assertBuyerLimit(trx, event, booking);
      const row = {
        ...booking,
        client_address: clientAddress,
        confirmed_at: null,
        order_id: null,
        payment_id: null,
        billing: billing === null ? null : JSON.stringify(billing),
        offline_method: method,
        offline_reference: ref,
        pay_by: payBy,
      };
      await lifecycle.insertBooking(trx, 'await_offline_payment', row);
      await audit.recordChange(trx, deps, bookedEntry({ ...row, status: 'pending' }, audit.actorOfKey(p)));
      await repo.insertAttendees(trx, booking, people);
      if (held) await seatHolds.attachHold(trx, deps.clock, held, booking.id, ticketIds);
      if (promo) await promos.reserveUse(trx, event.id, promo.code);
      // The seats are the booking's until it is paid or lapses (the paid counter is claimed when paid).
      const scopes = events.scopesFor(booking.ticket_type, booking.sub_event_id);
      if (!(await events.claimSeats(trx, event.id, scopes, quantity))) throw soldOut();
      await enqueue(trx, deps, paymentDueMailJob, { registrationId: booking.id, kind: 'awaiting' });
      await enqueue(trx, deps, offlineLapseJob, { registrationId: booking.id }, { runAt });
      // A reminder a day before payBy; a one-day window has no day before.
      if (days > 1) {
        const remindAt = new Date(runAt.getTime() - DAY_MS);
        await enqueue(trx, deps, offlineReminderJob, { registrationId: booking.id }, { runAt: remindAt });
      }
      return ref;
    }),
  );
  deps.kickJobs();
  return {
    kind: 'offline',
    registrationId: booking.id,
    amount: booking.amount_paise,
    currency: booking.currency,
    awaitingPayment: { method, reference, payBy },
  };
}
