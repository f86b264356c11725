// What the database holds, table by table, in one query: each table's row count and an
// order-independent hash of its rows (the sum of a 64-bit hash of each row's text). The
// fuzz compares two snapshots around a refused request: a refusal writes nothing, in
// any table. The tables come from information_schema, so a table added tomorrow is
// watched without anyone remembering to list it.
import { sql, type Kysely } from 'kysely';

/**
 * Columns a refused request may change on purpose, left out of the row hash. A key's
 * `last_used_at` records that the key was presented (at most once a minute), whatever the
 * answer was.
 */
export const UNWATCHED_COLUMNS: Record<string, readonly string[]> = {
  api_keys: ['last_used_at'],
};

export type Snapshot = Map<string, string>;

export interface Snapshotter {
  tables: readonly string[];
  take(): Promise<Snapshot>;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function snapshotter(db: Kysely<any>): Promise<Snapshotter> {
  const cols = await sql<{ table_name: string; column_name: string }>`
    select c.table_name, c.column_name
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
     order by c.table_name, c.ordinal_position`.execute(db);
  const byTable = new Map<string, string[]>();
  for (const r of cols.rows) {
    if ((UNWATCHED_COLUMNS[r.table_name] ?? []).includes(r.column_name)) continue;
    byTable.set(r.table_name, [...(byTable.get(r.table_name) ?? []), r.column_name]);
  }
  const tables = [...byTable.keys()].sort();
  const parts = tables.map((t) => {
    const row = `row(${byTable
      .get(t)!
      .map((c) => `x.${ident(c)}`)
      .join(', ')})::text`;
    return `select '${t.replace(/'/g, "''")}' as t, count(*)::text || ':' || coalesce(sum(hashtextextended(${row}, 0)), 0)::text as v from ${ident(t)} x`;
  });
  const query = sql.raw<{ t: string; v: string }>(parts.join(' union all '));
  return {
    tables,
    async take() {
      const r = await query.execute(db);
      return new Map(r.rows.map((x) => [x.t, x.v]));
    },
  };
}

/** The tables whose rows differ between two snapshots, as "table count:hash → count:hash". */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const [t, v] of after) if (before.get(t) !== v) out.push(`${t} ${before.get(t) ?? 'absent'} → ${v}`);
  return out;
}
