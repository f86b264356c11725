// The read pool (DATABASE_READ_URL; docs/operations/postgresql-and-load-balancing.md, "A replica
// for reading"): the reports that only read — the CSV exports, an event's analytics, the GSTR-1
// summary and the audit log — may read from a streaming replica, so a large export does not take the primary's
// connections and disk from the bookings. Nothing that decides reads here: seats, payments, the
// door, the booking lifecycle, the ledger's balances and every write use the primary, since a
// replica is behind by some fraction of a second (reading seats from it would oversell).
// test/architecture/read-pool.test.ts keeps that so. Each answer read here says how far behind
// the replica was (`X-Replica-Lag`, seconds, replica-lag.ts), measured at most once a second. Without
// DATABASE_READ_URL the "read pool" is the primary and the lag is 0.
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './database.js';

export interface ReadPool {
  /** Where the reports read: the replica, or the primary when there is none. */
  readonly db: Kysely<Database>;
  /** Whether `db` is a replica of its own (DATABASE_READ_URL). */
  readonly replica: boolean;
  /** How many seconds the replica's data is behind the primary's (0 when caught up, or no replica). */
  lagSeconds(): Promise<number>;
  close(): Promise<void>;
}

/** Measured at most this often; the reports that follow share the figure. */
const LAG_EVERY_MS = 1_000;

/**
 * The replica's lag: 0 while it has replayed all it received (an idle primary sends nothing, so
 * the time since the last replayed commit says nothing then), else the time since that commit.
 */
const LAG = sql<{ lag: number | string | null }>`select case
    when not pg_is_in_recovery() or pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
    else extract(epoch from now() - pg_last_xact_replay_timestamp()) end as lag`;

export function openReadPool(
  readUrl: string | undefined,
  primary: Kysely<Database>,
  /** The service clock's milliseconds (the lag is measured at most once a second by it). */
  now: () => number,
  max: number,
): ReadPool {
  if (readUrl === undefined)
    return { db: primary, replica: false, lagSeconds: async () => 0, close: async () => {} };
  const pool = new pg.Pool({ connectionString: readUrl, max, connectionTimeoutMillis: 10_000 });
  // A replica restarting or away must not end the process: its statements fail (503) meanwhile.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  let measured: { at: number; lag: Promise<number> } | undefined;
  return {
    db,
    replica: true,
    lagSeconds() {
      const at = now();
      if (!measured || at - measured.at >= LAG_EVERY_MS) {
        const lag = LAG.execute(db).then((r) => Math.max(0, Number(r.rows[0]?.lag ?? 0)));
        measured = { at, lag };
        lag.catch(() => {
          if (measured?.lag === lag) measured = undefined;
        });
      }
      return measured.lag;
    },
    close: () => db.destroy(),
  };
}
