// The ledger's lines for a booking paid outside the gateway (docs/decisions/24-payment-outside-the-gateway.md),
// pure: the sale is the gross as `offline_sale` and the platform fee against the balance, with no
// gateway charge; its refund gives back the gross as `offline_refund` and reverses the fee; the
// offline kinds are never payable, so only the fee and its reversal touch the balance.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  NEVER_PAYABLE,
  net,
  offlineRefundLines,
  offlineSaleLines,
  refundOfSale,
  saleLines,
  type EntryLine,
} from '../../src/modules/ledger/entries.js';
import { bookingFees } from '../../src/modules/payments/fees.js';

/** What a balance counts of `lines`: everything but the kinds that are never payable. */
const payable = (lines: readonly EntryLine[]) =>
  net(lines.filter((l) => !(NEVER_PAYABLE as readonly string[]).includes(l.kind)));

describe('offline sale and refund lines', () => {
  it('a sale: the gross as offline_sale, the platform fee out, no gateway charge', () => {
    assert.deepEqual(offlineSaleLines(50_000, 1_475), [
      { kind: 'offline_sale', amountPaise: 50_000 },
      { kind: 'platform_fee', amountPaise: -1_475 },
    ]);
    assert.ok(!offlineSaleLines(50_000, 1_475).some((l) => l.kind === 'gateway_fee'));
    // With the fee the service really charges for a ₹500 booking.
    const fee = bookingFees(50_000, 1, 0).platform;
    assert.ok(fee > 0);
    assert.equal(net(offlineSaleLines(50_000, fee)), 50_000 - fee);
  });

  it('a refund: the gross back as offline_refund and the platform fee reversed', () => {
    assert.deepEqual(offlineRefundLines(50_000, 1_475), [
      { kind: 'offline_refund', amountPaise: -50_000 },
      { kind: 'platform_fee_reversal', amountPaise: 1_475 },
    ]);
    assert.equal(net([...offlineSaleLines(50_000, 1_475), ...offlineRefundLines(50_000, 1_475)]), 0);
  });

  it('never payable: the balance sees only the fee, which may take it below zero, and its reversal', () => {
    assert.deepEqual([...NEVER_PAYABLE].sort(), ['offline_refund', 'offline_sale']);
    const sale = offlineSaleLines(50_000, 1_475);
    assert.equal(payable(sale), -1_475, 'the organiser holds the gross; the fee is owed at once');
    assert.equal(payable([...sale, ...offlineRefundLines(50_000, 1_475)]), 0, 'the fee comes back');
    // A gateway sale's gross is payable: the kinds differ from the offline ones.
    assert.equal(payable(saleLines(50_000, 1_475, 1_000)), 47_525);
    for (const l of [...sale, ...offlineRefundLines(50_000, 1_475)])
      if (l.kind.startsWith('platform_fee'))
        assert.ok(!(NEVER_PAYABLE as readonly string[]).includes(l.kind));
  });

  it('a free or fee-less sale writes no zero lines; a gateway refund of an offline sale finds nothing', () => {
    assert.deepEqual(offlineSaleLines(50_000, 0), [{ kind: 'offline_sale', amountPaise: 50_000 }]);
    assert.deepEqual(offlineSaleLines(0, 0), []);
    assert.deepEqual(offlineRefundLines(50_000, 0), [{ kind: 'offline_refund', amountPaise: -50_000 }]);
    // refundOfSale follows ticket_sale: an offline sale is refunded only by offlineRefundLines.
    assert.deepEqual(refundOfSale(offlineSaleLines(50_000, 1_475)), []);
  });

  it('refuses amounts that are not whole paise of 0 or more', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) {
      assert.throws(() => offlineSaleLines(bad, 0), RangeError);
      assert.throws(() => offlineSaleLines(0, bad), RangeError);
      assert.throws(() => offlineRefundLines(bad, 0), RangeError);
      assert.throws(() => offlineRefundLines(0, bad), RangeError);
    }
  });
});
