// Monthly partitions of the tables that only grow (docs/operations/partitions.md): the audit log,
// webhook deliveries, jobs and the door's check-in log are PARTITION BY RANGE on their time
// column, one partition a calendar month (UTC) named `<table>_pYYYYMM`, and a DEFAULT partition
// that takes any row no month partition covers, so an insert never fails for want of one.
//
// `maintainPartitions` is what every instance may run, as often as it likes, at once with the
// others: it makes the current month's partition and the next ones, and drops (detach, then
// drop) whole months older than a table's retention. Each table's work is a transaction of its
// own under a transaction-scoped advisory lock on the table, with a short lock_timeout so it
// never queues in front of the service's own statements for long (a timeout is retried at the
// next run). Partitions that exist already cost a catalogue lookup and no lock.
import { type Kysely, sql, type Transaction } from 'kysely';

export interface PartitionedTable {
  readonly table: string;
  /** The partition key: the row's time. */
  readonly column: string;
  /** A month is not dropped while one of its rows matches this (SQL), however old it is. */
  readonly keepWhile?: string;
}

export const PARTITIONED_TABLES = {
  audit: { table: 'audit_log', column: 'at' },
  webhookDeliveries: { table: 'webhook_deliveries', column: 'created_at' },
  // A job queued long ago may still wait for its run_at (a reminder months ahead).
  jobs: { table: 'jobs', column: 'created_at', keepWhile: "status = 'pending'" },
  doorScans: { table: 'checkin_log', column: 'at' },
} as const satisfies Record<string, PartitionedTable>;

export type PartitionedName = keyof typeof PARTITIONED_TABLES;

export interface PartitionSettings {
  /** Months made ahead of the current one. */
  readonly monthsAhead: number;
  /** Whole months kept before the current one, per table; null keeps every month. */
  readonly retentionMonths: Readonly<Record<PartitionedName, number | null>>;
}

export interface MaintenanceResult {
  created: string[];
  dropped: string[];
  /** Old months kept because a row in them must stay (keepWhile). */
  kept: string[];
}

/** The first instant of `d`'s month, UTC, moved by `months`. */
export function monthStart(d: Date, months = 0): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
}

