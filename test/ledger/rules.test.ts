// Pure rules of the ledger and payouts: working days, clearing, entry arithmetic,
// payout state moves, UPI ids.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  membershipLines,
  net,
  refundLines,
  refundOfSale,
  saleLines,
} from '../../src/modules/ledger/entries.js';
import { addWorkingDays, clearedUpTo, istWeekday } from '../../src/modules/ledger/working-days.js';
import { canMove, creditsBack, statusFor } from '../../src/modules/payouts/payout-state.js';
import { isUpiId, normaliseUpiId } from '../../src/lib/upi.js';
import { bookingFees } from '../../src/modules/payments/fees.js';
import { watchScans } from '../helpers/scan-watch.js';

// 2026-03-02 is a Monday. 10:00 India time is 04:30Z.
const ist = (date: string, time = '10:00') => new Date(`${date}T${time}:00+05:30`);

describe('working days (Monday to Friday, India time)', () => {
  it('knows the weekday in India time, not UTC', () => {
    assert.equal(istWeekday(ist('2026-03-02')), 1);
    // 00:30 IST on Saturday is still Friday in UTC.
    assert.equal(istWeekday(ist('2026-03-07', '00:30')), 6);
  });

  it('adds working days at the same time of day, skipping the weekend', () => {
    assert.equal(
      addWorkingDays(ist('2026-03-02'), 2).getTime(),
      ist('2026-03-04').getTime(),
      'Monday + 2 = Wednesday',
    );
    assert.equal(
      addWorkingDays(ist('2026-03-05'), 2).getTime(),
      ist('2026-03-09').getTime(),
      'Thursday + 2 = Monday',
    );
    assert.equal(
      addWorkingDays(ist('2026-03-06'), 1).getTime(),
      ist('2026-03-09').getTime(),
      'Friday + 1 = Monday',
    );
    assert.equal(addWorkingDays(ist('2026-03-06'), 5).getTime(), ist('2026-03-13').getTime(), 'a week');
  });

  it('counts a weekend capture from Monday 00:00', () => {
    assert.equal(
      addWorkingDays(ist('2026-03-07', '15:00'), 2).getTime(),
      ist('2026-03-11', '00:00').getTime(),
      'Saturday + 2 = Wednesday 00:00',
    );
    assert.equal(
      addWorkingDays(ist('2026-03-08', '23:59'), 1).getTime(),
      ist('2026-03-10', '00:00').getTime(),
      'Sunday + 1 = Tuesday 00:00',
    );
  });

  it('counts working days in India time around midnight UTC and before 1970', () => {
    // Friday 23:30 India time is Friday 18:00Z; Monday 04:00 India time is Sunday 22:30Z.
    assert.equal(
      addWorkingDays(ist('2026-03-06', '23:30'), 1).getTime(),
      ist('2026-03-09', '23:30').getTime(),
      'late Friday + 1 = Monday',
    );
    assert.equal(
      addWorkingDays(ist('2026-03-09', '04:00'), 1).getTime(),
      ist('2026-03-10', '04:00').getTime(),
      'early Monday + 1 = Tuesday',
    );
    assert.equal(
      addWorkingDays(ist('2026-03-07', '00:00'), 1).getTime(),
      ist('2026-03-10', '00:00').getTime(),
      'Saturday 00:00 + 1 = Tuesday 00:00',
    );
    // 1969-12-27 was a Saturday: times before the epoch are negative.
    assert.equal(istWeekday(ist('1969-12-27', '12:00')), 6);
    assert.equal(
      addWorkingDays(ist('1969-12-27', '12:00'), 1).getTime(),
      ist('1969-12-30', '00:00').getTime(),
      'Saturday + 1 = Tuesday 00:00, before 1970',
    );
    assert.equal(
      addWorkingDays(ist('1969-12-28', '00:00'), 2).getTime(),
      ist('1969-12-31', '00:00').getTime(),
    );
    for (const [date, day] of [
      ['2026-03-01', 0],
      ['2026-03-02', 1],
      ['2026-03-03', 2],
      ['2026-03-04', 3],
      ['2026-03-05', 4],
      ['2026-03-06', 5],
      ['2026-03-07', 6],
    ] as const) {
      assert.equal(istWeekday(ist(date, '00:10')), day, `${date} just after midnight`);
      assert.equal(istWeekday(ist(date, '23:50')), day, `${date} just before midnight`);
    }
  });

  it('0 days is now; a negative or fractional count is refused', () => {
    const t = ist('2026-03-07');
    assert.equal(addWorkingDays(t, 0), t);
    assert.throws(() => addWorkingDays(t, -1), RangeError);
    assert.throws(() => addWorkingDays(t, 1.5), RangeError);
    assert.throws(() => addWorkingDays(t, -1), { message: 'days must be a whole number, 0 or more' });
  });

  it('clearedUpTo is exactly the inverse: a capture is cleared iff addWorkingDays(capture) <= now', () => {
    const start = ist('2026-03-01', '00:00').getTime();
    for (const days of [1, 2, 3, 7]) {
      for (let h = 0; h < 24 * 21; h += 5) {
        const now = new Date(start + h * 3_600_000 + 17 * 60_000);
        const cut = clearedUpTo(now, days);
        assert.ok(
          addWorkingDays(cut, days).getTime() <= now.getTime(),
          `cut clears (days ${days}, ${now.toISOString()})`,
        );
        assert.ok(
          addWorkingDays(new Date(cut.getTime() + 1), days).getTime() > now.getTime(),
          `1 ms later does not (days ${days}, ${now.toISOString()})`,
        );
      }
    }
    const now = new Date();
    assert.equal(clearedUpTo(now, 0), now);
  });
});

