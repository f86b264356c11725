// Reconciliation: every captured paisa ends in exactly one
// place, a confirmed booking or membership period, or a full refund, whether or not the
// browser came back or the gateway's notification arrived.
//
// The sweep walks the open rows of `gateway_orders` older than RECONCILE_AFTER_MINUTES
// and asks the gateway about each order:
// - an order whose create answer was lost is found by its receipt and recorded;
// - a captured payment (an authorised one is captured first, when something still
//   expects it) confirms through the same function the gateway's notification uses,
//   which also refunds a payment for a booking cancelled meanwhile;
// - a captured payment nothing here expects (an orphaned order, another amount, a
//   membership order superseded or cancelled) is refunded in full;
// - a booking still unpaid CHECKOUT_WINDOW_MINUTES after step 1 is cancelled (it held no
//   seat; its promo code's reserved use is released); a payment that comes later is
//   refunded. Registration orders are due by then even when RECONCILE_AFTER_MINUTES is
//   longer, and an unpaid one is asked again no later than its window's end.
// - a refund claimed and left `refunding` (a crash, a gateway that did not answer) is
//   asked again with its own idempotency key and completed (lifecycle/refund-claim.ts).
// Every row is asked again with back-off (after, 2×, 4× … at most daily) for a week
// after creation, paid or not: a second payment of an order already paid (or one whose
// notification was lost) is found and refunded. A row settles after that week once its
// order's money has ended in one place and nothing waits for it.
// One instance sweeps at a time: a lease on `reconcile_lease`, taken with one
// conditional UPDATE, renewed between batches and released at the end.
// What the sweep decides is pure, in decisions.ts; this file reads, asks the gateway and acts.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Ids } from '../../lib/ids.js';
import { clockFor } from '../accounts/account-clock.js';
import { confirmFromGateway as confirmMembershipFromGateway } from '../memberships/subscribe.service.js';
import * as memberships from '../memberships/memberships.service.js';
import type { MembershipDeps } from '../memberships/memberships.service.js';
import type { GatewayPayment, PaymentGateway } from '../payments/gateway.js';
import { endRefundedAtGateway, expireUnpaid } from '../registrations/actions.service.js';
import { finishStaleClaims } from '../registrations/lifecycle/refund-claim.js';
import { confirmFromGateway, type RegisterDeps } from '../registrations/register.service.js';
import * as registrations from '../registrations/registrations.service.js';
import * as repo from './reconciliation.repo.js';
import * as orders from '../payments/order-checks.js';
import type { OrderRow } from '../payments/order-checks.js';
import { refundStrayPayment } from './stray-payments.js';
import {
  capturesFor,
  checkAfterOf,
  dueBefore,
  isLive,
  isUnrefunded,
  membershipVerdict,
  nextCheckAt,
  paymentFate,
  paysFor,
  paysForPeriod,
  registrationVerdict,
  settlesNow,
} from './decisions.js';

export interface ReconcileDeps {
  db: Kysely<Database>;
  clock: Clock;
  ids: Ids;
  logger: Logger;
  registerDeps: RegisterDeps;
  membershipDeps: MembershipDeps;
  config: { reconcile: { afterMinutes: number }; checkoutWindowMinutes: number };
}

const LEASE_MS = 5 * 60_000;
const BATCH = 100;

export interface SweepSummary {
  /** false when another instance held the lease. */
  ran: boolean;
  checked: number;
  confirmed: number;
  captured: number;
  refunded: number;
  expired: number;
  /** Confirmed bookings whose payment the gateway had refunded (in its dashboard), ended as refunded. */
  endedRefunded: number;
  /** Refund claims a crash or an unanswered gateway left `refunding`, completed with their own key. */
  claimsFinished: number;
  orphansFound: number;
  settled: number;
  errors: number;
}

