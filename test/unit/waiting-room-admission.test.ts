// The waiting room's pure rules (docs/decisions/26-a-fair-waiting-room.md): the admission
// cursor's arithmetic and the shuffle's order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { advance, secondsUntil } from '../../src/modules/waiting-room/admission.js';
import { shuffledOrder } from '../../src/modules/waiting-room/shuffle.js';

describe('the admission cursor', () => {
  const c = { base: 0, anchorMs: 0, rate: 60 };

  it('admits one every 60/rate seconds while people wait', () => {
    assert.equal(advance(c, 999, 60, 10).admitted, 0);
    assert.equal(advance(c, 1_000, 60, 10).admitted, 1);
    assert.equal(advance(c, 5_500, 60, 10).admitted, 5);
    assert.equal(advance(c, 5_500, 60, 10).changed, false);
  });

  it('does not save up slots nobody waited for', () => {
    const caught = advance(c, 60_000, 60, 3);
    assert.deepEqual(caught, { admitted: 3, cursor: { base: 3, anchorMs: 60_000, rate: 60 }, changed: true });
    // A fourth arrival waits one interval from then, not zero.
    assert.equal(advance(caught.cursor, 60_000, 60, 4).admitted, 3);
    assert.equal(advance(caught.cursor, 61_000, 60, 4).admitted, 4);
  });

  it('keeps the old rate’s progress when the rate changes', () => {
    const moved = advance(c, 10_000, 120, 100);
    assert.deepEqual(moved.cursor, { base: 10, anchorMs: 10_000, rate: 120 });
    assert.equal(advance(moved.cursor, 11_000, 120, 100).admitted, 12);
  });

  it('estimates the wait of a place from the cursor', () => {
    assert.equal(secondsUntil(c, 0, 0), 1);
    assert.equal(secondsUntil(c, 9, 2_500), 8);
    assert.equal(secondsUntil({ base: 0, anchorMs: 0, rate: 600 }, 0, 0), 1);
  });
});

describe('the pre-queue shuffle', () => {
  it('is a permutation fixed by the seed and different for another seed', () => {
    const ids = Array.from({ length: 50 }, (_, i) => `wp_${i}`);
    const a = shuffledOrder(Buffer.alloc(32, 1), ids);
    assert.deepEqual([...a].sort(), [...ids].sort());
    assert.deepEqual(shuffledOrder(Buffer.alloc(32, 1), [...ids].reverse()), a);
    assert.notDeepEqual(shuffledOrder(Buffer.alloc(32, 2), ids), a);
  });
});
