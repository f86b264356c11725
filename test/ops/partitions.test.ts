// Monthly partitions of the tables that only grow (docs/operations/partitions.md): migrations
// 0087–0090 turn the audit log, webhook deliveries, jobs and the door's check-in log into
// tables partitioned by month and keep every row as it was; the upkeep every instance runs
// makes months ahead, carries rows out of the DEFAULT partition when their month is made,
// drops whole months past retention (never one with a pending job), and two instances running
// it at once both succeed. Time is the injected clock's or a fixed date, never the wall clock.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Migrator } from 'kysely/migration';
import { migrationProvider } from '../../src/db/migrations/index.js';
import {
  maintainPartitions,
  monthStart,
  type PartitionSettings,
  partitionName,
} from '../../src/db/partitions.js';
import { organiserWithEvent } from '../helpers/factories.js';
import {
  partitionedRowsTagged,
  partitionsOf,
  seedPartitionedRows,
  tryToRewriteAudit,
} from '../helpers/partitions.js';
import { startServer, type TestServer } from '../helpers/server.js';

const TABLES = ['audit_log', 'webhook_deliveries', 'jobs', 'checkin_log'] as const;

const keepAll = (monthsAhead = 3): PartitionSettings => ({
  monthsAhead,
  retentionMonths: { audit: null, webhookDeliveries: null, jobs: null, doorScans: null },
});

/** The rows without the partition they sit in, to compare before and after a move. */
const withoutPart = (rows: Record<string, unknown>[]) => rows.map(({ part: _part, ...row }) => row);

