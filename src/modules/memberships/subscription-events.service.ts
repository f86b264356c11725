// The gateway's (or the sandbox's) subscription events applied to the membership of
// that subscription; the rules are in subscription-state.ts.
import type { Mode } from '../../db/database.js';
import * as webhooks from '../webhooks/webhooks.service.js';
import { nowFor } from '../sandbox/sandbox.service.js';
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
    case 'active':
      await repo.updateUnlessEnded(deps.db, m.id, { status: 'active', valid_until: change.validUntil, updated_at: at });
      return 'applied';
    case 'halted':
      await repo.updateUnlessEnded(deps.db, m.id, { status: 'halted', updated_at: at });
      return 'applied';
    case 'ended':
      await repo.updateMembership(deps.db, m.id, { status: 'ended', ended_at: change.endedAt, updated_at: at });
      return 'applied';
  }
}
