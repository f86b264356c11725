// `npm run reconcile`: the full reconciliation run (≥ 5,000 operations by default).
// RECONCILE_SEED replays a run, RECONCILE_OPS sets its length, RECONCILE_DATABASE_URL
// (else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres) names the
// PostgreSQL server it creates its own database on. The once held-back operation kinds
// (INCLUDE_PROMO_LIMIT_OPS, INCLUDE_EVENT_DELETION_OPS, INCLUDE_REPEAT_SUBSCRIBE_OPS) are
// on unless =false; RECONCILE_RUN_WITHOUT_SWEEP=true is a control run.
import { formatFigures, runReconciliation } from './driver.js';

const flag = (name: string, fallback = false) => (process.env[name] === undefined ? fallback : /^(1|true|yes)$/i.test(process.env[name]!));
const seed = process.env.RECONCILE_SEED ? Number(process.env.RECONCILE_SEED) : Math.floor(Math.random() * 2 ** 31);
const operations = Number(process.env.RECONCILE_OPS ?? 5000);
const databaseUrl = process.env.RECONCILE_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

console.log(`reconciliation run: ${operations} operations, seed ${seed}`);
const figures = await runReconciliation({
  operations,
  seed,
  databaseUrl,
  includePromoLimitOps: flag('INCLUDE_PROMO_LIMIT_OPS', true),
  // On by default: reconciliation refunds the payment of the order a repeat subscribe replaced.
  includeRepeatSubscribeOps: flag('INCLUDE_REPEAT_SUBSCRIBE_OPS', true),
  includeEventDeletionOps: flag('INCLUDE_EVENT_DELETION_OPS', true),
  // A control run: the same mix with no reconciliation, to see what the checks catch.
  withoutReconciliation: flag('RECONCILE_RUN_WITHOUT_SWEEP'),
  log: (line) => console.log(`  ${line}`),
});
console.log(formatFigures(figures));
process.exit(figures.mismatches.length === 0 ? 0 : 1);
