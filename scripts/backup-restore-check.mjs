#!/usr/bin/env node
// `npm run backup:check [-- --bookings N]`: proves a backup and a point-in-time restore on this
// machine with the tools PostgreSQL ships (pg_basebackup, WAL archiving, a named restore point),
// on throwaway clusters of its own, with the service booking on them over HTTP; prints what it
// did and exits non-zero on any mismatch. The steps are in test/helpers/backup-restore.ts;
// test/durability/backup-restore.test.ts runs a small version of the same check in `npm test`.
// Needs a PostgreSQL installation with pg_basebackup (PG_BINDIR, `pg_config --bindir` or
// /usr/lib/postgresql/*/bin); it does not touch any other server.
import { parseArgs } from 'node:util';
import { backupRestoreCheck } from '../test/helpers/backup-restore.ts';

const { values } = parseArgs({ options: { bookings: { type: 'string', default: '50' } } });
const n = Number(values.bookings);
if (!Number.isInteger(n) || n < 1) {
  console.error('--bookings takes a positive whole number');
  process.exit(2);
}
const started = Date.now();
try {
  const r = await backupRestoreCheck({ before: n, between: n, after: n, log: (line) => console.log(line) });
  console.log(
    `restored ${r.restored.length} registrations (${r.countAtTarget} at the target, ${r.expected.length} acknowledged before it); ` +
      `${r.afterTarget.length} made after the target absent: ${r.afterTarget.every((id) => !r.restored.includes(id))}; ` +
      `seat counters ${r.counters.map((c) => `${c.taken}/${c.booked}`).join(', ')} (taken/booked)`,
  );
  if (r.problems.length > 0) {
    for (const p of r.problems) console.error(`MISMATCH: ${p}`);
    process.exit(1);
  }
  console.log(`backup and restore check passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit(0);
} catch (err) {
  console.error(`backup and restore check failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
