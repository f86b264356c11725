// The short reconciliation run inside `npm test` (the full one is `npm run reconcile`):
// two service processes on one database, so PostgreSQL only.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFigures, runReconciliation } from './driver.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
const onPostgres = process.env.TEST_DB === 'postgres' && databaseUrl !== undefined;

describe('reconciliation run', { skip: onPostgres ? false : 'two service processes on one database: PostgreSQL only (TEST_DB=postgres)' }, () => {
  it('400 mixed operations over two processes with faults and a SIGKILL end with every captured paisa confirmed or refunded (PostgreSQL, two processes)', { timeout: 240_000 }, async () => {
    const seed = process.env.RECONCILE_SEED ? Number(process.env.RECONCILE_SEED) : Math.floor(Math.random() * 2 ** 31);
    const figures = await runReconciliation({ operations: 400, seed, databaseUrl: databaseUrl!, concurrency: 8, includeRepeatSubscribeOps: true, includePromoLimitOps: true, includeEventDeletionOps: true });
    console.log(formatFigures(figures));
    assert.ok(figures.operations >= 400);
    assert.ok(figures.payments > 0 && figures.refunds > 0, 'the mix paid and refunded');
    assert.deepEqual(figures.mismatches, [], `seed ${seed}`);
  });
});