describe('ledger arithmetic and the refund policy', () => {
  it('a sale writes the gross and both fees; the net is what the organiser keeps', () => {
    const fees = bookingFees(50000, 1, 0); // ₹500, first paid ticket: 4.5 % = ₹22.50, gateway 3 % = ₹15
    const lines = saleLines(50000, fees.platform, fees.gateway);
    assert.deepEqual(lines, [
      { kind: 'ticket_sale', amountPaise: 50000 },
      { kind: 'platform_fee', amountPaise: -2250 },
      { kind: 'gateway_fee', amountPaise: -1500 },
    ]);
    assert.equal(net(lines), 46250);
  });

  it('a full refund takes the gross back and reverses the platform fee, not the gateway charge', () => {
    const sale = saleLines(50000, 2250, 1500);
    const refund = refundLines(50000, 2250);
    assert.deepEqual(refund, [
      { kind: 'ticket_refund', amountPaise: -50000 },
      { kind: 'platform_fee_reversal', amountPaise: 2250 },
    ]);
    assert.equal(net([...sale, ...refund]), -1500, 'the organiser bears the gateway charge Razorpay keeps');
  });

  it('test mode (no fees) nets to zero after a refund; zero lines are not written', () => {
    assert.deepEqual(saleLines(20000, 0, 0), [{ kind: 'ticket_sale', amountPaise: 20000 }]);
    assert.equal(net([...saleLines(20000, 0, 0), ...refundLines(20000, 0)]), 0);
  });

  it('a membership payment carries the gateway charge only', () => {
    assert.deepEqual(membershipLines(100000, 3000), [
      { kind: 'membership_payment', amountPaise: 100000 },
      { kind: 'gateway_fee', amountPaise: -3000 },
    ]);
  });

  it('refuses amounts that are not whole, non-negative paise, naming the argument', () => {
    assert.throws(() => saleLines(100.5, 0, 0), RangeError);
    assert.throws(() => refundLines(-1, 0), RangeError);
    const refusal = (name: string) => ({
      name: 'RangeError',
      message: `${name} must be a whole number of paise, 0 or more`,
    });
    assert.throws(() => saleLines(-1, 0, 0), refusal('grossPaise'));
    assert.throws(() => saleLines(100, -1, 0), refusal('platformFeePaise'));
    assert.throws(() => saleLines(100, 0, 0.5), refusal('gatewayFeePaise'));
    assert.throws(() => saleLines(2 ** 53, 0, 0), refusal('grossPaise'));
    assert.throws(() => refundLines(100.5, 0), refusal('grossPaise'));
    assert.throws(() => refundLines(100, -1), refusal('platformFeePaise'));
    assert.throws(() => membershipLines(-1, 0), refusal('grossPaise'));
    assert.throws(() => membershipLines(100, Number.NaN), refusal('gatewayFeePaise'));
  });

  it('writes no zero lines, whichever line is zero', () => {
    assert.deepEqual(saleLines(0, 0, 0), []);
    assert.deepEqual(saleLines(10000, 300, 0), [
      { kind: 'ticket_sale', amountPaise: 10000 },
      { kind: 'platform_fee', amountPaise: -300 },
    ]);
    assert.deepEqual(refundLines(10000, 0), [{ kind: 'ticket_refund', amountPaise: -10000 }]);
    assert.deepEqual(membershipLines(10000, 0), [{ kind: 'membership_payment', amountPaise: 10000 }]);
    assert.equal(net([]), 0);
  });

  it('a refund is computed from the sale’s own entries: its gross back, its platform fee reversed', () => {
    const sale = saleLines(50000, 2250, 1500);
    assert.deepEqual(refundOfSale(sale), [
      { kind: 'ticket_refund', amountPaise: -50000 },
      { kind: 'platform_fee_reversal', amountPaise: 2250 },
    ]);
    // Order does not matter, and a test-mode sale (no fees) reverses no fee.
    assert.deepEqual(refundOfSale([...sale].reverse()), refundOfSale(sale));
    assert.deepEqual(refundOfSale(saleLines(20000, 0, 0)), [{ kind: 'ticket_refund', amountPaise: -20000 }]);
    // Other entries of the same source (a membership's, a gateway charge alone) are no sale.
    assert.deepEqual(refundOfSale([]), []);
    assert.deepEqual(
      refundOfSale([
        { kind: 'gateway_fee', amountPaise: -1500 },
        { kind: 'platform_fee', amountPaise: -2250 },
      ]),
      [],
    );
    assert.deepEqual(refundOfSale(membershipLines(100000, 3000)), []);
  });

  it('the last refund after partial ones gives back what they left of the gross, and reverses the platform fee', () => {
    const sale = saleLines(50000, 2250, 1500);
    const part = (amountPaise: number) => ({ kind: 'ticket_refund' as const, amountPaise: -amountPaise });
    assert.deepEqual(refundOfSale([...sale, part(20000)]), [
      { kind: 'ticket_refund', amountPaise: -30000 },
      { kind: 'platform_fee_reversal', amountPaise: 2250 },
    ]);
    assert.deepEqual(refundOfSale([part(10000), ...sale, part(20000)]), [
      { kind: 'ticket_refund', amountPaise: -20000 },
      { kind: 'platform_fee_reversal', amountPaise: 2250 },
    ]);
    // Every paisa given back in parts: only the fee is left to reverse.
    assert.deepEqual(refundOfSale([...sale, part(30000), part(20000)]), [
      { kind: 'platform_fee_reversal', amountPaise: 2250 },
    ]);
  });
});

