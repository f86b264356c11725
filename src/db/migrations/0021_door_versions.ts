import { type Kysely, sql } from 'kysely';

// The door's in-memory rosters (docs/decisions/15-the-door.md, speed): every change that affects what the
// door shows or decides raises the event's version; once some instance holds a roster of the
// event (`watched`), the change is also announced, at commit, on the `door` channel
// (`<event id> <version>`), and to the writing session as a NOTICE (`door_changed <event id>
// <version>`), so the writing instance knows before it answers. A roster remembers the version
// it reflects; one that finds the database's version ahead of every notification it heard has
// missed one, and is rebuilt. Only watched events notify because PostgreSQL commits notifying
// transactions one at a time, database-wide: a ticket drop weeks before the door opens must
// not pay for it.
//
// The announcement is a deferred constraint trigger: it runs at commit, after everything
// else the transaction locks, so the version row (locked until the commit) never sits in
// the middle of a lock order. One bump per event and transaction (`door.events` lists those
// bumped). The door's own statements (admit and undo) bump and announce themselves and set
// `door.all` first, which the triggers' WHEN skips.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table door_versions (event_id text primary key, version bigint not null, watched boolean not null default false)`.execute(
    db,
  );

  await sql`create or replace function door_announce() returns trigger language plpgsql as $$
    declare
      e text;
      v bigint;
      w boolean;
      done text := coalesce(current_setting('door.events', true), '');
    begin
      if current_setting('door.all', true) = 'on' then return null; end if;
      if tg_table_name = 'attendees' then
        select r.event_id into e from registrations r where r.id = new.registration_id;
      elsif tg_table_name = 'events' then
        e := new.id;
      else
        e := new.event_id;
      end if;
      if e is null or position(',' || e || ',' in done || ',') > 0 then return null; end if;
      insert into door_versions as d (event_id, version) values (e, 1)
        on conflict (event_id) do update set version = d.version + 1
        returning d.version, d.watched into v, w;
      if w then
        perform pg_notify('door', e || ' ' || v);
        raise notice 'door_changed % %', e, v;
      end if;
      perform set_config('door.events', done || ',' || e, true);
      return null;
    end $$`.execute(db);

  const deferred = (name: string, table: string, events: string, when: string) =>
    sql.raw(`create constraint trigger ${name} after ${events} on ${table} deferrable initially deferred for each row
      when ((${when}) and current_setting('door.all', true) is distinct from 'on') execute function door_announce()`);
  // A booking's people are inserted with the booking, so its insert covers theirs.
  await deferred('registrations_door_insert', 'registrations', 'insert', 'true').execute(db);
  await deferred(
    'registrations_door_update',
    'registrations',
    'update',
    `old.status is distinct from new.status or old.ticket_code is distinct from new.ticket_code
      or old.previous_ticket_codes is distinct from new.previous_ticket_codes or old.name is distinct from new.name
      or old.ticket_type is distinct from new.ticket_type or old.sub_event_id is distinct from new.sub_event_id`,
  ).execute(db);
  await deferred(
    'attendees_door_update',
    'attendees',
    'update',
    `old.checked_in_at is distinct from new.checked_in_at or old.checked_in_by is distinct from new.checked_in_by
      or old.name is distinct from new.name or old.email is distinct from new.email`,
  ).execute(db);
  await deferred(
    'events_door_update',
    'events',
    'update',
    'old.title is distinct from new.title or old.tracks is distinct from new.tracks',
  ).execute(db);

  // A deleted event's rosters are dropped; its bookings go with it (cascade).
  await sql`create or replace function door_event_deleted() returns trigger language plpgsql as $$
    begin
      delete from door_versions where event_id = old.id;
      perform pg_notify('door', old.id || ' deleted');
      return null;
    end $$`.execute(db);
  await sql`create trigger events_door_delete after delete on events for each row execute function door_event_deleted()`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists events_door_delete on events`.execute(db);
  await sql`drop trigger if exists events_door_update on events`.execute(db);
  await sql`drop trigger if exists attendees_door_update on attendees`.execute(db);
  await sql`drop trigger if exists registrations_door_update on registrations`.execute(db);
  await sql`drop trigger if exists registrations_door_insert on registrations`.execute(db);
  await sql`drop function if exists door_event_deleted()`.execute(db);
  await sql`drop function if exists door_announce()`.execute(db);
  await sql`drop table if exists door_versions`.execute(db);
}
