import { type Kysely, sql } from 'kysely';

// A booking moved to other seats (docs/decisions/23-reserved-seating.md) changes what the door
// shows: its seat rows are re-keyed in place, and that raises the event's door version as a
// change of the booking itself does, and marks the rows with the writing transaction (door_xid,
// as bookings and people are marked), so a roster's next delta reads the booking again.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table event_seats add column door_xid xid8`.execute(db);
  await sql`create trigger event_seats_door_mark before insert or update on event_seats
    for each row execute function door_mark()`.execute(db);
  await sql`create constraint trigger event_seats_door_move after update on event_seats
    deferrable initially deferred for each row
    when (old.seat_id is distinct from new.seat_id and new.registration_id is not null
      and current_setting('door.all', true) is distinct from 'on')
    execute function door_announce()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists event_seats_door_move on event_seats`.execute(db);
  await sql`drop trigger if exists event_seats_door_mark on event_seats`.execute(db);
  await sql`alter table event_seats drop column if exists door_xid`.execute(db);
}
