// The gateway's (or the sandbox's) subscription events applied to the membership of
// that subscription; the rules are in subscription-state.ts.
import type { Mode } from '../../db/database.js';
import * as webhooks from '../webhooks/webhooks.service.js';
import { nowFor } from '../accounts/account-clock.js';
import { queueConfirmationMail } from './membership-mail.jobs.js';
import { applyMembershipPayment } from './membership-payment.js';
import * as repo from './memberships.repo.js';
import { planOf, type MembershipDeps } from './memberships.service.js';
import { nextSubscriptionState, type SubscriptionEvent } from './subscription-state.js';

/** Idempotent and order-tolerant: 'ignored' when the event changes nothing. */
export async function applySubscriptionEvent(
  deps: MembershipDeps,
  mode: Mode,
  subscriptionId: string,
  event: SubscriptionEvent,
  currentEnd?: Date | null,
  /** The charge's payment, when the gateway sent one (subscription.charged). */
  payment?: { id: string; amount: number; captured: boolean },
): Promise<'applied' | 'ignored'> {
  const m = await repo.findBySubscription(deps.db, mode, subscriptionId);
  if (!m) return 'ignored';
  const plan = await planOf(deps.db, m);
  const now = await nowFor(deps, m.account_id, m.mode);
  const change = nextSubscriptionState({ status: m.status, validUntil: m.valid_until }, event, { now, period: plan.period, currentEnd });
  if (!change) return 'ignored';
  const at = deps.clock.now();
  switch (change.status) {
    case 'authorised': {
      // Authorised once, and the organiser told in the same transaction.
      const done = await deps.db.transaction().execute(async (trx) => {
        if (!(await repo.markAuthorised(trx, m.id, at))) return false;
        await queueConfirmationMail(trx, deps, m.id, now);
        await webhooks.emit(trx, deps, {
          accountId: m.account_id,
          mode: m.mode,
          type: 'subscription.authenticated',
          data: { membershipId: m.id, planId: m.plan_id, planName: plan.name, subscriptionId, name: m.name, email: m.email, authorisedAt: now.toISOString() },
        });
        return true;
      });
      return done ? 'applied' : 'ignored';
    }
    case 'active': {
      // A charge's money enters the ledger with the period it pays for. The sandbox's
      // charges carry no gateway payment, so the sandbox names one.
      const paid = event !== 'charged' ? undefined : (payment ?? (mode === 'test' ? { id: deps.ids.make('spay', 12), amount: Number(plan.amount_paise), captured: true } : undefined));
      await deps.db.transaction().execute(async (trx) => {
        const values = { status: 'active' as const, valid_until: change.validUntil, updated_at: at };
        // Activated before its authentication arrived: the membership starts here, once.
        if (await repo.updateFromStatus(trx, m.id, 'created', values)) await queueConfirmationMail(trx, deps, m.id, now);
        else await repo.updateUnlessEnded(trx, m.id, values);
        if (paid?.captured) {
          await applyMembershipPayment(trx, deps, m, { id: paid.id, amountPaise: paid.amount, paidAt: now, validUntil: change.validUntil });
        }
      });
      return 'applied';
    }
    case 'halted':
      await repo.updateUnlessEnded(deps.db, m.id, { status: 'halted', updated_at: at });
      return 'applied';
    case 'ended':
      await repo.updateMembership(deps.db, m.id, { status: 'ended', ended_at: change.endedAt, updated_at: at });
      return 'applied';
  }
}
