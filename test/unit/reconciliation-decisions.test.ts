// What the reconciliation sweep decides (reconcile.service.ts's header, docs/decisions/08-memberships.md,
// docs/decisions/20-booking-lifecycle.md): when an order is due and asked again, which payment is captured, kept, awaited or
// refunded as a stray, and how each order ends. Every captured paisa ends in exactly one place.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GatewayPayment } from '../../src/modules/payments/gateway.js';
import {
  capturesFor,
  checkAfterOf,
  dueBefore,
  isLive,
  isUnrefunded,
  leftToRefund,
  MAX_BACKOFF_MS,
  membershipVerdict,
  nextCheckAt,
  paymentFate,
  paysFor,
  paysForPeriod,
  refundableOn,
  registrationVerdict,
  settlesNow,
  strayRefundKey,
  WATCH_MS,
} from '../../src/modules/reconciliation/decisions.js';

const MIN = 60_000;
const DAY = 86_400_000;
const now = new Date('2026-12-05T10:00:00Z');
const plus = (d: Date, ms: number) => new Date(d.getTime() + ms);

function payment(over: Partial<GatewayPayment> = {}): GatewayPayment {
  return {
    id: 'pay_1',
    orderId: 'order_1',
    amount: 49_900,
    currency: 'INR',
    status: 'captured',
    captured: true,
    amountRefunded: 0,
    ...over,
  };
}
const authorised = payment({ status: 'authorized', captured: false });

describe('when an order is due and asked again', () => {
  it('takes orders created RECONCILE_AFTER_MINUTES ago, or the checkout window ago when that is shorter', () => {
    assert.deepEqual(dueBefore(now, 30, 15), plus(now, -15 * MIN));
    assert.deepEqual(dueBefore(now, 10, 15), plus(now, -10 * MIN));
  });

  it('asks again after RECONCILE_AFTER_MINUTES, doubling at each check, at most daily', () => {
    assert.equal(MAX_BACKOFF_MS, DAY);
    assert.deepEqual(nextCheckAt(now, 15, 0), plus(now, 15 * MIN));
    assert.deepEqual(nextCheckAt(now, 15, 1), plus(now, 30 * MIN));
    assert.deepEqual(nextCheckAt(now, 15, 3), plus(now, 120 * MIN));
    assert.deepEqual(nextCheckAt(now, 15, 6), plus(now, 960 * MIN), '16 hours');
    assert.deepEqual(nextCheckAt(now, 15, 7), plus(now, DAY), '32 hours is capped at a day');
    assert.deepEqual(nextCheckAt(now, 15, 5000), plus(now, DAY), 'however many checks');
  });

  it('waits at least a minute, whatever RECONCILE_AFTER_MINUTES says', () => {
    assert.deepEqual(nextCheckAt(now, 0, 0), plus(now, MIN));
    assert.deepEqual(nextCheckAt(now, 0.5, 0), plus(now, MIN));
    assert.deepEqual(nextCheckAt(now, 0, 2), plus(now, 4 * MIN));
    assert.deepEqual(nextCheckAt(now, 2, 0), plus(now, 2 * MIN));
  });

  it('asks an unpaid booking again by its window’s end when that comes before the next check', () => {
    const next = plus(now, 30 * MIN);
    assert.deepEqual(checkAfterOf(next, plus(now, 5 * MIN)), plus(now, 5 * MIN));
    assert.deepEqual(checkAfterOf(next, plus(now, 45 * MIN)), next);
    assert.deepEqual(checkAfterOf(next), next);
  });

  it('settles an order once its week is over, or at once when the gateway never made it', () => {
    assert.equal(WATCH_MS, 7 * DAY);
    const created = plus(now, -WATCH_MS);
    assert.equal(settlesNow(now, created, 'confirmed'), true, 'exactly a week');
    assert.equal(settlesNow(now, plus(created, 1), 'confirmed'), false, 'a millisecond short of it');
    assert.equal(settlesNow(now, now, 'refunded'), false);
    assert.equal(settlesNow(now, now, 'no_order'), true);
  });
});

