// Turning a table into a monthly-partitioned one and back (migrations 0087–0090,
// docs/operations/partitions.md). Every row is copied with its values as they were (identity
// and serial columns included, their sequences carried on), then the indexes, foreign keys and
// triggers the caller names are made on the new table and the old one is dropped. The primary
// key gains the partition key: PostgreSQL's unique indexes on a partitioned table must include
// it. Runs in the migration's transaction.
import { type Kysely, sql } from 'kysely';
import { createMonthPartition, type PartitionedTable } from './partitions.js';

export interface TableShape extends PartitionedTable {
  /** The primary key's columns before partitioning (the partition key is added to them). */
  readonly key: readonly string[];
  /** Statements run once the rows are in: indexes, foreign keys, triggers. */
  readonly after: readonly string[];
}

const id = (name: string) => sql.id(name);

/** Frees the names the new table takes: the old one's key, foreign keys and indexes. */
// ownership-exception: a migration helper rebuilding a table named by its migration, through the catalogue; the names are built at run time.
async function releaseNames(db: Kysely<any>, old: string): Promise<void> {
  const cons = await sql<{ name: string }>`select conname as name from pg_constraint
    where conrelid = to_regclass(${old}) and contype in ('p', 'u', 'f') and conparentid = 0`.execute(db);
  for (const c of cons.rows) await sql`alter table ${id(old)} drop constraint ${id(c.name)}`.execute(db);
  const idx = await sql<{
    name: string;
  }>`select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid
    where i.indrelid = to_regclass(${old})`.execute(db);
  for (const i of idx.rows) await sql`drop index if exists ${id(i.name)}`.execute(db);
}

/** Copies the rows, then carries identity values and serial sequences over to `table`. */
// ownership-exception: a migration helper rebuilding a table named by its migration, through the catalogue; the names are built at run time.
async function copyRows(db: Kysely<any>, old: string, table: string): Promise<void> {
  await sql`insert into ${id(table)} overriding system value select * from ${id(old)}`.execute(db);
  const cols = await sql<{ name: string; identity: string }>`select attname as name, attidentity as identity
    from pg_attribute where attrelid = to_regclass(${table}) and attnum > 0 and not attisdropped`.execute(db);
  for (const c of cols.rows) {
    const seq = await sql<{
      s: string | null;
    }>`select pg_get_serial_sequence(${table}, ${c.name}) as s`.execute(db);
    const s = seq.rows[0]?.s;
    if (!s) continue;
    if (c.identity !== '') {
      await sql`select setval(${s}, coalesce((select max(${id(c.name)}) from ${id(table)}), 0) + 1, false)`.execute(
        db,
      );
    }
  }
  // A serial column's sequence belongs to the old table; the new one's default uses it.
  const owned = await sql<{
    seq: string;
    col: string;
  }>`select s.relname as seq, a.attname as col from pg_depend d
    join pg_class s on s.oid = d.objid and s.relkind = 'S'
    join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
    where d.refobjid = to_regclass(${old}) and d.deptype = 'a'`.execute(db);
  for (const o of owned.rows) {
    await sql`alter sequence ${id(o.seq)} owned by ${id(table)}.${id(o.col)}`.execute(db);
  }
}

/** `table` becomes PARTITION BY RANGE on its time column: a partition for each month it holds rows of, and DEFAULT. */
// ownership-exception: a migration helper rebuilding a table named by its migration, through the catalogue; the names are built at run time.
export async function partitionTable(db: Kysely<any>, t: TableShape): Promise<void> {
  const old = `${t.table}_unpartitioned`;
  await sql`alter table ${id(t.table)} rename to ${id(old)}`.execute(db);
  await releaseNames(db, old);
  await sql`create table ${id(t.table)} (like ${id(old)} including defaults including constraints including identity including generated)
    partition by range (${id(t.column)})`.execute(db);
  await sql`alter table ${id(t.table)} add constraint ${id(`${t.table}_pkey`)} primary key (${sql.join(
    [...t.key, t.column].map(id),
  )})`.execute(db);
  await sql`create table ${id(`${t.table}_default`)} partition of ${id(t.table)} default`.execute(db);
  const months = await sql<{
    m: Date;
  }>`select distinct date_trunc('month', ${id(t.column)} at time zone 'UTC') at time zone 'UTC' as m
    from ${id(old)} order by 1`.execute(db);
  for (const { m } of months.rows) await createMonthPartition(db, t, new Date(m));
  await copyRows(db, old, t.table);
  for (const s of t.after) await sql.raw(s).execute(db);
  await sql`drop table ${id(old)}`.execute(db);
}

/** The way back: one plain table with the primary key it had before. */
// ownership-exception: a migration helper rebuilding a table named by its migration, through the catalogue; the names are built at run time.
export async function unpartitionTable(db: Kysely<any>, t: TableShape): Promise<void> {
  const old = `${t.table}_partitioned`;
  await sql`alter table ${id(t.table)} rename to ${id(old)}`.execute(db);
  await releaseNames(db, old);
  await sql`create table ${id(t.table)} (like ${id(old)} including defaults including constraints including identity including generated)`.execute(
    db,
  );
  await sql`alter table ${id(t.table)} add constraint ${id(`${t.table}_pkey`)} primary key (${sql.join(t.key.map(id))})`.execute(
    db,
  );
  await copyRows(db, old, t.table);
  for (const s of t.after) await sql.raw(s).execute(db);
  await sql`drop table ${id(old)} cascade`.execute(db);
}
