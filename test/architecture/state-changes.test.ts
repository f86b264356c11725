// One function per state change (issue #23), proved over the source with the TypeScript
// compiler: each primitive a state change is made of is reached only through that change's
// one function, and that function is called by every path that makes the change.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sourceIndex } from './callers.js';

const CONFIRMATION = 'src/modules/registrations/confirmation.ts';
const ENDINGS = 'src/modules/registrations/endings.ts';

describe('a booking ends through applyBookingEnd (a part refunded through applyPartialRefund)', () => {
  test('its pieces (seats freed, promo reservation released, refund recorded, the holder’s mail) are private to it', () => {
    const src = sourceIndex();
    for (const piece of ['freeSeats', 'applyPendingEnd']) {
      assert.equal(src.exports(ENDINGS, piece), false, `${piece} must not be exported`);
      assert.deepEqual(src.callers(ENDINGS, piece), [`${ENDINGS}#applyBookingEnd`], piece);
    }
    // A refund's entries and mail are the same whether it ends the booking or gives back a part.
    for (const piece of ['applyRefund', 'bookingMail']) {
      assert.equal(src.exports(ENDINGS, piece), false, `${piece} must not be exported`);
      assert.deepEqual(
        src.callers(ENDINGS, piece),
        [`${ENDINGS}#applyBookingEnd`, `${ENDINGS}#applyPartialRefund`],
        piece,
      );
    }
  });

  test('the ledger refund entries, the credit note and releasing seats are reached only from it', () => {
    const src = sourceIndex();
    assert.deepEqual(src.callers('src/modules/ledger/ledger.service.ts', 'recordTicketRefund'), [
      `${ENDINGS}#applyRefund`,
    ]);
    assert.deepEqual(src.callers('src/modules/ledger/ledger.service.ts', 'recordTicketPartialRefund'), [
      `${ENDINGS}#applyRefund`,
    ]);
    assert.deepEqual(src.callers('src/modules/gst/gst.service.ts', 'issueCreditNote'), [
      `${ENDINGS}#applyRefund`,
    ]);
    assert.deepEqual(src.callers('src/modules/registrations/promo.service.ts', 'releaseReservation'), [
      `${ENDINGS}#applyPendingEnd`,
    ]);
  });

  test('only the lifecycle’s changeBooking calls it, and every path that changes a booking calls changeBooking', () => {
    const src = sourceIndex();
    const CHANGE = 'src/modules/registrations/lifecycle/change-booking.ts';
    assert.deepEqual(src.callers(ENDINGS, 'applyBookingEnd'), [
      `${CHANGE}#completeRefund`,
      `${CHANGE}#end`,
      `${CHANGE}#refundedElsewhere`,
    ]);
    assert.deepEqual(src.callers(ENDINGS, 'applyPartialRefund'), [`${CHANGE}#completeRefund`]);
    assert.deepEqual(src.callers(CONFIRMATION, 'applyTransfer'), [`${CHANGE}#transfer`]);
    // Those appliers are private to change-booking.ts: reached only through changeBooking's table of them.
    for (const f of [
      'completeRefund',
      'end',
      'refundedElsewhere',
      'transfer',
      'confirm',
      'claimRefund',
      'releaseClaim',
    ])
      assert.equal(src.exports(CHANGE, f), false, f);
    assert.deepEqual(src.callers('src/modules/registrations/lifecycle/change-booking.ts', 'changeBooking'), [
      'src/modules/registrations/actions.service.ts#approve',
      'src/modules/registrations/actions.service.ts#endLoaded',
      'src/modules/registrations/actions.service.ts#endRefundedAtGateway',
      'src/modules/registrations/actions.service.ts#expireUnpaid',
      'src/modules/registrations/actions.service.ts#reject',
      'src/modules/registrations/actions.service.ts#transferLoaded',
      'src/modules/registrations/confirm-payment.service.ts#confirmPaid',
      'src/modules/registrations/lifecycle/refund-claim.ts#claimAndRefund',
      'src/modules/registrations/lifecycle/refund-claim.ts#finishClaim',
      'src/modules/registrations/mark-paid.service.ts#markPaid',
      'src/modules/registrations/offline-deadlines.ts#lapseIfDue',
      'src/modules/registrations/offline-refund.service.ts#refundOffline',
    ]);
    // The organiser's cancel and refund, the attendee's cancellation and the event's deletion all end through endLoaded.
    assert.deepEqual(src.callers('src/modules/registrations/actions.service.ts', 'endLoaded'), [
      'src/modules/attendee/attendee.service.ts#cancelTicket',
      'src/modules/registrations/actions.service.ts#end',
      'src/modules/registrations/actions.service.ts#settleEventPayments',
    ]);
  });
});

describe('money is refunded at the gateway through one function', () => {
  test('refundAtGateway is the only caller of the gateway’s refund', () => {
    assert.deepEqual(
      sourceIndex().methodCallers('src/modules/payments/gateway.ts', 'PaymentGateway', 'refundPayment'),
      ['src/modules/payments/payments.service.ts#refundAtGateway'],
    );
  });

  test('every refund reaches it: the organiser’s, the event’s deletion, the refund job, the stray refund (job and sweep alike), a membership charge no period keeps', () => {
    assert.deepEqual(sourceIndex().callers('src/modules/payments/payments.service.ts', 'refundAtGateway'), [
      'src/modules/memberships/charge-refunds.ts#refundChargeJob',
      'src/modules/reconciliation/stray-payments.ts#refundStrayPayment',
      'src/modules/registrations/actions.service.ts#settleEventPayments',
      'src/modules/registrations/lifecycle/refund-claim.ts#finishClaim',
      'src/modules/registrations/registrations.jobs.ts#refundJob',
    ]);
    assert.deepEqual(
      sourceIndex().callers('src/modules/reconciliation/stray-payments.ts', 'refundStrayPayment'),
      [
        'src/modules/reconciliation/reconcile.service.ts#refundStray',
        'src/modules/reconciliation/stray-payments.ts#refundStrayJob',
      ],
    );
  });
});

describe('a membership payment is recorded by applyMembershipPayment', () => {
  test('the ledger’s membership entry and the payment mail are reached only from it', () => {
    assert.deepEqual(
      sourceIndex().callers('src/modules/ledger/ledger.service.ts', 'recordMembershipPayment'),
      ['src/modules/memberships/membership-payment.ts#applyMembershipPayment'],
    );
    assert.deepEqual(
      sourceIndex().callers('src/modules/memberships/membership-mail.jobs.ts', 'queuePaymentMail'),
      ['src/modules/memberships/membership-payment.ts#applyMembershipPayment'],
    );
  });

  test('a fixed term’s payment and a subscription’s charge both call it', () => {
    assert.deepEqual(
      sourceIndex().callers('src/modules/memberships/membership-payment.ts', 'applyMembershipPayment'),
      [
        'src/modules/memberships/subscribe.service.ts#applyTermPayment',
        'src/modules/memberships/subscription-events.service.ts#applyChange',
      ],
    );
  });
});

describe('entry at the door is one rule', () => {
  test('the scan, offline sync and the admit statement all take it from entry-rule.ts', () => {
    const src = sourceIndex();
    assert.deepEqual(src.callers('src/modules/checkin/entry-rule.ts', 'refusalOf'), [
      'src/modules/checkin/checkin.service.ts#refusal',
      'src/modules/checkin/door-sync.service.ts#refusalOf',
    ]);
    assert.deepEqual(src.callers('src/modules/checkin/entry-rule.ts', 'admissibleSql'), [
      'src/modules/checkin/checkin.repo.ts#admitGroup',
    ]);
  });
});