export function partitionName(table: string, month: Date): string {
  return `${table}_p${month.getUTCFullYear()}${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

const ident = (name: string) => sql.id(name);
const at = (d: Date) => sql.lit(d.toISOString());

// ownership-exception: partition upkeep is DDL on the tables PARTITIONED_TABLES names (their owners declare them) and reads of the catalogue; the names are built at run time.
async function exists(db: Kysely<any> | Transaction<any>, name: string): Promise<boolean> {
  // A scan of pg_class under the statement's snapshot (not the session's cached catalogue), so a
  // partition another instance committed while this one waited for the lock is seen.
  const r = await sql<{
    e: boolean;
  }>`select exists (select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relname = ${name} and n.nspname = current_schema()) as e`.execute(db);
  return r.rows[0]?.e === true;
}

/** Runs `work` in a transaction holding the table's maintenance lock. */
// ownership-exception: partition upkeep is DDL on the tables PARTITIONED_TABLES names (their owners declare them) and reads of the catalogue; the names are built at run time.
function locked<T>(db: Kysely<any>, table: string, work: (trx: Transaction<any>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    // Another instance's upkeep of the table is waited for whole (its own statements are bounded
    // by the timeout set after); only then is the timeout set, for the DDL on the service's tables.
    await sql`select pg_advisory_xact_lock(hashtext(${`partitions ${table}`}))`.execute(trx);
    await sql`set local lock_timeout = '5s'`.execute(trx);
    return work(trx);
  });
}

/**
 * The month partition from `month`, made in `trx`. Rows of that month already in the DEFAULT
 * partition (inserted before the month had its own) are carried over: the DEFAULT partition is
 * detached and replaced by an empty one, and its rows are inserted again through the parent,
 * so each lands in its partition (no DELETE: the audit log refuses one).
 */
// ownership-exception: partition upkeep is DDL on the tables PARTITIONED_TABLES names (their owners declare them) and reads of the catalogue; the names are built at run time.
export async function createMonthPartition(
  trx: Transaction<any> | Kysely<any>,
  t: PartitionedTable,
  month: Date,
): Promise<void> {
  const name = partitionName(t.table, month);
  const lo = at(month);
  const hi = at(monthStart(month, 1));
  const dflt = `${t.table}_default`;
  const col = ident(t.column);
  const stray = await sql<{ n: boolean }>`select exists (select 1 from ${ident(dflt)}
    where ${col} >= ${lo} and ${col} < ${hi}) as n`.execute(trx);
  if (stray.rows[0]?.n) {
    const moving = `${dflt}_moving`;
    await sql`alter table ${ident(t.table)} detach partition ${ident(dflt)}`.execute(trx);
    await sql`alter table ${ident(dflt)} rename to ${ident(moving)}`.execute(trx);
    await sql`create table ${ident(dflt)} partition of ${ident(t.table)} default`.execute(trx);
    await sql`create table ${ident(name)} partition of ${ident(t.table)} for values from (${lo}) to (${hi})`.execute(
      trx,
    );
    await sql`insert into ${ident(t.table)} overriding system value select * from ${ident(moving)}`.execute(
      trx,
    );
    await sql`drop table ${ident(moving)}`.execute(trx);
    return;
  }
  await sql`create table if not exists ${ident(name)} partition of ${ident(t.table)} for values from (${lo}) to (${hi})`.execute(
    trx,
  );
}

/** The current month's partition and `ahead` more; returns the names it made. */
// ownership-exception: partition upkeep is DDL on the tables PARTITIONED_TABLES names (their owners declare them) and reads of the catalogue; the names are built at run time.
export async function ensurePartitions(
  db: Kysely<any>,
  t: PartitionedTable,
  now: Date,
  ahead: number,
): Promise<string[]> {
  const missing: Date[] = [];
  for (let i = 0; i <= ahead; i++) {
    const month = monthStart(now, i);
    if (!(await exists(db, partitionName(t.table, month)))) missing.push(month);
  }
  if (missing.length === 0) return [];
  return locked(db, t.table, async (trx) => {
    const made: string[] = [];
    for (const month of missing) {
      // Another instance may have made it while this one waited for the lock.
      if (await exists(trx, partitionName(t.table, month))) continue;
      await createMonthPartition(trx, t, month);
      made.push(partitionName(t.table, month));
    }
    return made;
  });
}

/** The table's month partitions, oldest first. */
// ownership-exception: partition upkeep is DDL on the tables PARTITIONED_TABLES names (their owners declare them) and reads of the catalogue; the names are built at run time.
async function monthPartitions(
  db: Kysely<any> | Transaction<any>,
  table: string,
): Promise<{ name: string; month: Date }[]> {
  const r = await sql<{ name: string }>`select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass(${table}) order by c.relname`.execute(
    db,
  );
  const pattern = new RegExp(`^${table}_p(\\d{4})(\\d{2})$`);
  return r.rows.flatMap(({ name }) => {
    const m = pattern.exec(name);
    return m ? [{ name, month: new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)) }] : [];
  });
}

/**
 * Drops the month partitions that end before the current month less `keep` whole months
 * (`keep` ≥ 1, so the current month and the one before it always stay).
 */
// ownership-exception: partition upkeep is DDL on the tables PARTITIONED_TABLES names (their owners declare them) and reads of the catalogue; the names are built at run time.
export async function dropExpiredPartitions(
  db: Kysely<any>,
  t: PartitionedTable,
  now: Date,
  keep: number,
): Promise<{ dropped: string[]; kept: string[] }> {
  const cutoff = monthStart(now, -Math.max(1, keep));
  const old = (await monthPartitions(db, t.table)).filter((p) => p.month < cutoff);
  if (old.length === 0) return { dropped: [], kept: [] };
  return locked(db, t.table, async (trx) => {
    const dropped: string[] = [];
    const kept: string[] = [];
    for (const p of old) {
      if (!(await exists(trx, p.name))) continue;
      if (t.keepWhile) {
        const r = await sql<{
          n: boolean;
        }>`select exists (select 1 from ${ident(p.name)} where ${sql.raw(t.keepWhile)}) as n`.execute(trx);
        if (r.rows[0]?.n) {
          kept.push(p.name);
          continue;
        }
      }
      await sql`alter table ${ident(t.table)} detach partition ${ident(p.name)}`.execute(trx);
      await sql`drop table ${ident(p.name)}`.execute(trx);
      dropped.push(p.name);
    }
    return { dropped, kept };
  });
}

/** Every partitioned table: months ahead made, expired months dropped. One table failing does not stop the others. */
// ownership-exception: partition upkeep is DDL on the tables PARTITIONED_TABLES names (their owners declare them) and reads of the catalogue; the names are built at run time.
export async function maintainPartitions(
  db: Kysely<any>,
  settings: PartitionSettings,
  now: Date,
): Promise<MaintenanceResult> {
  const result: MaintenanceResult = { created: [], dropped: [], kept: [] };
  const failures: string[] = [];
  for (const [key, t] of Object.entries(PARTITIONED_TABLES) as [PartitionedName, PartitionedTable][]) {
    try {
      result.created.push(...(await ensurePartitions(db, t, now, settings.monthsAhead)));
      const keep = settings.retentionMonths[key];
      if (keep !== null) {
        const r = await dropExpiredPartitions(db, t, now, keep);
        result.dropped.push(...r.dropped);
        result.kept.push(...r.kept);
      }
    } catch (err) {
      failures.push(`${t.table}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (failures.length > 0) throw new Error(`partition maintenance failed for ${failures.join('; ')}`);
  return result;
}
