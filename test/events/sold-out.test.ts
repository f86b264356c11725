import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SOLD_OUT_MARK_MS, SoldOutMarks } from '../../src/modules/events/sold-out.js';

describe('sold-out marks', () => {
  it('answer for the event’s own account and mode, for one second, until forgotten', () => {
    const marks = new SoldOutMarks();
    marks.mark('ev_1', 'usr_a', 'test', 1000);
    assert.equal(marks.isSoldOut('ev_1', 'usr_a', 'test', 1000), true);
    assert.equal(
      marks.isSoldOut('ev_1', 'usr_b', 'test', 1000),
      false,
      'another account goes to the database (403)',
    );
    assert.equal(
      marks.isSoldOut('ev_1', 'usr_a', 'live', 1000),
      false,
      'another mode goes to the database (404)',
    );
    assert.equal(marks.isSoldOut('ev_2', 'usr_a', 'test', 1000), false);
    assert.equal(marks.isSoldOut('ev_1', 'usr_a', 'test', 1000 + SOLD_OUT_MARK_MS), false, 'expired');
    marks.mark('ev_1', 'usr_a', 'test', 5000);
    marks.forget('ev_1');
    assert.equal(marks.isSoldOut('ev_1', 'usr_a', 'test', 5000), false, 'forgotten when seats are freed');
  });

  it('last as long as they are told, and not at all for 0 (SOLD_OUT_MEMORY_MS=0)', () => {
    const marks = new SoldOutMarks();
    marks.mark('ev_1', 'usr_a', 'test', 1000, 250);
    assert.equal(marks.isSoldOut('ev_1', 'usr_a', 'test', 1249), true);
    assert.equal(marks.isSoldOut('ev_1', 'usr_a', 'test', 1250), false);
    marks.mark('ev_1', 'usr_a', 'test', 1000, 0);
    assert.equal(marks.isSoldOut('ev_1', 'usr_a', 'test', 1000), false);
  });
});
