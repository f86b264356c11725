// `npm run reconcile`: the reconciliation run (5,000 operations by default).
// RECONCILE_SEED replays a run (same seed, same operations, same figures), RECONCILE_OPS
// sets its length, RECONCILE_CONTROL=1 runs it with the sweep switched off everywhere (it
// must end with mismatches, and exits non-zero like any failing run), RECONCILE_RACING=1 adds
// racing groups (racing.ts: concurrent changes to one booking, released together),
// RECONCILE_DATABASE_URL (else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres)
// names the PostgreSQL server it creates its own database on. RECONCILE_JSON=<file>
// writes the figures as JSON too (for `npm run reliability`).
import { writeFileSync } from 'node:fs';
import { formatFigures, runReconciliation } from './driver.js';

const seed = process.env.RECONCILE_SEED
  ? Number(process.env.RECONCILE_SEED)
  : Math.floor(Math.random() * 2 ** 31);
const operations = Number(process.env.RECONCILE_OPS ?? 5000);
const control = /^(1|true|yes)$/i.test(process.env.RECONCILE_CONTROL ?? '');
const racing = /^(1|true|yes)$/i.test(process.env.RECONCILE_RACING ?? '');
const databaseUrl =
  process.env.RECONCILE_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';

console.log(
  `reconciliation run: ${operations} operations, seed ${seed}${control ? ', control (no sweep anywhere)' : ''}${racing ? ', racing' : ''}`,
);
const figures = await runReconciliation({
  operations,
  seed,
  databaseUrl,
  control,
  racing,
  log: (line) => console.log(`  ${line}`),
});
console.log(formatFigures(figures));
if (process.env.RECONCILE_JSON) writeFileSync(process.env.RECONCILE_JSON, JSON.stringify(figures, null, 2));
process.exit(figures.mismatches.length === 0 ? 0 : 1);