describe('payout states', () => {
  it('maps gateway statuses', () => {
    for (const s of ['queued', 'pending', 'scheduled', 'processing', 'initiated'])
      assert.equal(statusFor(s), 'processing');
    assert.equal(statusFor('processed'), 'processed');
    assert.equal(statusFor('rejected'), 'failed');
    assert.equal(statusFor('failed'), 'failed');
    assert.equal(statusFor('cancelled'), 'cancelled');
    assert.equal(statusFor('reversed'), 'reversed');
  });

  it('moves forward only; reversed may follow processed; final states stay', () => {
    assert.ok(canMove('processing', 'processed'));
    assert.ok(canMove('processing', 'reversed'));
    assert.ok(canMove('processed', 'reversed'));
    assert.ok(!canMove('processed', 'failed'));
    assert.ok(!canMove('reversed', 'processed'));
    assert.ok(!canMove('failed', 'processed'));
    assert.ok(!canMove('processing', 'processing'));
    assert.deepEqual(
      ['processed', 'failed', 'cancelled', 'reversed'].filter((s) => creditsBack(s as never)),
      ['failed', 'cancelled', 'reversed'],
    );
  });
});

describe('UPI ids', () => {
  it('takes name@handle with letters, digits, dot and hyphen', () => {
    for (const ok of ['asha@okaxis', 'asha.rao-1@ybl', '9876543210@paytm', 'a@b1'])
      assert.ok(isUpiId(ok), ok);
    for (const bad of [
      '',
      'asha',
      '@okaxis',
      'asha@',
      'asha@@okaxis',
      'a@b@c',
      'asha rao@okaxis',
      'asha@1bank',
      'asha_x@okaxis',
      'x'.repeat(98) + '@ab',
      'asha@o',
    ])
      assert.ok(!isUpiId(bad), bad);
    assert.equal(normaliseUpiId(' Asha@OkAxis '), 'asha@okaxis');
    assert.throws(() => normaliseUpiId('nope'), /UPI id/);
  });

  it('refuses a long hostile input before reading it, and reads any other at most once', () => {
    // Work counted, not timed: one-character reads and whole-string scans.
    const counted = (value: string) => {
      const watch = watchScans();
      try {
        return { ok: isUpiId(value), steps: watch.steps(), longest: watch.longest() };
      } finally {
        watch.stop();
      }
    };
    assert.deepEqual(counted('a'.repeat(100_000) + '@'), { ok: false, steps: 0, longest: 0 });
    for (const value of ['a'.repeat(97) + '@ab', 'a.'.repeat(48) + '@ab', '-'.repeat(96) + '@a.b']) {
      const { steps, longest } = counted(value);
      assert.ok(
        steps <= value.length * 2 && longest <= value.length,
        `${steps} steps, ${longest} characters for ${value.length}`,
      );
    }
  });
});
