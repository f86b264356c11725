import { type Kysely, sql } from 'kysely';

// Seats booked (docs/decisions/23-reserved-seating.md): each seat row keeps where the seat is as the
// buyer chose it (section, row, number and the label a person reads), so a ticket, the door and an
// export show it without reading the plan, and the person of a team booking it is for.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table event_seats
    add column section text not null default '',
    add column row_label text not null default '',
    add column seat_number integer not null default 0,
    add column label text not null default '',
    add column attendee_id text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table event_seats
    drop column section, drop column row_label, drop column seat_number, drop column label,
    drop column attendee_id`.execute(db);
}
