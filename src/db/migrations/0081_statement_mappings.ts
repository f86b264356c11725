import { type Kysely, sql } from 'kysely';

// Bank statement uploads (docs/decisions/24-payment-outside-the-gateway.md): the columns an
// account's bank export uses, remembered from its last upload so the next one needs no mapping.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table statement_mappings (
    account_id text primary key references users (id) on delete cascade,
    mapping jsonb not null,
    updated_at timestamptz not null
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists statement_mappings`.execute(db);
}
