// The reference a buyer quotes for a payment outside the gateway (docs/decisions/24-payment-outside-the-gateway.md):
// `TKT-` and six characters without 0/O or 1/I; a collision with another booking's reference (the
// unique index) writes again with a fresh one, a few times at most; any other error is not retried.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  makeReference,
  REFERENCE_ALPHABET,
  REFERENCE_INDEX,
  REFERENCE_PATTERN,
  withFreshReference,
} from '../../src/modules/registrations/offline-reference.js';

const collision = () =>
  Object.assign(new Error('duplicate key'), { code: '23505', constraint: REFERENCE_INDEX });

describe('offline payment references', () => {
  it('are TKT- and six characters of an alphabet without 0, O, 1 or I', () => {
    assert.equal(REFERENCE_ALPHABET.length, 32);
    for (const c of '0O1I') assert.equal(REFERENCE_ALPHABET.includes(c), false, c);
    for (let i = 0; i < 2000; i++) assert.match(makeReference(), REFERENCE_PATTERN);
    assert.equal(
      makeReference(() => 0),
      'TKT-222222',
    );
    assert.equal(
      makeReference(() => 31),
      'TKT-ZZZZZZ',
    );
  });

  it('writes again with a fresh reference after a collision, and gives up after eight', async () => {
    const tried: string[] = [];
    let n = 0;
    const made = await withFreshReference(
      async (ref) => {
        tried.push(ref);
        if (tried.length < 3) throw collision();
        return ref;
      },
      () => `TKT-${String(++n).padStart(6, '2')}`,
    );
    assert.equal(made, 'TKT-222223');
    assert.deepEqual(tried, ['TKT-222221', 'TKT-222222', 'TKT-222223']);
    let attempts = 0;
    await assert.rejects(
      withFreshReference(async () => {
        attempts++;
        throw collision();
      }),
      /duplicate key/,
    );
    assert.equal(attempts, 8);
  });

  it('does not retry another error, nor a violation of another constraint', async () => {
    for (const err of [
      new Error('boom'),
      Object.assign(new Error('dup'), { code: '23505', constraint: 'other' }),
    ]) {
      let attempts = 0;
      await assert.rejects(
        withFreshReference(async () => {
          attempts++;
          throw err;
        }),
      );
      assert.equal(attempts, 1);
    }
  });
});
