// The reconciliation run's checks have teeth: against a gateway that lies, the run must
// report the lie. Three lies, each in a short run of its own (emulator options used only
// by tests, never a switch in the service): a refund acknowledged and never made; a
// capture reported as another amount; every notification and fetch of some orders lost.
// Every lie is named by a mismatch, not one of each kind: the emulator lists every payment (or
// order) it lied about, and each must appear, by its payment or order id, in a mismatch; a check
// that catches some refunds never made and misses others would let money go missing. (This found
// a capture answered with another amount being taken as paid.) A lost order counts as a lie once
// money is captured on it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Lies } from '../helpers/razorpay-emulator.js';
import { formatFigures, runReconciliation } from './driver.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
const onPostgres = process.env.TEST_DB === 'postgres' && databaseUrl !== undefined;

const cases: [keyof Lies, string][] = [
  ['refundsNotMade', 'a refund acknowledged and never made'],
  ['capturesMisreported', 'a capture reported as another amount'],
  ['ordersLost', 'every notification and fetch of an order lost'],
];

describe('the reconciliation run against a lying gateway', {
  skip: onPostgres ? false : 'two service processes on one database: PostgreSQL only (TEST_DB=postgres)',
}, () => {
  for (const [lie, what] of cases) {
    it(`reports ${what}`, { timeout: 300_000 }, async () => {
      const figures = await runReconciliation({
        operations: 40,
        seed: 3,
        databaseUrl: databaseUrl!,
        lies: { [lie]: 0.5 },
        minimums: false,
      });
      const lied = figures.lied[lie] ?? [];
      assert.ok(lied.length > 0, `the emulator never lied (${lie}): ${formatFigures(figures)}`);
      const unreported = lied.filter(
        (l) => !figures.mismatches.some((m) => m.includes(l.id) || m.includes(l.orderId)),
      );
      assert.deepEqual(
        unreported,
        [],
        `no mismatch names these lies (${lied.length - unreported.length} of ${lied.length} named):\n${formatFigures(figures)}`,
      );
    });
  }
});
