// The memory of events' seat statuses (src/modules/seat-holds/status-memory.ts): requests that
// arrive while a read is under way share it, an answer is kept for its time on the injected clock
// from when its read began, a change forgets the event (a read under way included), a failed read
// is not kept, and 0 keeps nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forgetStatuses, StatusMemory } from '../../src/modules/seat-holds/status-memory.js';

/** A read that waits for `release()`, counting how often it was called. */
function gatedRead(answer = 'aah') {
  let reads = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const read = async () => {
    const n = ++reads;
    await gate;
    return `${answer}${n}`;
  };
  return { read, release: () => release(), reads: () => reads };
}

describe('seat status memory', () => {
  it('shares one read between requests that arrive while it is under way', async () => {
    const memory = new StatusMemory<string>(1000, () => 0);
    const g = gatedRead();
    const all = Promise.all(Array.from({ length: 32 }, () => memory.recall('ev_1', 'test|p@1|0', g.read)));
    g.release();
    assert.deepEqual(new Set(await all), new Set(['aah1']));
    assert.equal(g.reads(), 1);
    assert.equal(await memory.recall('ev_1', 'test|p@1|0', g.read), 'aah1', 'kept after it came back');
    assert.equal(g.reads(), 1);
  });

  it('keeps an answer for its time from when its read began, by the injected clock', async () => {
    let now = 5_000;
    const memory = new StatusMemory<string>(1000, () => now);
    const g = gatedRead();
    g.release();
    assert.equal(await memory.recall('ev_1', 'k', g.read), 'aah1');
    now += 999;
    assert.equal(await memory.recall('ev_1', 'k', g.read), 'aah1', 'still within its second');
    now += 1;
    assert.equal(await memory.recall('ev_1', 'k', g.read), 'aah2', 'a second after its read began');
    assert.equal(await memory.recall('ev_1', 'other', g.read), 'aah3', 'another key is another answer');
    assert.equal(await memory.recall('ev_2', 'k', g.read), 'aah4', 'another event is another answer');
    assert.equal(g.reads(), 4);
  });

  it('forgets an event when this process changes its seats, a read under way included', async () => {
    const memory = new StatusMemory<string>(1000, () => 0);
    const g = gatedRead();
    const first = memory.recall('ev_1', 'k', g.read);
    const other = memory.recall('ev_2', 'k', g.read);
    forgetStatuses('ev_1');
    const second = memory.recall('ev_1', 'k', g.read);
    g.release();
    assert.deepEqual(await Promise.all([first, other, second]), ['aah1', 'aah2', 'aah3']);
    assert.equal(await memory.recall('ev_1', 'k', g.read), 'aah3', 'the read after the change is kept');
    assert.equal(await memory.recall('ev_2', 'k', g.read), 'aah2', 'another event is not forgotten');
    forgetStatuses();
    assert.equal(await memory.recall('ev_2', 'k', g.read), 'aah4', 'forgetting every event');
  });

  it('keeps no failed read, and nothing at 0', async () => {
    const memory = new StatusMemory<string>(1000, () => 0);
    let reads = 0;
    const failing = async () => {
      reads++;
      throw new Error('database gone');
    };
    await assert.rejects(memory.recall('ev_1', 'k', failing), /database gone/);
    await assert.rejects(memory.recall('ev_1', 'k', failing), /database gone/);
    assert.equal(reads, 2);
    const off = new StatusMemory<string>(0, () => 0);
    const g = gatedRead();
    g.release();
    assert.equal(await off.recall('ev_1', 'k', g.read), 'aah1');
    assert.equal(await off.recall('ev_1', 'k', g.read), 'aah2');
  });
});