describe('monthly partitions', () => {
  let server: TestServer;
  let eventId: string;
  let accountId: string;

  // Its own database: the migrations are undone and done again under it.
  before(async () => {
    server = await startServer({ isolatedDatabase: true });
    const o = await organiserWithEvent(server.url);
    eventId = o.eventId;
    accountId = o.org.userId;
  });
  after(async () => {
    await server.close();
  });

  it('migrations 0087–0090 keep every row, its identity and serial values, and the append-only audit log', async () => {
    const names = Object.keys(await migrationProvider.getMigrations()).sort();
    const beforePartitions = names.filter((n) => n < '0087').at(-1)!;
    const migrator = new Migrator({ db: server.deps.db, provider: migrationProvider });
    const down = await migrator.migrateTo(beforePartitions);
    assert.equal(down.error, undefined, String(down.error));
    for (const t of TABLES) assert.equal((await partitionsOf(server, t)).partitioned, false, t);

    const old = new Date('2025-03-10T08:00:00Z');
    await seedPartitionedRows(server, { eventId, accountId, at: old, tag: 'mig_old' });
    await seedPartitionedRows(server, { eventId, accountId, at: server.clock.now(), tag: 'mig_now' });
    const was = {
      old: await partitionedRowsTagged(server, 'mig_old'),
      now: await partitionedRowsTagged(server, 'mig_now'),
    };

    const up = await migrator.migrateToLatest();
    assert.equal(up.error, undefined, String(up.error));
    for (const t of TABLES) {
      const p = await partitionsOf(server, t);
      assert.equal(p.partitioned, true, t);
      assert.ok(p.parts.includes(`${t}_default`), `${t} has a DEFAULT partition`);
      assert.ok(p.parts.includes(`${t}_p202503`), `${t} has the month of its old rows`);
    }
    for (const tag of ['old', 'now'] as const) {
      const is = await partitionedRowsTagged(server, `mig_${tag}`);
      for (const k of ['audit', 'deliveries', 'jobs', 'scans'] as const) {
        assert.equal(is[k].length, 1, `${tag} ${k}`);
        assert.deepEqual(withoutPart(is[k]), withoutPart(was[tag][k]), `${tag} ${k} unchanged`);
      }
      if (tag === 'old')
        for (const k of ['audit', 'deliveries', 'jobs', 'scans'] as const)
          assert.match(String(is[k][0]!.part), /_p202503$/);
    }
    // The sequences go on from where they were: the next entry and scan number after the old ones.
    await seedPartitionedRows(server, { eventId, accountId, at: server.clock.now(), tag: 'mig_next' });
    const next = await partitionedRowsTagged(server, 'mig_next');
    assert.ok(BigInt(String(next.audit[0]!.seq)) > BigInt(String(was.now.audit[0]!.seq)));
    assert.ok(BigInt(String(next.jobs[0]!.seq)) > BigInt(String(was.now.jobs[0]!.seq)));
    assert.ok(BigInt(String(next.scans[0]!.id)) > BigInt(String(was.now.scans[0]!.id)));
    // Still append-only, in every partition.
    assert.equal(await tryToRewriteAudit(server, 'aud_mig_old'), '23001');
    assert.equal(await tryToRewriteAudit(server, 'aud_mig_next'), '23001');
  });

  it('makes the current month and the next ones, and a row beyond them lands in DEFAULT instead of failing', async () => {
    const now = server.clock.now();
    await maintainPartitions(server.deps.db, keepAll(3), now);
    for (const t of TABLES) {
      const { parts } = await partitionsOf(server, t);
      for (let i = 0; i <= 3; i++)
        assert.ok(parts.includes(partitionName(t, monthStart(now, i))), `${t} +${i}`);
    }
    // Again: nothing more to do.
    assert.deepEqual((await maintainPartitions(server.deps.db, keepAll(3), now)).created, []);

    const far = new Date('2099-06-15T10:00:00Z');
    await seedPartitionedRows(server, { eventId, accountId, at: far, tag: 'far' });
    const was = await partitionedRowsTagged(server, 'far');
    for (const k of ['audit', 'deliveries', 'jobs', 'scans'] as const)
      assert.match(String(was[k][0]!.part), /_default$/);

    // When the clock reaches that month, its partition is made and the rows move into it, unchanged.
    const r = await maintainPartitions(server.deps.db, keepAll(0), far);
    assert.deepEqual(r.created.sort(), TABLES.map((t) => `${t}_p209906`).sort());
    const is = await partitionedRowsTagged(server, 'far');
    for (const k of ['audit', 'deliveries', 'jobs', 'scans'] as const) {
      assert.match(String(is[k][0]!.part), /_p209906$/, k);
      assert.deepEqual(withoutPart(is[k]), withoutPart(was[k]), k);
    }
    assert.equal(await tryToRewriteAudit(server, 'aud_far'), '23001');
  });

  it('drops whole months past retention, keeps the rows within it, the audit log, and a month with a pending job', async () => {
    const now = server.clock.now();
    await seedPartitionedRows(server, { eventId, accountId, at: monthStart(now, -6), tag: 'ret_old' });
    await seedPartitionedRows(server, { eventId, accountId, at: monthStart(now, -2), tag: 'ret_edge' });
    await seedPartitionedRows(
      server,
      { eventId, accountId, at: monthStart(now, -8), tag: 'ret_waiting' },
      {
        status: 'pending',
      },
    );
    // Each old month gets its partition first, as it would have had when it was current.
    for (const back of [-8, -6, -2])
      await maintainPartitions(server.deps.db, keepAll(0), monthStart(now, back));

    const settings: PartitionSettings = {
      monthsAhead: 3,
      retentionMonths: { audit: null, webhookDeliveries: 2, jobs: 2, doorScans: 2 },
    };
    const r = await maintainPartitions(server.deps.db, settings, now);
    for (const t of ['webhook_deliveries', 'checkin_log', 'jobs'])
      assert.ok(r.dropped.includes(partitionName(t, monthStart(now, -6))), `${t} six months back dropped`);
    assert.ok(
      r.kept.includes(partitionName('jobs', monthStart(now, -8))),
      'the month with a pending job stays',
    );
    assert.ok(!r.dropped.some((p) => p.startsWith('audit_log')), 'the audit log is kept');

    const old = await partitionedRowsTagged(server, 'ret_old');
    assert.deepEqual(
      [old.audit.length, old.deliveries.length, old.jobs.length, old.scans.length],
      [1, 0, 0, 0],
    );
    const edge = await partitionedRowsTagged(server, 'ret_edge');
    assert.deepEqual(
      [edge.audit.length, edge.deliveries.length, edge.jobs.length, edge.scans.length],
      [1, 1, 1, 1],
    );
    const waiting = await partitionedRowsTagged(server, 'ret_waiting');
    assert.equal(waiting.jobs.length, 1, 'a pending job is never dropped');
    const current = await partitionedRowsTagged(server, 'mig_next');
    assert.equal(current.deliveries.length, 1, 'the current month is never dropped');
  });

  it('two instances running the upkeep at once both succeed, and each month is made or dropped once', async () => {
    const second = await startServer({ shareDatabaseWith: server });
    try {
      const month = new Date('2150-02-10T00:00:00Z');
      // A row already waiting in DEFAULT for that month: both instances try to carry it over.
      await seedPartitionedRows(server, { eventId, accountId, at: month, tag: 'race' });
      const settings = keepAll(2);
      for (let round = 0; round < 3; round++) {
        const at = monthStart(month, round * 3);
        const results = await Promise.all([
          maintainPartitions(server.deps.db, settings, at),
          maintainPartitions(second.deps.db, settings, at),
        ]);
        const made = results.flatMap((x) => x.created).sort();
        assert.deepEqual(made, [...new Set(made)], 'no month made twice');
        for (const t of TABLES)
          for (let i = 0; i <= 2; i++)
            assert.ok((await partitionsOf(server, t)).parts.includes(partitionName(t, monthStart(at, i))));
      }
      const race = await partitionedRowsTagged(server, 'race');
      for (const k of ['audit', 'deliveries', 'jobs', 'scans'] as const) {
        assert.equal(race[k].length, 1, k);
        assert.match(String(race[k][0]!.part), /_p215002$/, k);
      }
      // Both drop the same expired months at once: each goes once, neither fails.
      const drop: PartitionSettings = {
        monthsAhead: 0,
        retentionMonths: { audit: null, webhookDeliveries: 1, jobs: 1, doorScans: 1 },
      };
      const later = monthStart(month, 24);
      const dropped = (
        await Promise.all([
          maintainPartitions(server.deps.db, drop, later),
          maintainPartitions(second.deps.db, drop, later),
        ])
      ).flatMap((x) => x.dropped);
      assert.ok(dropped.includes('webhook_deliveries_p215002'));
      assert.deepEqual(dropped.slice().sort(), [...new Set(dropped)].sort(), 'no month dropped twice');
    } finally {
      await second.close();
    }
  });
});