/** One sweep over every due order. Safe to call at any time from any instance. */
export async function sweep(deps: ReconcileDeps): Promise<SweepSummary> {
  const summary: SweepSummary = {
    ran: false,
    checked: 0,
    confirmed: 0,
    captured: 0,
    refunded: 0,
    expired: 0,
    endedRefunded: 0,
    claimsFinished: 0,
    orphansFound: 0,
    settled: 0,
    errors: 0,
  };
  const holder = deps.ids.make('swp', 9);
  const started = deps.clock.now();
  const lease = (now: Date) => repo.takeLease(deps.db, holder, now, new Date(now.getTime() + LEASE_MS));
  if (!(await lease(started))) return summary;
  summary.ran = true;
  const cutoff = dueBefore(started, deps.config.reconcile.afterMinutes, deps.config.checkoutWindowMinutes);
  try {
    const claims = await finishStaleClaims(deps.registerDeps);
    summary.claimsFinished = claims.completed;
    summary.errors += claims.failed;
    for (;;) {
      // Each row checked moves its check_after past `started`, so the walk ends.
      const rows = await orders.dueOrders(deps.db, started, cutoff, BATCH);
      for (const row of rows) {
        summary.checked++;
        // A test-mode order's window, back-off and week run on its account's clock.
        const rowDeps = { ...deps, clock: await clockFor(deps, row.account_id, row.mode) };
        try {
          await checkOrder(rowDeps, row, summary);
        } catch (err) {
          summary.errors++;
          const message = err instanceof Error ? err.message : String(err);
          deps.logger.warn(
            { receipt: row.receipt, orderId: row.order_id, err: message },
            'reconciliation: order check failed; asked again later',
          );
          await orders.checkLater(deps.db, row.receipt, {
            checks: row.checks + 1,
            checkAfter: nextCheck(rowDeps, row),
            lastError: message.slice(0, 500),
          });
        }
      }
      if (rows.length < BATCH) break;
      if (!(await lease(deps.clock.now()))) break;
    }
  } finally {
    await repo.releaseLease(deps.db, holder);
  }
  return summary;
}

function nextCheck(deps: ReconcileDeps, row: OrderRow): Date {
  return nextCheckAt(deps.clock.now(), deps.config.reconcile.afterMinutes, row.checks);
}

async function settle(
  deps: ReconcileDeps,
  row: OrderRow,
  outcome: string,
  summary: SweepSummary,
): Promise<void> {
  // Watched for a week whatever its outcome: a second payment may still come for it.
  if (!settlesNow(deps.clock.now(), row.created_at, outcome)) return later(deps, row, outcome);
  await orders.settle(deps.db, row.receipt, { at: deps.clock.now(), outcome, checks: row.checks + 1 });
  summary.settled++;
}

async function later(
  deps: ReconcileDeps,
  row: OrderRow,
  outcome: string | null,
  notAfter?: Date,
): Promise<void> {
  const checkAfter = checkAfterOf(nextCheck(deps, row), notAfter);
  await orders.checkLater(deps.db, row.receipt, {
    checks: row.checks + 1,
    checkAfter,
    outcome,
    lastError: null,
  });
}

async function refundStray(
  gateway: PaymentGateway,
  row: OrderRow,
  p: GatewayPayment,
  reason: string,
  summary: SweepSummary,
): Promise<void> {
  // The refund job's own function (the same key): both finding one stray refund it once.
  await refundStrayPayment(gateway, p, { receipt: row.receipt, reason });
  summary.refunded++;
}

async function checkOrder(deps: ReconcileDeps, row: OrderRow, summary: SweepSummary): Promise<void> {
  const gateway = deps.registerDeps.gatewayFor(row.mode, row.account_id);
  const now = deps.clock.now();
  const age = now.getTime() - row.created_at.getTime();
  let orderId = row.order_id;
  if (orderId === null) {
    // The create's answer never came back (timeout, crash): did the gateway make it?
    const found = await gateway.findOrderByReceipt(row.receipt);
    if (!found) return settle(deps, row, 'no_order', summary);
    orderId = found.id;
    summary.orphansFound++;
    await orders.attachOrder(deps.db, row.receipt, orderId);
    row = { ...row, order_id: orderId };
  }
  const payments = await gateway.fetchOrderPayments(orderId);
  if (row.kind === 'registration')
    return checkRegistrationOrder(deps, gateway, row, orderId, payments, age, summary);
  return checkMembershipOrder(deps, gateway, row, orderId, payments, age, summary);
}

