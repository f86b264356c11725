import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  bookingFees,
  gatewayFeePaise,
  platformFeePaise,
  platformFeeRate,
} from '../../src/modules/payments/fees.js';

describe('fees: 4.5 / 3.5 / 2.5 / 1.75 % by paid-ticket ordinal, held to ₹3–₹75, plus 3 % gateway', () => {
  it('chooses the percentage by how many paid tickets the event sold before', () => {
    assert.equal(platformFeeRate(1), 0.045);
    assert.equal(platformFeeRate(100), 0.045);
    assert.equal(platformFeeRate(101), 0.035);
    assert.equal(platformFeeRate(500), 0.035);
    assert.equal(platformFeeRate(501), 0.025);
    assert.equal(platformFeeRate(2000), 0.025);
    assert.equal(platformFeeRate(2001), 0.0175);
  });

  it('holds the platform fee between 3 and 75 rupees per ticket', () => {
    assert.equal(platformFeePaise(1000_00, 1), 45_00); // 4.5 % of ₹1,000
    assert.equal(platformFeePaise(50_00, 1), 3_00); // 4.5 % of ₹50 is ₹2.25: the minimum applies
    assert.equal(platformFeePaise(5000_00, 1), 75_00); // 4.5 % of ₹5,000 is ₹225: the maximum applies
    assert.equal(platformFeePaise(1000_00, 3000), 17_50);
    assert.equal(platformFeePaise(0, 1), 0, 'free tickets cost nothing');
  });

  it('adds a 3 % gateway charge', () => {
    assert.equal(gatewayFeePaise(499_50), 14_99); // 1498.5 rounds to 1499
    assert.equal(gatewayFeePaise(0), 0);
  });

  it('charges each ticket of a booking at its own ordinal', () => {
    // Tickets 100 and 101 of the event: one at 4.5 %, one at 3.5 % of ₹1,000.
    assert.deepEqual(bookingFees(1000_00, 2, 98), { platform: 45_00 + 45_00, gateway: 60_00 });
    assert.deepEqual(bookingFees(1000_00, 2, 99), { platform: 45_00 + 35_00, gateway: 60_00 });
  });

  it('applies the rate of each ordinal band to the price, then the bounds', () => {
    assert.equal(platformFeePaise(1000_00, 100), 45_00);
    assert.equal(platformFeePaise(1000_00, 101), 35_00);
    assert.equal(platformFeePaise(1000_00, 500), 35_00);
    assert.equal(platformFeePaise(1000_00, 501), 25_00);
    assert.equal(platformFeePaise(1000_00, 2000), 25_00);
    assert.equal(platformFeePaise(1000_00, 2001), 17_50);
    assert.equal(platformFeePaise(100_00, 3000), 3_00, '1.75 % of ₹100 is under the ₹3 minimum');
    assert.equal(platformFeePaise(10000_00, 2001), 75_00, '1.75 % of ₹10,000 is over the ₹75 maximum');
  });

  it('charges nothing for free tickets, however many', () => {
    assert.deepEqual(bookingFees(0, 5, 0), { platform: 0, gateway: 0 });
  });

  it('charges no fee, and never a negative one, on a price below zero', () => {
    assert.equal(platformFeePaise(-100_00, 1), 0);
    assert.equal(gatewayFeePaise(-100_00), 0);
    assert.deepEqual(bookingFees(-100_00, 2, 0), { platform: 0, gateway: 0 });
  });

  it('adds up each ticket of a booking with its own bounds', () => {
    // ₹50 tickets: 4.5 % is ₹2.25, so each pays the ₹3 minimum; the gateway takes 3 % of each.
    assert.deepEqual(bookingFees(50_00, 3, 0), { platform: 9_00, gateway: 4_50 });
  });
});
