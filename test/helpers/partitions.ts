// Named fixtures for the monthly partitions (docs/operations/partitions.md): rows of the four
// partitioned tables written as the service writes them (through the parent table), and where
// each row sits (its partition).
import { sql } from 'kysely';
import type { TestServer } from './server.js';

type S = Pick<TestServer, 'deps'>;
const dbOf = (server: S) => server.deps.db;

export interface SeedRows {
  eventId: string;
  accountId: string;
  /** The time every row carries (its partition key). */
  at: Date;
  /** Makes the ids of this seed's rows apart from another's. */
  tag: string;
}

/** One row in each partitioned table: an audit entry, a webhook delivery, a job (pending or done) and a door scan. */
export async function seedPartitionedRows(
  server: S,
  s: SeedRows,
  job: { status: 'pending' | 'done' } = { status: 'done' },
): Promise<void> {
  const db = dbOf(server);
  await db
    .insertInto('audit_log')
    .values({
      id: `aud_${s.tag}`,
      account_id: s.accountId,
      mode: 'test',
      actor_kind: 'system',
      actor_id: 'system',
      actor_display: 'partition test',
      action: 'partition.test',
      target_type: 'event',
      target_id: s.eventId,
      before: null,
      after: JSON.stringify({ tag: s.tag }),
      at: s.at,
    })
    .execute();
  await db
    .insertInto('webhook_deliveries')
    .values({
      id: `dlv_${s.tag}`,
      account_id: s.accountId,
      mode: 'test',
      event_id: `evt_${s.tag}`,
      type: 'registration.created',
      url: 'https://example.invalid/hook',
      status_code: 200,
      error: null,
      duration_ms: 7,
      created_at: s.at,
    })
    .execute();
  await db
    .insertInto('jobs')
    .values({
      id: `job_${s.tag}`,
      topic: 'test.partition',
      payload: JSON.stringify({ tag: s.tag }),
      status: job.status,
      run_at: s.at,
      max_attempts: 1,
      created_at: s.at,
      finished_at: job.status === 'done' ? s.at : null,
    })
    .execute();
  await db
    .insertInto('checkin_log')
    .values({
      event_id: s.eventId,
      attendee_id: `att_${s.tag}`,
      action: 'admit',
      actor: 'dashboard',
      at: s.at,
    })
    .execute();
}

export interface PartitionedRows {
  audit: Record<string, unknown>[];
  deliveries: Record<string, unknown>[];
  jobs: Record<string, unknown>[];
  scans: Record<string, unknown>[];
}

/** Every row of the four tables whose id ends in `tag`, with the partition (`part`) it sits in. */
export async function partitionedRowsTagged(server: S, tag: string): Promise<PartitionedRows> {
  const db = dbOf(server);
  const read = async (table: string, column: string, value: string) =>
    (
      await sql<Record<string, unknown>>`select tableoid::regclass::text as part, * from ${sql.table(table)}
        where ${sql.ref(column)} = ${value} order by 2`.execute(db)
    ).rows;
  return {
    audit: await read('audit_log', 'id', `aud_${tag}`),
    deliveries: await read('webhook_deliveries', 'id', `dlv_${tag}`),
    jobs: await read('jobs', 'id', `job_${tag}`),
    scans: await read('checkin_log', 'attendee_id', `att_${tag}`),
  };
}

/** The partitions of a table, by name, and whether the table itself is partitioned. */
export async function partitionsOf(
  server: S,
  table: string,
): Promise<{ partitioned: boolean; parts: string[] }> {
  const db = dbOf(server);
  const kind = await sql<{
    k: string;
  }>`select relkind::text as k from pg_class where oid = to_regclass(${table})`.execute(db);
  const parts = await sql<{
    name: string;
  }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = to_regclass(${table}) order by 1`.execute(db);
  return { partitioned: kind.rows[0]?.k === 'p', parts: parts.rows.map((r) => r.name) };
}

/** Tries to change an audit entry; answers the SQLSTATE the database refused it with. */
export async function tryToRewriteAudit(server: S, id: string): Promise<string | undefined> {
  try {
    await dbOf(server).updateTable('audit_log').set({ action: 'rewritten' }).where('id', '=', id).execute();
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}
