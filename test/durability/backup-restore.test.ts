// A backup is restored and verified: `npm run backup:check` in a small version. A throwaway
// cluster with WAL archiving, the service booking on it over HTTP, pg_basebackup, bookings, a
// named restore point, bookings; a new cluster recovered from the base backup and the archive to
// that point holds exactly the bookings acknowledged before it, seat counters that agree with
// them, and serves the service again (docs/operations/backups.md). The check makes its own
// clusters, so it runs on the embedded pass only (the PostgreSQL pass would repeat it as is).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backupRestoreCheck } from '../helpers/backup-restore.js';
import { findToolset } from '../helpers/pg-cluster.js';

const skip =
  process.env.TEST_DB === 'postgres'
    ? 'makes clusters of its own: the embedded pass runs it'
    : findToolset() === undefined
      ? 'needs a PostgreSQL installation with pg_basebackup (PG_BINDIR or pg_config on the PATH)'
      : false;

describe('a backup restored to a point in time', { skip }, () => {
  it('holds every booking acknowledged before the restore point and none after it', async () => {
    const r = await backupRestoreCheck({ before: 3, between: 3, after: 3 });

    assert.equal(r.expected.length, 6);
    assert.deepEqual(r.restored, r.expected, 'the bookings before the target, with their ids');
    assert.equal(r.restored.length, r.countAtTarget, 'as many registrations as at the target');
    assert.equal(r.afterTarget.length, 3);
    for (const id of r.afterTarget)
      assert.ok(!r.restored.includes(id), `${id}, booked after the target, is absent`);
    assert.equal(r.counters.length, 2);
    for (const c of r.counters) assert.equal(c.taken, c.booked, `seat counter of ${c.eventId}`);
    assert.equal(
      r.counters.reduce((sum, c) => sum + c.booked, 0),
      6,
      'the counters hold the seats of the six bookings',
    );
    assert.deepEqual(r.listed, r.expected, 'the service lists them on the restored database');
    assert.equal(r.bookedAgain, 201, 'and books again');
    assert.deepEqual(r.problems, []);
  });
});
