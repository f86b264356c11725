// The one periodic loop (src/lib/every.ts), driven by injected timers: nothing waits on the
// wall clock. A fake timer list holds what is scheduled; `fire()` runs the due callback and lets
// the run it started settle.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { every, type Timers } from '../../src/lib/every.js';

class FakeTimers implements Timers {
  pending = new Map<number, { fn: () => void; ms: number }>();
  #next = 1;
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.#next++;
    this.pending.set(id, { fn, ms });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  /** The waits scheduled now, in ms. */
  get waits(): number[] {
    return [...this.pending.values()].map((t) => t.ms);
  }
  /** Fires the one scheduled timer and lets the run it starts finish. */
  async fire(): Promise<void> {
    assert.equal(this.pending.size, 1, 'one timer scheduled');
    const [[id, t]] = [...this.pending];
    this.pending.delete(id);
    t.fn();
    await settle();
  }
}

const settle = () => new Promise<void>((r) => setImmediate(r));
const unexpected = (err: unknown) => assert.fail(`the run failed: ${String(err)}`);

describe('every', () => {
  it('runs at once, then every ms after each run ends', async () => {
    const timers = new FakeTimers();
    let runs = 0;
    const loop = every(1000, async () => void runs++, { timers, onError: unexpected });
    assert.deepEqual(timers.waits, [0]);
    await timers.fire();
    assert.equal(runs, 1);
    assert.deepEqual(timers.waits, [1000]);
    await timers.fire();
    assert.equal(runs, 2);
    await loop.stop();
    assert.deepEqual(timers.waits, []);
  });

  it('waits firstAfterMs before the first run', async () => {
    const timers = new FakeTimers();
    const loop = every(300, async () => {}, { timers, firstAfterMs: 300, onError: unexpected });
    assert.deepEqual(timers.waits, [300]);
    await loop.stop();
  });

  it('next decides the wait from the run’s result (undefined after an error)', async () => {
    const timers = new FakeTimers();
    const results = [50, 10];
    const errors: unknown[] = [];
    const seen: (number | undefined)[] = [];
    const loop = every(
      500,
      async () => {
        const r = results.shift();
        if (r === undefined) throw new Error('boom');
        return r;
      },
      { timers, onError: (e) => errors.push(e), next: (r) => (seen.push(r), r === 50 ? 0 : 500) },
    );
    await timers.fire();
    assert.deepEqual(timers.waits, [0]);
    await timers.fire();
    assert.deepEqual(timers.waits, [500]);
    await timers.fire();
    assert.deepEqual(seen, [50, 10, undefined]);
    assert.equal((errors[0] as Error).message, 'boom');
    assert.deepEqual(timers.waits, [500], 'the loop goes on after an error');
    await loop.stop();
  });

  it('kick runs soon instead of waiting, but never beside a run in progress', async () => {
    const timers = new FakeTimers();
    let release!: () => void;
    let runs = 0;
    const loop = every(
      1000,
      () => {
        runs++;
        return new Promise<void>((r) => (release = r));
      },
      { timers, onError: unexpected },
    );
    await timers.fire(); // the first run starts and holds
    assert.deepEqual(timers.waits, []);
    loop.kick();
    assert.deepEqual(timers.waits, [], 'no second run while one is in progress');
    release();
    await settle();
    assert.deepEqual(timers.waits, [1000]);
    loop.kick();
    assert.deepEqual(timers.waits, [0], 'the wait in hand is replaced');
    await timers.fire();
    assert.equal(runs, 2);
    release();
    await loop.stop();
  });

  it('stop waits for the run in progress and schedules nothing after it', async () => {
    const timers = new FakeTimers();
    let release!: () => void;
    let ended = false;
    const loop = every(
      1000,
      () =>
        new Promise<void>((r) => {
          release = () => {
            ended = true;
            r();
          };
        }),
      { timers, onError: unexpected },
    );
    await timers.fire();
    const stopped = loop.stop();
    let done = false;
    void stopped.then(() => (done = true));
    await settle();
    assert.equal(done, false, 'still running');
    release();
    await stopped;
    assert.equal(ended, true);
    assert.deepEqual(timers.waits, []);
    loop.kick();
    assert.deepEqual(timers.waits, [], 'a stopped loop is not kicked back into life');
  });
});
