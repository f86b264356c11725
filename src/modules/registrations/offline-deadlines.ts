// The deadlines of a booking awaiting payment outside the gateway (docs/decisions/24-payment-outside-the-gateway.md):
// a reminder mail a day before `payBy`, and at `payBy` the booking cancelled through the lifecycle
// (`lapse_unpaid`: seats freed and offered to the waitlist, as any ending does). Each runs from its
// own job and from a sweep every minute (the safety net, and what a test account's moved clock
// needs); both are idempotent and any number of processes may run them at once: the reminder is
// claimed by one conditional update, the lapse is the lifecycle's conditional move.
import { enqueue } from '../../jobs/queue.js';
import { nowFor } from '../accounts/account-clock.js';
import * as audit from '../audit/audit.service.js';
import { paymentDueMailJob } from '../tickets/payment-due-mail.jobs.js';
import { canApply } from './lifecycle/booking-lifecycle.js';
import { changeBooking } from './lifecycle/change-booking.js';
import * as offline from './offline.repo.js';
import type { RegisterDeps } from './register-deps.js';
import * as repo from './registrations.repo.js';

type Deps = Pick<RegisterDeps, 'db' | 'clock' | 'ids'>;
const DAY_MS = 86_400_000;

/** Cancels an offline booking still unpaid at its payBy (on its account's clock); true when this call did. */
export async function lapseIfDue(deps: Deps, registrationId: string): Promise<boolean> {
  const reg = await repo.findRegistration(deps.db, registrationId);
  if (!reg || reg.pay_by === null || !canApply('lapse_unpaid', reg)) return false;
  if ((await nowFor(deps, reg.account_id, reg.mode)) < reg.pay_by) return false;
  const moved = await deps.db
    .transaction()
    .execute((trx) =>
      changeBooking(trx, deps, reg, audit.systemActor('pay_by_passed'), { event: 'lapse_unpaid' }),
    );
  return moved !== undefined;
}

/** Queues the reminder of an offline booking still unpaid a day before its payBy, once; true when this call did. */
export async function remindIfDue(deps: Deps, registrationId: string): Promise<boolean> {
  const reg = await repo.findRegistration(deps.db, registrationId);
  if (!reg || reg.pay_by === null || reg.reminded_at !== null || !canApply('lapse_unpaid', reg)) return false;
  const now = await nowFor(deps, reg.account_id, reg.mode);
  if (now.getTime() < reg.pay_by.getTime() - DAY_MS || now >= reg.pay_by) return false;
  return deps.db.transaction().execute(async (trx) => {
    if (!(await offline.claimReminder(trx, reg.id, now))) return false;
    await enqueue(trx, deps, paymentDueMailJob, { registrationId: reg.id, kind: 'reminder' });
    return true;
  });
}

/** The sweep: every offline booking whose reminder or payBy is due; what it did. */
export async function sweepOfflineDeadlines(deps: Deps): Promise<{ reminded: number; lapsed: number }> {
  const out = { reminded: 0, lapsed: 0 };
  for (const id of await offline.offlineDue(deps.db, deps.clock.now(), 200)) {
    if (await lapseIfDue(deps, id)) out.lapsed++;
    else if (await remindIfDue(deps, id)) out.reminded++;
  }
  return out;
}
