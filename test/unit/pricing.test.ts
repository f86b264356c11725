import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyDiscount, priceBooking } from '../../src/modules/registrations/pricing.js';
import { priceTable, wholeEventBookable, type PriceRow } from '../../src/modules/events/prices.js';

const percent = (p: number) => ({ discount_percent: p, discount_paise: null });
const amount = (paise: number) => ({ discount_percent: null, discount_paise: paise });

describe('applyDiscount', () => {
  it('takes a percentage off the total, rounded to the paisa', () => {
    assert.equal(applyDiscount(percent(10), 1000_00), 900_00);
    assert.equal(applyDiscount(percent(15), 333), 283); // 49.95 paise off rounds to 50
    assert.equal(applyDiscount(percent(100), 500_00), 0);
  });

  it('takes an amount off the total, never below zero', () => {
    assert.equal(applyDiscount(amount(150_00), 1000_00), 850_00);
    assert.equal(applyDiscount(amount(2000_00), 1000_00), 0);
  });
});

describe('priceBooking', () => {
  it('charges the base price per person', () => {
    assert.deepEqual(priceBooking({ basePaise: 500_00, quantity: 3 }), {
      unitPaise: 500_00,
      subtotalPaise: 1500_00,
      amountPaise: 1500_00,
    });
  });

  it('takes a track’s price over the base, and a tier’s over both', () => {
    assert.equal(
      priceBooking({ basePaise: 500_00, track: { pricePaise: 300_00 }, quantity: 2 }).amountPaise,
      600_00,
    );
    assert.equal(
      priceBooking({
        basePaise: 500_00,
        track: { pricePaise: 300_00 },
        tier: { pricePaise: 900_00 },
        quantity: 2,
      }).amountPaise,
      1800_00,
    );
    assert.equal(
      priceBooking({ basePaise: 500_00, tier: { pricePaise: 0 }, quantity: 1 }).amountPaise,
      0,
      'a free tier is free even on a paid event',
    );
  });

  it('takes a promo code off the booking total, not off each ticket', () => {
    const p = priceBooking({ basePaise: 500_00, quantity: 3, promo: amount(200_00) });
    assert.deepEqual(p, { unitPaise: 500_00, subtotalPaise: 1500_00, amountPaise: 1300_00 });
    assert.equal(priceBooking({ basePaise: 500_00, quantity: 2, promo: percent(50) }).amountPaise, 500_00);
    assert.equal(
      priceBooking({ basePaise: 500_00, quantity: 1, promo: percent(100) }).amountPaise,
      0,
      'a full discount makes it free',
    );
  });
});

describe('the price table of sessions × ticket types', () => {
  const fest = {
    price_paise: 1500_00,
    tracks: [
      { title: 'Day 1', pricePaise: 1200_00 },
      { title: 'Day 2', pricePaise: 1800_00 },
    ],
    special_prices: [{ name: 'Student', pricePaise: 500_00, membersOnly: false }],
    whole_event_option: false,
  };
  const cells = (rows: PriceRow[]) =>
    rows.map((r) => [r.trackIndex, r.title, ...r.prices.map((p) => `${p.ticketType} ${p.paise}`)]);

  it('lists each session on sale with what each ticket type costs there, by the booking rule', () => {
    assert.deepEqual(cells(priceTable(fest)), [
      [0, 'Day 1', 'General 120000', 'Student 50000'],
      [1, 'Day 2', 'General 180000', 'Student 50000'],
    ]);
    for (const row of priceTable(fest)) {
      for (const p of row.prices) {
        const tier = fest.special_prices.find((t) => t.name === p.ticketType);
        assert.equal(
          p.paise,
          priceBooking({
            basePaise: fest.price_paise,
            track: fest.tracks[row.trackIndex!],
            tier,
            quantity: 1,
          }).unitPaise,
        );
      }
    }
  });

  it('sells the whole event only when the organiser turns it on, or when there are no tracks', () => {
    assert.equal(wholeEventBookable(fest), false);
    assert.deepEqual(cells(priceTable({ ...fest, whole_event_option: true }))[0], [
      null,
      'The whole event',
      'General 150000',
      'Student 50000',
    ]);
    assert.equal(wholeEventBookable({ tracks: [], whole_event_option: false }), true);
    assert.deepEqual(cells(priceTable({ ...fest, tracks: [] })), [
      [null, 'The event', 'General 150000', 'Student 50000'],
    ]);
  });
});
