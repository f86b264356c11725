// Ending a membership: now, or at the end of the paid period (the member keeps the
// time paid for). It is decided on the membership row locked, so a payment or a charge
// that lands first is seen (docs/decisions/20-booking-lifecycle.md): a fixed term is decided and ended in one transaction.
// A mandate is cancelled at the gateway first; one that ends now is claimed
// (`ending_claimed_at`) in the deciding transaction, before the gateway is asked, and a
// charge reported while the claim holds or after the end gets no period, so it is refunded
// (charge-refunds.ts). If the gateway refuses, the claim goes and nothing else changes here.
import * as audit from '../audit/audit.service.js';
import type { KeyPrincipal } from '../../http/auth.js';
import type { Db } from '../../lib/db-handle.js';
import { appError } from '../../lib/errors.js';
import { gatewayFailure } from '../payments/payments.service.js';
import { nowFor } from '../accounts/account-clock.js';
import * as repo from './memberships.repo.js';
import {
  loadOwnedMembership,
  planOf,
  standingInput,
  type MembershipDeps,
  type MembershipRow,
  type PlanRow,
} from './memberships.service.js';
import { computeStanding } from './standing.js';
import { endingClaimHeld } from './subscription-state.js';

type Decision =
  | { kind: 'ended'; m: MembershipRow }
  | { kind: 'done'; m: MembershipRow }
  | { kind: 'mandate'; m: MembershipRow; endNow: boolean; claimedAt: Date | null };

export async function cancel(
  deps: MembershipDeps,
  p: KeyPrincipal,
  id: string,
  immediate: boolean,
): Promise<{ membership: MembershipRow; alreadyEnded: boolean; message: string }> {
  const owned = await loadOwnedMembership(deps.db, p, id);
  const plan = await planOf(deps.db, owned);
  const now = await nowFor(deps, owned.account_id, owned.mode);
  const d = await deps.db.transaction().execute((trx) => decide(trx, deps, p, { id, plan, immediate, now }));
  if (d.kind === 'ended')
    return { membership: d.m, alreadyEnded: true, message: 'this membership has already ended' };
  const membership = d.kind === 'mandate' ? await cancelMandate(deps, p, d, now) : d.m;
  return {
    membership,
    alreadyEnded: false,
    message:
      membership.status === 'ended'
        ? 'the membership has ended'
        : `the membership ends at the end of the paid period, ${membership.valid_until!.toISOString()}`,
  };
}

/** On the locked row: ended already, ended here (no mandate), or the mandate to cancel (claimed when it ends now). */
async function decide(
  trx: Db,
  deps: MembershipDeps,
  p: KeyPrincipal,
  c: { id: string; plan: PlanRow; immediate: boolean; now: Date },
): Promise<Decision> {
  const m = (await repo.lockMembership(trx, c.id))!;
  if (computeStanding(standingInput(m, c.plan), c.now).displayStatus === 'ended') return { kind: 'ended', m };
  // Nothing paid yet, or asked to end now: it ends now. Otherwise at the end of the paid period.
  const endNow =
    c.immediate || m.valid_until === null || m.status === 'created' || m.status === 'pending_payment';
  if (m.subscription_id === null) return { kind: 'done', m: await recordEnd(trx, deps, p, m, endNow, c.now) };
  if (!endNow) return { kind: 'mandate', m, endNow, claimedAt: null };
  const at = deps.clock.now();
  if (endingClaimHeld(m.ending_claimed_at, at))
    throw appError(
      'busy',
      'another cancel of this membership is under way; retry shortly',
      {},
      { 'retry-after': '2' },
    );
  await repo.updateMembership(trx, m.id, { ending_claimed_at: at });
  return { kind: 'mandate', m, endNow, claimedAt: at };
}

/** Cancels the mandate at the gateway, then records the end on the row as it is by then. */
async function cancelMandate(
  deps: MembershipDeps,
  p: KeyPrincipal,
  d: Extract<Decision, { kind: 'mandate' }>,
  now: Date,
): Promise<MembershipRow> {
  try {
    await deps.subscriptionsFor(d.m.mode, d.m.account_id).cancelSubscription(d.m.subscription_id!, !d.endNow);
  } catch (err) {
    if (d.claimedAt) await repo.releaseEndingClaim(deps.db, d.m.id, d.claimedAt);
    throw gatewayFailure(err, 'cancel the mandate');
  }
  return deps.db.transaction().execute(async (trx) => {
    const m = (await repo.lockMembership(trx, d.m.id))!;
    // The gateway's own notification of the end came first: nothing more to record.
    if (m.status === 'ended') return m;
    return recordEnd(trx, deps, p, m, d.endNow, now);
  });
}

/** The end, now or at the period's end, with its audit entry: in the caller's transaction, on the locked row. */
async function recordEnd(
  trx: Db,
  deps: MembershipDeps,
  p: KeyPrincipal,
  m: MembershipRow,
  endNow: boolean,
  now: Date,
): Promise<MembershipRow> {
  const at = deps.clock.now();
  const u = await repo.updateMembership(
    trx,
    m.id,
    endNow
      ? { status: 'ended', ended_at: now, pending_order_id: null, ending_claimed_at: null, updated_at: at }
      : { cancel_at_period_end: true, pending_order_id: null, updated_at: at },
  );
  const after = endNow ? { status: 'ended' } : { status: m.status, endsAt: m.valid_until };
  await audit.recordChange(trx, deps, {
    accountId: m.account_id,
    mode: m.mode,
    actor: audit.actorOfKey(p),
    action: 'membership.cancel',
    target: { type: 'membership', id: m.id },
    before: { status: m.status },
    after,
  });
  return u!;
}
