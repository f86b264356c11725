import { type Kysely, sql } from 'kysely';

// Whether an event with tracks also sells the whole event at its base price
// (docs/decisions/28-a-persons-day.md, "prices before buyers see them"). Events made before the setting existed keep selling it
// as they did; the service writes the value of every new event itself.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table events add column whole_event_option boolean not null default true`.execute(db);
  await sql`alter table events alter column whole_event_option set default false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table events drop column whole_event_option`.execute(db);
}
