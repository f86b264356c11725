import { type Kysely, sql } from 'kysely';

// The audit log (docs/decisions/17-the-organisers-office.md): one row per change a person, an API key or a door
// pass made, with the actor, the time, the target and a short before/after. Like the
// ledger (0014) it cannot be rewritten: the database refuses UPDATE, DELETE and TRUNCATE.
// `seq` orders it (newest first) for keyset pages. No foreign keys: a deleted event or
// account keeps its history.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.generatedAlwaysAsIdentity())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('test', 'live')`))
    .addColumn('actor_kind', 'text', (c) =>
      c.notNull().check(sql`actor_kind in ('user', 'key', 'door_pass', 'staff', 'attendee', 'system')`),
    )
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('actor_display', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create index audit_log_account on audit_log (account_id, mode, seq desc)`.execute(db);
  await sql`create index audit_log_target on audit_log (account_id, mode, target_type, target_id, seq desc)`.execute(
    db,
  );
  await sql`
    create function audit_log_immutable() returns trigger language plpgsql as $$
    begin
      raise exception 'the audit log is append-only: % is refused', tg_op using errcode = 'restrict_violation';
    end
    $$`.execute(db);
  await sql`create trigger audit_log_no_update_or_delete before update or delete on audit_log for each row execute function audit_log_immutable()`.execute(
    db,
  );
  await sql`create trigger audit_log_no_truncate before truncate on audit_log for each statement execute function audit_log_immutable()`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table audit_log`.execute(db);
  await sql`drop function audit_log_immutable()`.execute(db);
}