describe('what becomes of a payment', () => {
  it('is live while authorised or captured', () => {
    assert.equal(isLive(payment()), true);
    assert.equal(isLive(authorised), true);
    for (const status of ['created', 'refunded', 'failed'] as const)
      assert.equal(isLive(payment({ status })), false, status);
  });

  it('holds money to give back while captured and not refunded in full', () => {
    assert.equal(isUnrefunded(payment()), true);
    assert.equal(isUnrefunded(payment({ amountRefunded: 49_899 })), true);
    assert.equal(isUnrefunded(payment({ amountRefunded: 49_900 })), false);
    assert.equal(
      isUnrefunded(authorised),
      false,
      'an authorisation lapses at the gateway; there is nothing to refund',
    );
    assert.equal(leftToRefund(payment({ amountRefunded: 20_000 })), 29_900);
    assert.equal(leftToRefund(payment()), 49_900);
  });

  it('refunds a stray only on the order it was found on, only captured money left to refund', () => {
    assert.equal(refundableOn(payment(), 'order_1'), true);
    assert.equal(refundableOn(payment(), 'order_2'), false);
    assert.equal(refundableOn(payment({ orderId: null }), 'order_1'), false);
    assert.equal(refundableOn(payment({ amountRefunded: 49_900 }), 'order_1'), false);
    assert.equal(refundableOn(authorised, 'order_1'), false);
  });

  it('refunds a stray under one key per payment, in the characters and length the gateway takes', () => {
    assert.equal(strayRefundKey('pay_ABC123'), 'stray_pay_ABC123');
    assert.equal(strayRefundKey('pay.A/B c-d'), 'stray_pay_A_B_c-d');
    assert.equal(strayRefundKey('p'.repeat(60)), `stray_${'p'.repeat(34)}`);
    assert.equal(strayRefundKey('p'.repeat(60)).length, 40);
  });

  it('pays for a booking when amount and currency are the booking’s', () => {
    const booking = { status: 'pending' as const, amount_paise: '49900', currency: 'INR' };
    assert.equal(paysFor(payment(), booking), true, 'numeric columns arrive as text');
    assert.equal(paysFor(payment({ amount: 49_800 }), booking), false);
    assert.equal(paysFor(payment({ currency: 'USD' }), booking), false);
    assert.equal(capturesFor(authorised, booking), true);
    assert.equal(
      capturesFor(authorised, { ...booking, status: 'confirmed' }),
      false,
      'a booking paid already waits for nothing',
    );
    assert.equal(capturesFor(authorised, { ...booking, status: 'cancelled' }), false);
    assert.equal(
      capturesFor(payment({ status: 'authorized', captured: false, amount: 100 }), booking),
      false,
      'another amount lapses',
    );
  });

  it('is kept by its booking, awaited while its refund job runs, or refunded now as a stray', () => {
    const bound = { status: 'confirmed' as const, payment_id: 'pay_1', kept_paise: 0 };
    assert.equal(paymentFate(payment(), bound), 'kept');
    assert.equal(
      paymentFate(payment(), { ...bound, status: 'cancelled' }),
      'refund_pending',
      'cancelled meanwhile: its refund job is on the way',
    );
    assert.equal(paymentFate(payment(), { ...bound, status: 'refunding' }), 'refund_pending');
    assert.equal(
      paymentFate(payment({ amountRefunded: 49_900 }), { ...bound, status: 'refunded' }),
      'kept',
      'refunded in full: nothing to wait for',
    );
    assert.equal(
      paymentFate(payment({ amountRefunded: 39_900 }), { ...bound, status: 'cancelled', kept_paise: 10_000 }),
      'kept',
      'the part a cancellation policy kept stays',
    );
    assert.equal(
      paymentFate(payment({ amountRefunded: 39_899 }), { ...bound, status: 'cancelled', kept_paise: 10_000 }),
      'refund_pending',
      'a paisa more than the policy keeps',
    );
    assert.equal(
      paymentFate(payment({ status: 'authorized', captured: false }), { ...bound, status: 'cancelled' }),
      'kept',
      'nothing captured to give back',
    );
    assert.equal(paymentFate(payment({ id: 'pay_2' }), bound), 'stray', 'a second payment of a paid order');
    assert.equal(paymentFate(payment({ id: 'pay_2', amountRefunded: 49_900 }), bound), 'nothing');
    assert.equal(
      paymentFate(payment({ id: 'pay_2', status: 'authorized', captured: false }), bound),
      'nothing',
    );
  });
});

