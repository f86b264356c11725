// Ending a membership: now, or at the end of the paid period (the member keeps the
// time paid for). The gateway's mandate is cancelled first; if that fails, nothing
// changes here.
import * as audit from '../audit/audit.service.js';
import type { KeyPrincipal } from '../../shared/auth.js';
import { gatewayFailure } from '../payments/payments.service.js';
import { nowFor } from '../accounts/account-clock.js';
import * as repo from './memberships.repo.js';
import { loadOwnedMembership, planOf, standingInput, type MembershipDeps, type MembershipRow } from './memberships.service.js';
import { computeStanding } from './standing.js';

export async function cancel(
  deps: MembershipDeps,
  p: KeyPrincipal,
  id: string,
  immediate: boolean,
): Promise<{ membership: MembershipRow; alreadyEnded: boolean; message: string }> {
  const m = await loadOwnedMembership(deps.db, p, id);
  const plan = await planOf(deps.db, m);
  const now = await nowFor(deps, m.account_id, m.mode);
  const standing = computeStanding(standingInput(m, plan), now);
  if (standing.displayStatus === 'ended') return { membership: m, alreadyEnded: true, message: 'this membership has already ended' };
  // Nothing paid yet, or asked to end now: it ends now. Otherwise at the end of the paid period.
  const endNow = immediate || m.valid_until === null || m.status === 'created' || m.status === 'pending_payment';
  if (m.subscription_id !== null) {
    try {
      await deps.subscriptionsFor(m.mode, m.account_id).cancelSubscription(m.subscription_id, !endNow);
    } catch (err) {
      throw gatewayFailure(err, 'cancel the mandate');
    }
  }
  const at = deps.clock.now();
  const updated = await deps.db.transaction().execute(async (trx) => {
    const u = await repo.updateMembership(
      trx,
      m.id,
      endNow ? { status: 'ended', ended_at: now, pending_order_id: null, updated_at: at } : { cancel_at_period_end: true, pending_order_id: null, updated_at: at },
    );
    const after = endNow ? { status: 'ended' } : { status: m.status, endsAt: m.valid_until };
    await audit.recordChange(trx, deps, { accountId: m.account_id, mode: m.mode, actor: audit.actorOfKey(p), action: 'membership.cancel', target: { type: 'membership', id: m.id }, before: { status: m.status }, after });
    return u;
  });
  return {
    membership: updated!,
    alreadyEnded: false,
    message: endNow ? 'the membership has ended' : `the membership ends at the end of the paid period, ${m.valid_until!.toISOString()}`,
  };
}
