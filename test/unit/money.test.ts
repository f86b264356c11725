// Rupees at the API edge, integer paise inside: the conversion and its refusals, and amounts
// written for people.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AppError } from '../../src/lib/errors.js';
import { formatMoney, MAX_RUPEES, paiseToRupees, rupeesToPaise } from '../../src/lib/money.js';

function refused(value: number, message: string): void {
  assert.throws(
    () => rupeesToPaise(value, 'price'),
    (err: unknown) =>
      err instanceof AppError &&
      err.status === 400 &&
      err.code === 'invalid_amount' &&
      err.message === message,
    String(value),
  );
}

describe('rupeesToPaise', () => {
  it('turns rupees with up to two decimals into whole paise', () => {
    assert.equal(rupeesToPaise(0, 'price'), 0);
    assert.equal(rupeesToPaise(1, 'price'), 100);
    assert.equal(rupeesToPaise(12.34, 'price'), 1234);
    assert.equal(rupeesToPaise(19.99, 'price'), 1999, '19.99 × 100 is 1998.9999… in floating point');
    assert.equal(rupeesToPaise(1.1, 'price'), 110);
    assert.equal(rupeesToPaise(0.01, 'price'), 1);
    assert.equal(rupeesToPaise(MAX_RUPEES, 'price'), 1_000_000_000, 'the maximum itself is allowed');
  });

  it('refuses a negative, infinite or missing number, naming the field', () => {
    for (const v of [-1, -0.01, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
      refused(v, 'price must be a number of rupees, 0 or more');
  });

  it('refuses more than the maximum', () => {
    assert.equal(MAX_RUPEES, 10_000_000);
    refused(MAX_RUPEES + 0.01, 'price must be at most 10000000 rupees');
    refused(MAX_RUPEES + 1, 'price must be at most 10000000 rupees');
  });

  it('refuses fractions of a paisa, whichever way they would round', () => {
    for (const v of [12.345, 0.004, 0.006, 0.001, 99.999, 1e-7, MAX_RUPEES - 0.001])
      refused(v, 'price must have at most two decimal places');
  });

  it('takes sums that floating point leaves a hair off a paisa', () => {
    assert.equal(rupeesToPaise(0.1 + 0.2, 'price'), 30, '0.30000000000000004');
    assert.equal(rupeesToPaise(1.15 * 3, 'price'), 345, '3.4499999999999997');
    assert.equal(rupeesToPaise(MAX_RUPEES - 0.01, 'price'), 999_999_999);
  });

  it('allows floating point a millionth of a paisa, and not a hair more', () => {
    // 1e-8 rupees is exactly 1e-6 paise in floating point: within the tolerance, it rounds to 0.
    assert.equal(rupeesToPaise(1e-8, 'price'), 0);
    assert.equal(rupeesToPaise(1 + 1e-8, 'price'), 100);
    refused(1.1e-8, 'price must have at most two decimal places');
  });

  it('names the field it was given in every refusal', () => {
    assert.throws(
      () => rupeesToPaise(-1, 'tiers[2].price'),
      (err: unknown) => err instanceof AppError && err.message.startsWith('tiers[2].price must'),
    );
    assert.throws(
      () => rupeesToPaise(0.001, 'amount'),
      (err: unknown) => err instanceof AppError && err.message.startsWith('amount must'),
    );
  });

  it('gives back exactly the paise of every amount with two decimals up to the maximum, and paiseToRupees inverts it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_RUPEES * 100 }), (paise) => {
        const rupees = paise / 100;
        return rupeesToPaise(rupees, 'price') === paise && paiseToRupees(paise) === rupees;
      }),
      { seed: 20260101, numRuns: 2000 },
    );
  });
});

describe('paiseToRupees', () => {
  it('divides by 100 and rounds to the paisa', () => {
    assert.equal(paiseToRupees(1234), 12.34);
    assert.equal(paiseToRupees(0), 0);
    assert.equal(paiseToRupees(1234.6), 12.35);
    assert.equal(paiseToRupees(1234.4), 12.34);
  });
});

describe('formatMoney', () => {
  it('writes whole rupees without paise and other amounts with two decimals', () => {
    assert.equal(formatMoney(49900), '₹499');
    assert.equal(formatMoney(0), '₹0');
    assert.equal(formatMoney(124950), '₹1,249.50');
    assert.equal(formatMoney(1), '₹0.01');
    assert.equal(formatMoney(50), '₹0.50');
    assert.equal(formatMoney(-5050), '-₹50.50', 'a negative balance');
  });

  it('groups digits the Indian way, in lakhs and crores', () => {
    assert.equal(formatMoney(100_000_00), '₹1,00,000');
    assert.equal(formatMoney(12_345_678_90), '₹1,23,45,678.90');
  });

  it('writes the currency it is given, rupees by default', () => {
    assert.equal(formatMoney(49900, 'INR'), '₹499');
    assert.equal(formatMoney(49900, 'USD'), '$499');
    assert.equal(formatMoney(124950, 'EUR'), '€1,249.50');
  });
});
