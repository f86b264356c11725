// Queries behind the organiser's views of an event's registrations and attendees: the
// searched list, sales per day, arrivals per quarter-hour and door progress.
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database, RegistrationsTable } from '../../db/database.js';

export interface RegistrationSearch {
  /** Part of a name or email, or a whole registration id. */
  q?: string | undefined;
  status?: RegistrationsTable['status'] | undefined;
  /** A tier's name, or `General` for the base price. */
  ticketType?: string | undefined;
  /** A track's index; null: bookings of no track. */
  subEventId?: number | null | undefined;
  /** true: someone on the booking is in; false: nobody is yet. */
  checkedIn?: boolean | undefined;
  limit: number;
  /** The last row of the previous page: newest first, so older than this. */
  after?: { createdAt: Date; id: string } | undefined;
}

/** Newest first, one page (limit + 1 rows read, so the caller knows whether more follow). */
export function searchByEvent(db: Kysely<Database>, eventId: string, s: RegistrationSearch) {
  let q = db.selectFrom('registrations').selectAll().where('event_id', '=', eventId);
  if (s.status !== undefined) q = q.where('status', '=', s.status);
  if (s.ticketType !== undefined) q = q.where('ticket_type', '=', s.ticketType);
  if (s.subEventId === null) q = q.where('sub_event_id', 'is', null);
  else if (s.subEventId !== undefined) q = q.where('sub_event_id', '=', s.subEventId);
  if (s.checkedIn !== undefined) {
    const inside = (
      eb: ExpressionBuilder<Database & { registrations: RegistrationsTable }, 'registrations'>,
    ) =>
      eb.exists(
        eb
          .selectFrom('attendees')
          .select('attendees.id')
          .whereRef('attendees.registration_id', '=', 'registrations.id')
          .where('attendees.checked_in_at', 'is not', null),
      );
    q = q.where((eb) => (s.checkedIn ? inside(eb) : eb.not(inside(eb))));
  }
  const text = s.q?.trim();
  if (text) {
    const like = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb('id', '=', text),
        eb(eb.fn('lower', ['name']), 'like', like),
        eb(eb.fn('lower', ['email']), 'like', like),
      ]),
    );
  }
  if (s.after) {
    const { createdAt, id } = s.after;
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '<', createdAt),
        eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)]),
      ]),
    );
  }
  return q
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(s.limit + 1)
    .execute();
}

/** Whether any booking (of any status) names track `index` or a later one: those tracks' indexes must not move. */
export async function anyOnTracksFrom(
  db: Kysely<Database>,
  eventId: string,
  index: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('registrations')
    .select('id')
    .where('event_id', '=', eventId)
    .where('sub_event_id', '>=', index)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Confirmed bookings by the day (IST) they were confirmed: day = days since 1970-01-01 IST. */
export async function salesByDay(db: Kysely<Database>, eventId: string) {
  const rows = await sql<{ day: string; bookings: string; tickets: string; paise: string }>`
    select floor((extract(epoch from confirmed_at) + 19800) / 86400) as day,
           count(*) as bookings, coalesce(sum(quantity), 0) as tickets, coalesce(sum(amount_paise), 0) as paise
      from registrations
     where event_id = ${eventId} and status = 'confirmed' and confirmed_at is not null
     group by 1 order by 1`.execute(db);
  return rows.rows.map((r) => ({
    day: Number(r.day),
    bookings: Number(r.bookings),
    tickets: Number(r.tickets),
    revenuePaise: Number(r.paise),
  }));
}

/** People admitted per 15 minutes: slot = quarter-hours since the epoch. */
export async function arrivalsBySlot(db: Kysely<Database>, eventId: string) {
  const rows = await sql<{ slot: string; arrivals: string }>`
    select floor(extract(epoch from a.checked_in_at) / 900) as slot, count(*) as arrivals
      from attendees a join registrations r on r.id = a.registration_id
     where r.event_id = ${eventId} and r.status = 'confirmed' and a.checked_in_at is not null
     group by 1 order by 1`.execute(db);
  return rows.rows.map((r) => ({ slot: Number(r.slot), arrivals: Number(r.arrivals) }));
}

/** Heads expected at the door (everyone on a confirmed booking) and how many are in. */
export async function doorCounts(db: Kysely<Database>, eventId: string) {
  const row = await db
    .selectFrom('attendees as a')
    .innerJoin('registrations as r', 'r.id', 'a.registration_id')
    .select([
      (eb) => eb.fn.countAll<number>().as('expected'),
      (eb) => eb.fn.count<number>('a.checked_in_at').as('arrived'),
    ])
    .where('r.event_id', '=', eventId)
    .where('r.status', '=', 'confirmed')
    .executeTakeFirstOrThrow();
  return { expected: Number(row.expected), arrived: Number(row.arrived) };
}

/** Which of an event's bookings an export takes (all when empty). */
export interface ExportFilter {
  status?: RegistrationsTable['status'] | undefined;
  ticketType?: string | undefined;
  /** A track index (0-based, as the API numbers tracks). */
  subEventId?: number | undefined;
  /** Bookings someone on which is in (true), or nobody on which is in (false). */
  checkedIn?: boolean | undefined;
  /** Part of a name or email, or a whole registration id (the dashboard's search). */
  q?: string | undefined;
}

/**
 * One page of an export, oldest first: at most `limit` bookings after the booking `after`
 * (by created_at, then id; the index registrations_event_order serves it).
 */
export function exportPage(
  db: Kysely<Database>,
  eventId: string,
  filter: ExportFilter,
  after: string | undefined,
  limit: number,
) {
  let q = db.selectFrom('registrations as r').selectAll('r').where('r.event_id', '=', eventId);
  if (filter.status !== undefined) q = q.where('r.status', '=', filter.status);
  if (filter.ticketType !== undefined) q = q.where('r.ticket_type', '=', filter.ticketType);
  if (filter.subEventId !== undefined) q = q.where('r.sub_event_id', '=', filter.subEventId);
  if (filter.checkedIn !== undefined) {
    const someoneIn = sql<boolean>`exists (select 1 from attendees a where a.registration_id = r.id and a.checked_in_at is not null)`;
    q = q.where(filter.checkedIn ? someoneIn : sql<boolean>`not ${someoneIn}`);
  }
  const text = filter.q?.trim();
  if (text) {
    const like = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb('r.id', '=', text),
        eb(eb.fn('lower', ['r.name']), 'like', like),
        eb(eb.fn('lower', ['r.email']), 'like', like),
      ]),
    );
  }
  if (after !== undefined) {
    // The cursor is the last booking's id: its (created_at, id) read here, to the microsecond.
    q = q.where(
      sql<boolean>`(r.created_at, r.id) > (select c.created_at, c.id from registrations c where c.id = ${after})`,
    );
  }
  return q.orderBy('r.created_at').orderBy('r.id').limit(limit).execute();
}
