import { type Kysely, sql } from 'kysely';

// Reserved seating (docs/decisions/23-reserved-seating.md): an event may take a seating plan, and
// each of its seats that is held, sold or kept back is one row keyed by (event, seat). The key is
// what makes a seat held or sold once: a hold is an insert that only takes over a row whose hold
// has lapsed, in one statement, so two instances racing for a seat cannot both have it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table events add column seating_plan_id text`.execute(db);
  await db.schema
    .createTable('event_seats')
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('seat_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('held', 'sold', 'blocked')`))
    .addColumn('hold_token', 'text')
    .addColumn('held_until', 'timestamptz')
    .addColumn('registration_id', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_seats_pkey', ['event_id', 'seat_id'])
    .execute();
  await sql`create index event_seats_hold on event_seats (hold_token) where hold_token is not null`.execute(
    db,
  );
  await sql`create index event_seats_registration on event_seats (registration_id) where registration_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('event_seats').execute();
  await sql`alter table events drop column seating_plan_id`.execute(db);
}
