// The pool's back-off after a failed connect (src/db/connect-gate.ts), on an injected clock.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConnectGate, FIRST_BACKOFF_MS, LAST_BACKOFF_MS } from '../../src/db/connect-gate.js';
import { isConnectionLost, mapPgError } from '../../src/lib/pg-errors.js';

describe('the connect gate', () => {
  it('closes for the back-off after a failed connect, doubling up to the cap, and opens on a success', () => {
    let now = 1_000;
    const gate = new ConnectGate(() => now);
    assert.equal(gate.open, true);
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      gate.failed();
      const closedAt = now;
      while (!gate.open) now += 10;
      waits.push(now - closedAt);
    }
    assert.deepEqual(waits, [100, 200, 400, 800, 1600, 2000, 2000]);
    assert.equal(waits[0], FIRST_BACKOFF_MS);
    assert.equal(waits.at(-1), LAST_BACKOFF_MS);
    gate.succeeded();
    gate.failed();
    assert.equal(gate.open, false);
    now += FIRST_BACKOFF_MS;
    assert.equal(gate.open, true, 'a success starts the back-off over');
  });

  it('counts connects that fail together once', () => {
    let now = 0;
    const gate = new ConnectGate(() => now);
    gate.failed();
    gate.failed();
    gate.failed();
    now += FIRST_BACKOFF_MS;
    assert.equal(gate.open, true, 'closed for the first back-off only');
  });

  it('refuses while closed with an error that answers 503 database_unavailable with Retry-After', () => {
    const gate = new ConnectGate(() => 0);
    gate.failed();
    const err = gate.refusal();
    assert.equal(isConnectionLost(err), true);
    const mapped = mapPgError(err);
    assert.deepEqual([mapped?.status, mapped?.code], [503, 'database_unavailable']);
    assert.equal(mapped?.headers['Retry-After'], '2');
  });
});
