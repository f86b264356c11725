// A booking's refund amounts (docs/decisions/20-booking-lifecycle.md, docs/decisions/28-a-persons-day.md): what is left to give back, what a
// refund that ends a booking gives, how a partial refund ends, what the booking keeps, and the
// gateway key that makes one change one refund.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  endingRefundPaise,
  keptPaise,
  partRefundOutcome,
  refundablePaise,
  refundKey,
} from '../../src/modules/registrations/lifecycle/refund-amounts.js';

describe('refundablePaise: what is left to give back', () => {
  it('is the price less what was refunded before, never below 0', () => {
    assert.equal(refundablePaise({ amount_paise: 49_900, refunded_paise: 0 }), 49_900);
    assert.equal(
      refundablePaise({ amount_paise: '49900', refunded_paise: 10_000 }),
      39_900,
      'numeric columns arrive as text',
    );
    assert.equal(refundablePaise({ amount_paise: 49_900, refunded_paise: 49_900 }), 0);
    assert.equal(refundablePaise({ amount_paise: 49_900, refunded_paise: 50_000 }), 0);
  });
});

describe('endingRefundPaise: a cancel or refund that ends the booking', () => {
  it('gives back all that is left when no amount is asked', () => {
    assert.equal(endingRefundPaise(39_900), 39_900);
  });

  it('gives back what a cancellation policy leaves, never more than is left nor less than 0', () => {
    assert.equal(endingRefundPaise(49_900, 44_910), 44_910, 'a 10 % fee kept');
    assert.equal(endingRefundPaise(49_900, 0), 0, 'a policy that keeps everything');
    assert.equal(endingRefundPaise(10_000, 49_900), 10_000, 'only what is left');
    assert.equal(endingRefundPaise(49_900, -1), 0);
  });
});

describe('partRefundOutcome: giving back part of a confirmed booking', () => {
  it('keeps the booking confirmed below what is left, refunds it at exactly that, refuses beyond it', () => {
    assert.equal(partRefundOutcome(49_900, 10_000), 'confirmed');
    assert.equal(partRefundOutcome(49_900, 49_899), 'confirmed');
    assert.equal(partRefundOutcome(49_900, 49_900), 'refunded');
    assert.equal(partRefundOutcome(49_900, 49_901), 'exceeds');
  });
});

describe('keptPaise: what the booking keeps of its price after a refund', () => {
  it('is the price less what was refunded before and now', () => {
    assert.equal(keptPaise(49_900, 0, 49_900), 0);
    assert.equal(keptPaise('49900', 10_000, 20_000), 19_900);
    assert.equal(keptPaise(49_900, 0, 44_910), 4_990);
  });
});

describe('refundKey: one change, one refund at the gateway', () => {
  it('names the booking, how the claim ends and the amount', () => {
    assert.equal(refundKey('reg_abc', 'cancelled', 44_910), 'reg_abc-c44910');
    assert.equal(refundKey('reg_abc', 'refunded', 49_900), 'reg_abc-r49900');
    assert.equal(refundKey('reg_abc', 'confirmed', 10_000), 'reg_abc-p10000');
    assert.equal(refundKey('reg_abc', 'confirmed', 10_000, 0), 'reg_abc-p10000');
  });

  it('includes what was refunded before, so a second part of the same amount is a refund of its own', () => {
    assert.equal(refundKey('reg_abc', 'confirmed', 10_000, 10_000), 'reg_abc-p10000+10000');
    assert.equal(refundKey('reg_abc', 'refunded', 29_900, 20_000), 'reg_abc-r20000+29900');
    assert.notEqual(
      refundKey('reg_abc', 'confirmed', 10_000, 10_000),
      refundKey('reg_abc', 'confirmed', 10_000),
    );
  });
});
