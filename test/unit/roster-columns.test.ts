// The storage under the door roster (src/modules/checkin/roster-columns.ts): the text arena's
// records, and the open-addressing table of slots, checked against a Map over many random
// insertions and deletions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { grown, hashText, Interned, SlotTable, TextArena } from '../../src/modules/checkin/roster-columns.js';

/** A small seeded generator: the same sequence every run. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('roster columns', () => {
  it('keeps records of strings and nulls, of any length and script, across growth', () => {
    const arena = new TextArena(16);
    const long = 'x'.repeat(300);
    const records: (string | null)[][] = [
      ['reg_1', null, 'tkt_a', 'tkt_b'],
      [null, 'Aditi Rao', 'aditi@example.in'],
      ['', 'दीपा ✓ 😀', long],
      [],
    ];
    const at = records.map((r) => arena.add(r));
    records.forEach((r, i) => {
      assert.deepEqual(arena.fields(at[i]!), r);
      r.forEach((f, k) => assert.equal(arena.field(at[i]!, k), f, `field ${k} of record ${i}`));
      assert.equal(arena.field(at[i]!, r.length), null, 'past the end');
    });
    const size = arena.bytes;
    arena.drop(at[2]!);
    assert.ok(arena.waste > 300);
    arena.trim();
    assert.equal(arena.bytes, size);
    assert.deepEqual(arena.fields(at[3]!), []);
    assert.deepEqual(arena.fields(at[1]!), records[1]);
  });

  it('finds every slot held as a Map would, through collisions, deletions and growth', () => {
    const next = random(7);
    // Few distinct hashes: long probe chains, and deletions that must shift them back.
    const hashes = new Int32Array(5000);
    for (let i = 0; i < hashes.length; i++) hashes[i] = Math.floor(next() * 40) * 0x01000193;
    const table = new SlotTable((slot) => hashes[slot]!);
    const held = new Set<number>();
    for (let step = 0; step < 20000; step++) {
      const slot = Math.floor(next() * hashes.length);
      if (held.has(slot)) {
        table.delete(slot);
        held.delete(slot);
      } else {
        table.add(slot);
        held.add(slot);
      }
      if (step % 997 === 0) {
        for (let s = 0; s < hashes.length; s++)
          assert.equal(
            table.find(hashes[s]!, (x) => x === s),
            held.has(s) ? s : -1,
            `slot ${s} at step ${step}`,
          );
      }
    }
    assert.equal(table.size, held.size);
    for (const s of held)
      assert.equal(
        table.find(hashes[s]!, (x) => x === s),
        s,
      );
    table.delete(-5);
    assert.equal(table.size, held.size, 'deleting a slot not held changes nothing');
  });

  it('hashes text, grows columns and keeps repeated strings once', () => {
    assert.equal(hashText('reg_1'), hashText('reg_1'));
    assert.notEqual(hashText('reg_1'), hashText('reg_2'));
    const a = grown(new Float64Array([1, 2]), 3);
    assert.deepEqual([...a.slice(0, 2)], [1, 2]);
    assert.ok(a.length >= 3);
    const same = new Int32Array(4);
    assert.equal(grown(same, 4), same);
    const words = new Interned();
    assert.deepEqual([words.id('General'), words.id('VIP'), words.id('General')], [0, 1, 0]);
    assert.equal(words.string(1), 'VIP');
  });
});
