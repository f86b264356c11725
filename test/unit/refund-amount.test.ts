// What of a payment is still to refund: the amount every full refund asks the gateway for.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unrefundedPaise } from '../../src/modules/payments/refund-amount.js';

describe('unrefundedPaise', () => {
  it('is the whole amount of a captured payment nothing was refunded from', () => {
    assert.equal(unrefundedPaise({ captured: true, amount: 1200_00, amountRefunded: 0 }), 1200_00);
  });

  it('is what is left after a partial refund', () => {
    assert.equal(unrefundedPaise({ captured: true, amount: 1200_00, amountRefunded: 200_00 }), 1000_00);
  });

  it('is 0 once refunded in full (or more), and for a payment never captured', () => {
    assert.equal(unrefundedPaise({ captured: true, amount: 1200_00, amountRefunded: 1200_00 }), 0);
    assert.equal(unrefundedPaise({ captured: true, amount: 1200_00, amountRefunded: 1500_00 }), 0);
    assert.equal(unrefundedPaise({ captured: false, amount: 1200_00, amountRefunded: 0 }), 0);
  });
});
