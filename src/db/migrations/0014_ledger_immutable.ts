import { type Kysely, sql } from 'kysely';

// The ledger cannot be rewritten: the database itself refuses UPDATE, DELETE and TRUNCATE
// on ledger entries, so not even a bug in the service can change history (a correction is
// a new entry). An account with ledger history can no longer be deleted either: its
// entries are kept, not cascaded away.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function ledger_entries_immutable() returns trigger language plpgsql as $$
    begin
      raise exception 'ledger entries are append-only: % is refused', tg_op using errcode = 'restrict_violation';
    end
    $$`.execute(db);
  await sql`create trigger ledger_entries_no_update_or_delete before update or delete on ledger_entries for each row execute function ledger_entries_immutable()`.execute(
    db,
  );
  await sql`create trigger ledger_entries_no_truncate before truncate on ledger_entries for each statement execute function ledger_entries_immutable()`.execute(
    db,
  );
  await sql`alter table ledger_entries drop constraint ledger_entries_account_id_fkey`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_account_id_fkey foreign key (account_id) references users (id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ledger_entries drop constraint ledger_entries_account_id_fkey`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_account_id_fkey foreign key (account_id) references users (id) on delete cascade`.execute(
    db,
  );
  await sql`drop trigger ledger_entries_no_truncate on ledger_entries`.execute(db);
  await sql`drop trigger ledger_entries_no_update_or_delete on ledger_entries`.execute(db);
  await sql`drop function ledger_entries_immutable()`.execute(db);
}
