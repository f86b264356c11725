import { type Kysely, sql } from 'kysely';

// A booking's gateway order, its payment and a transferred ticket's code are null on every
// free booking (and the code on nearly every booking), yet their unique indexes held an entry
// for each row: three index writes on every free booking's commit, and, at millions of
// bookings, three indexes made mostly of nulls that nothing looks up. Each is now unique among
// the values that exist (a partial index `where … is not null`, which every lookup by value
// uses: `= $1` is never true of a null), built before the old constraint is dropped so the
// column is never without it.
const COLUMNS = ['order_id', 'payment_id', 'ticket_code'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of COLUMNS) {
    await sql`create unique index ${sql.id(`registrations_${column}`)} on registrations (${sql.id(column)}) where ${sql.id(column)} is not null`.execute(
      db,
    );
    await sql`alter table registrations drop constraint ${sql.id(`registrations_${column}_key`)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of COLUMNS) {
    await sql`alter table registrations add constraint ${sql.id(`registrations_${column}_key`)} unique (${sql.id(column)})`.execute(
      db,
    );
    await sql`drop index ${sql.id(`registrations_${column}`)}`.execute(db);
  }
}