async function checkRegistrationOrder(
  deps: ReconcileDeps,
  gateway: PaymentGateway,
  row: OrderRow,
  orderId: string,
  payments: GatewayPayment[],
  age: number,
  summary: SweepSummary,
): Promise<void> {
  const load = () => registrations.findByGatewayOrder(deps.db, orderId, row.mode);
  let awaitingRefund = false;
  for (let p of payments.filter(isLive)) {
    let reg = await load();
    if (!reg) {
      // An order no booking holds (its create answer was lost): nothing may keep its money.
      if (isUnrefunded(p)) await refundStray(gateway, row, p, 'orphaned_order', summary);
      continue;
    }
    const matches = paysFor(p, reg);
    if (p.status === 'authorized') {
      // Capture only what a booking still waits for; any other authorisation lapses at the gateway.
      if (!capturesFor(p, reg)) continue;
      p = await gateway.capturePayment(p.id, p.amount, p.currency);
      summary.captured++;
    }
    if (matches) {
      const outcome = await confirmFromGateway(deps.registerDeps, row.mode, orderId, p, 'reconciliation');
      if (outcome === 'confirmed') summary.confirmed++;
      reg = (await load())!;
    }
    const fate = paymentFate(p, reg);
    if (fate === 'refund_pending') awaitingRefund = true;
    else if (fate === 'stray') await refundStray(gateway, row, p, 'not_for_this_booking', summary);
  }
  const reg = await load();
  const verdict = registrationVerdict({
    booking: reg,
    payments,
    awaitingRefund,
    createdAt: row.created_at,
    ageMs: age,
    checkoutWindowMinutes: deps.config.checkoutWindowMinutes,
  });
  switch (verdict.act) {
    case 'end_refunded':
      if (await endRefundedAtGateway(deps.registerDeps, reg!.id, verdict.paymentId)) {
        summary.endedRefunded++;
        return settle(deps, row, 'refunded_at_gateway', summary);
      }
      return settle(deps, row, 'confirmed', summary);
    case 'expire':
      if (await expireUnpaid(deps.registerDeps, reg!.id)) {
        summary.expired++;
        return later(deps, row, 'expired');
      }
      return later(deps, row, 'unpaid', verdict.notAfter);
    case 'settle':
      return settle(deps, row, verdict.outcome, summary);
    case 'later':
      return later(deps, row, verdict.outcome, verdict.notAfter);
  }
}

async function checkMembershipOrder(
  deps: ReconcileDeps,
  gateway: PaymentGateway,
  row: OrderRow,
  orderId: string,
  payments: GatewayPayment[],
  age: number,
  summary: SweepSummary,
): Promise<void> {
  const expecting = () => memberships.findByPendingOrder(deps.db, row.mode, orderId);
  const spokenFor = async (paymentId: string) => {
    if ((await orders.recordedPayment(deps.db, row.receipt)) === paymentId) return true;
    return memberships.isPaymentBound(deps.db, paymentId);
  };
  for (let p of payments.filter(isLive)) {
    if (await spokenFor(p.id)) continue;
    const matches = paysForPeriod(p, await expecting());
    if (p.status === 'authorized') {
      if (!matches) continue;
      p = await gateway.capturePayment(p.id, p.amount, p.currency);
      summary.captured++;
    }
    if (
      matches &&
      (await confirmMembershipFromGateway(deps.membershipDeps, row.mode, orderId, p)) === 'confirmed'
    )
      summary.confirmed++;
    if (!(await spokenFor(p.id)) && isUnrefunded(p)) {
      // Captured for an order no membership waits for any more (cancelled, replaced by a
      // newer order, another amount): nobody keeps money for a period they do not get.
      await refundStray(gateway, row, p, 'not_for_this_membership', summary);
    }
  }
  const recorded = (await orders.recordedPayment(deps.db, row.receipt)) !== null;
  const expected = !recorded && (await expecting()) !== undefined;
  const verdict = membershipVerdict({
    recorded,
    expected,
    anyCaptured: payments.some((p) => p.captured),
    ageMs: age,
  });
  return verdict.act === 'settle'
    ? settle(deps, row, verdict.outcome, summary)
    : later(deps, row, verdict.outcome);
}

export async function listOrderChecks(db: Kysely<Database>, q: orders.OrderListQuery) {
  const rows = await orders.listPage(db, q);
  const page = rows.slice(0, q.limit);
  return {
    data: page.map((r) => ({
      receipt: r.receipt,
      kind: r.kind,
      mode: r.mode,
      accountId: r.account_id,
      amount: Number(r.amount_paise),
      currency: r.currency,
      orderId: r.order_id,
      paymentId: r.payment_id,
      status: r.settled_at === null ? ('open' as const) : ('settled' as const),
      outcome: r.outcome,
      checks: r.checks,
      lastError: r.last_error,
      createdAt: r.created_at.toISOString(),
      checkAfter: r.check_after.toISOString(),
      settledAt: r.settled_at?.toISOString() ?? null,
    })),
    hasMore: rows.length > q.limit,
    nextCursor: rows.length > q.limit ? page[page.length - 1]!.receipt : null,
  };
}