describe('how a registration order ends', () => {
  const createdAt = plus(now, -20 * MIN);
  const base = {
    payments: [payment()],
    awaitingRefund: false,
    createdAt,
    ageMs: 20 * MIN,
    checkoutWindowMinutes: 15,
  };
  const booking = (
    status: 'pending' | 'confirmed' | 'cancelled' | 'refunded' | 'refunding',
    payment_id: string | null = 'pay_1',
  ) => ({ status, payment_id });

  it('settles an order no booking holds: its captured money was refunded as a stray', () => {
    assert.deepEqual(registrationVerdict({ ...base, booking: undefined }), {
      act: 'settle',
      outcome: 'orphan_refunded',
    });
    assert.deepEqual(registrationVerdict({ ...base, booking: undefined, payments: [authorised] }), {
      act: 'settle',
      outcome: 'orphaned',
    });
    assert.deepEqual(registrationVerdict({ ...base, booking: undefined, payments: [] }), {
      act: 'settle',
      outcome: 'orphaned',
    });
  });

  it('waits for a refund on the way before anything else', () => {
    assert.deepEqual(registrationVerdict({ ...base, booking: booking('cancelled'), awaitingRefund: true }), {
      act: 'later',
      outcome: 'refund_pending',
    });
  });

  it('settles a confirmed booking, or ends it as refunded when the gateway refunded its payment in full', () => {
    assert.deepEqual(registrationVerdict({ ...base, booking: booking('confirmed') }), {
      act: 'settle',
      outcome: 'confirmed',
    });
    const refunded = payment({ amountRefunded: 49_900 });
    assert.deepEqual(
      registrationVerdict({
        ...base,
        booking: booking('confirmed'),
        payments: [payment({ id: 'pay_0' }), refunded],
      }),
      { act: 'end_refunded', paymentId: 'pay_1' },
    );
    assert.deepEqual(
      registrationVerdict({
        ...base,
        booking: booking('confirmed'),
        payments: [payment({ amountRefunded: 49_899 })],
      }),
      { act: 'settle', outcome: 'confirmed' },
      'refunded in part',
    );
    assert.deepEqual(
      registrationVerdict({ ...base, booking: booking('confirmed', 'pay_9'), payments: [refunded] }),
      { act: 'settle', outcome: 'confirmed' },
      'another payment was refunded',
    );
    assert.deepEqual(
      registrationVerdict({ ...base, booking: booking('confirmed', null), payments: [] }),
      { act: 'settle', outcome: 'confirmed' },
      'a free booking on the order',
    );
  });

  it('expires a pending booking once its checkout window has passed, and asks again by the window’s end before', () => {
    const windowEnd = plus(createdAt, 15 * MIN);
    assert.deepEqual(registrationVerdict({ ...base, booking: booking('pending', null) }), {
      act: 'expire',
      notAfter: windowEnd,
    });
    assert.deepEqual(
      registrationVerdict({ ...base, booking: booking('pending', null), ageMs: 15 * MIN }),
      { act: 'expire', notAfter: windowEnd },
      'exactly at the window’s end',
    );
    assert.deepEqual(
      registrationVerdict({ ...base, booking: booking('pending', null), ageMs: 15 * MIN - 1 }),
      { act: 'later', outcome: 'unpaid', notAfter: windowEnd },
    );
  });

  it('settles an ended booking whose payment is accounted for; watches one cancelled unpaid for its week', () => {
    assert.deepEqual(registrationVerdict({ ...base, booking: booking('cancelled') }), {
      act: 'settle',
      outcome: 'cancelled',
    });
    assert.deepEqual(registrationVerdict({ ...base, booking: booking('refunded') }), {
      act: 'settle',
      outcome: 'refunded',
    });
    assert.deepEqual(
      registrationVerdict({ ...base, booking: booking('cancelled', null), payments: [] }),
      { act: 'later', outcome: 'cancelled' },
      'a payment may still come',
    );
    assert.deepEqual(
      registrationVerdict({
        ...base,
        booking: booking('cancelled', null),
        payments: [],
        ageMs: WATCH_MS - 1,
      }),
      { act: 'later', outcome: 'cancelled' },
    );
    assert.deepEqual(
      registrationVerdict({ ...base, booking: booking('cancelled', null), payments: [], ageMs: WATCH_MS }),
      { act: 'settle', outcome: 'cancelled' },
    );
  });
});

describe('membership orders', () => {
  it('pay for a pending period when the amount is its price, in rupees', () => {
    assert.equal(paysForPeriod(payment(), { pending_amount_paise: 49_900 }), true);
    assert.equal(paysForPeriod(payment(), { pending_amount_paise: '49900' }), true);
    assert.equal(paysForPeriod(payment(), { pending_amount_paise: 50_000 }), false);
    assert.equal(paysForPeriod(payment(), { pending_amount_paise: null }), false);
    assert.equal(paysForPeriod(payment({ currency: 'USD' }), { pending_amount_paise: 49_900 }), false);
    assert.equal(paysForPeriod(payment(), undefined), false, 'no membership waits for this order');
  });

  it('settle confirmed once a payment was recorded; otherwise are watched for their week, then settle', () => {
    const f = { recorded: false, expected: false, anyCaptured: false, ageMs: DAY };
    assert.deepEqual(membershipVerdict({ ...f, recorded: true, expected: true, anyCaptured: true }), {
      act: 'settle',
      outcome: 'confirmed',
    });
    assert.deepEqual(membershipVerdict({ ...f, expected: true }), { act: 'later', outcome: 'unpaid' });
    assert.deepEqual(membershipVerdict({ ...f, expected: true, anyCaptured: true }), {
      act: 'later',
      outcome: 'unpaid',
    });
    assert.deepEqual(membershipVerdict({ ...f, expected: true, ageMs: WATCH_MS }), {
      act: 'settle',
      outcome: 'unpaid',
    });
    assert.deepEqual(membershipVerdict(f), { act: 'later', outcome: 'not_expected' });
    assert.deepEqual(membershipVerdict({ ...f, ageMs: WATCH_MS - 1 }), {
      act: 'later',
      outcome: 'not_expected',
    });
    assert.deepEqual(membershipVerdict({ ...f, ageMs: WATCH_MS }), { act: 'settle', outcome: 'unpaid' });
    assert.deepEqual(
      membershipVerdict({ ...f, anyCaptured: true }),
      { act: 'settle', outcome: 'refunded' },
      'captured for an order nobody waits for: refunded as a stray',
    );
    assert.deepEqual(membershipVerdict({ ...f, expected: true, anyCaptured: true, ageMs: WATCH_MS }), {
      act: 'settle',
      outcome: 'refunded',
    });
  });
});
