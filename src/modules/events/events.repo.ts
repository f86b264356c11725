import {
  type Kysely,
  type Transaction,
  type Selectable,
  type Updateable,
  type Insertable,
  sql,
} from 'kysely';
import type { Database, EventsTable, Mode, TrackDoc } from '../../db/database.js';

export type EventRow = Selectable<EventsTable>;

export async function countByStatus(db: Kysely<Database>, accountId: string, mode: Mode) {
  const rows = await db
    .selectFrom('events')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('account_id', '=', accountId)
    .where('mode', '=', mode)
    .groupBy('status')
    .execute();
  const draft = Number(rows.find((r) => r.status === 'draft')?.n ?? 0);
  const published = Number(rows.find((r) => r.status === 'published')?.n ?? 0);
  return { total: draft + published, draft, published };
}

export function findEvent(db: Kysely<Database>, id: string): Promise<EventRow | undefined> {
  return db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The event, its row locked for the caller's transaction. */
export function lockEvent(trx: Transaction<Database>, id: string): Promise<EventRow | undefined> {
  return trx.selectFrom('events').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function findEventsById(db: Kysely<Database>, ids: readonly string[]): Promise<EventRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('events')
    .selectAll()
    .where('id', '=', sql<string>`any(${[...ids]}::text[])`)
    .execute();
}

/** Several events and the seats their own counters say are taken, in one read (one prepared statement for any number). */
export async function findEventsWithTaken(db: Kysely<Database>, ids: readonly string[]) {
  const rows = await sql<EventRow & { seats_taken: number | null }>`
    select e.*, c.taken as seats_taken from events e
    left join seat_counters c on c.event_id = e.id and c.scope = 'event'
    where e.id = any(${[...ids]}::text[])`.execute(db);
  return rows.rows;
}

/** The events of an account, in both modes, sold from a seating plan (their own, or a track's). */
export function eventsOnPlan(
  db: Kysely<Database> | Transaction<Database>,
  accountId: string,
  planId: string,
): Promise<EventRow[]> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('account_id', '=', accountId)
    .where((eb) =>
      eb.or([
        eb('seating_plan_id', '=', planId),
        sql<boolean>`tracks @> jsonb_build_array(jsonb_build_object('seatingPlanId', ${planId}::text))`,
      ]),
    )
    .orderBy('id')
    .execute();
}

export function findEventBySlug(db: Kysely<Database>, slug: string): Promise<EventRow | undefined> {
  return db.selectFrom('events').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export function slugTaken(db: Kysely<Database>, slug: string) {
  return db.selectFrom('events').select('id').where('slug', '=', slug).executeTakeFirst();
}

export async function insertEvent(db: Kysely<Database>, row: Insertable<EventsTable>): Promise<void> {
  await db.insertInto('events').values(row).execute();
}

/**
 * One page of an account's events in a mode: newest start first, events without a start
 * date last (then newest created, then id). `limit + 1` rows are read so the caller knows
 * whether more follow; `after` is the id of the previous page's last event.
 */
export function listEvents(
  db: Kysely<Database>,
  accountId: string,
  mode: Mode,
  q: { limit: number; after?: string | undefined; publishedOnly?: boolean },
): Promise<EventRow[]> {
  let query = db
    .selectFrom('events')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('mode', '=', mode);
  if (q.publishedOnly) query = query.where('status', '=', 'published');
  if (q.after !== undefined) {
    // Keyset on (no start date, start desc, created desc, id): the row after the cursor's.
    query = query.where(
      sql<boolean>`exists (select 1 from events c where c.id = ${q.after} and c.account_id = ${accountId} and (
        (events.start_at is null)::int > (c.start_at is null)::int
        or ((events.start_at is null) = (c.start_at is null) and (
          coalesce(events.start_at, '-infinity') < coalesce(c.start_at, '-infinity')
          or (coalesce(events.start_at, '-infinity') = coalesce(c.start_at, '-infinity') and (
            events.created_at < c.created_at or (events.created_at = c.created_at and events.id > c.id)))))))`,
    );
  }
  return query
    .orderBy(sql`start_at desc nulls last`)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(q.limit + 1)
    .execute();
}

/** Every event of an account in a mode, in the list's order (the dashboard's screen). */
export function listAllEvents(db: Kysely<Database>, accountId: string, mode: Mode): Promise<EventRow[]> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('mode', '=', mode)
    .orderBy(sql`start_at desc nulls last`)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/**
 * One numbered page of an account's events in a mode, in the list's order (the dashboard's
 * screen), with how many there are in all; `ids` limits both to those events (a member's).
 */
export async function listEventsNumbered(
  db: Kysely<Database>,
  accountId: string,
  mode: Mode,
  q: { limit: number; offset: number; ids: readonly string[] | null },
): Promise<{ rows: EventRow[]; total: number }> {
  if (q.ids !== null && q.ids.length === 0) return { rows: [], total: 0 };
  let base = db.selectFrom('events').where('account_id', '=', accountId).where('mode', '=', mode);
  if (q.ids !== null) base = base.where('id', 'in', q.ids);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy(sql`start_at desc nulls last`)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(q.limit)
      .offset(q.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** How many events the list holds in all. */
export async function countForList(
  db: Kysely<Database>,
  accountId: string,
  mode: Mode,
  publishedOnly: boolean,
): Promise<number> {
  let q = db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('mode', '=', mode);
  if (publishedOnly) q = q.where('status', '=', 'published');
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** Whether `id` is an event of this account and mode (a cursor must name one). */
export async function isEventOf(
  db: Kysely<Database>,
  id: string,
  accountId: string,
  mode: Mode,
): Promise<boolean> {
  return (
    (await db
      .selectFrom('events')
      .select('id')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('mode', '=', mode)
      .executeTakeFirst()) !== undefined
  );
}

export function updateEvent(
  db: Kysely<Database>,
  id: string,
  patch: Updateable<EventsTable>,
): Promise<EventRow | undefined> {
  return db.updateTable('events').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteEvent(db: Kysely<Database>, id: string): Promise<boolean> {
  const r = await db.deleteFrom('events').where('id', '=', id).executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/** Appends in one statement, so two concurrent appends get distinct indexes. */
export async function appendTrack(
  db: Kysely<Database>,
  id: string,
  track: TrackDoc,
  now: Date,
): Promise<number | undefined> {
  const row = await db
    .updateTable('events')
    .set({
      tracks: sql`tracks || jsonb_build_array(${JSON.stringify(track)}::jsonb)`,
      updated_at: now,
    })
    .where('id', '=', id)
    .returning(sql<number>`jsonb_array_length(tracks) - 1`.as('index'))
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.index);
}

/** Replaces track `index` only if it exists; undefined when it does not. */
export async function replaceTrack(
  db: Kysely<Database>,
  id: string,
  index: number,
  track: TrackDoc,
  now: Date,
) {
  return db
    .updateTable('events')
    .set({
      tracks: sql`jsonb_set(tracks, ${`{${index}}`}::text[], ${JSON.stringify(track)}::jsonb)`,
      updated_at: now,
    })
    .where('id', '=', id)
    .where(sql<boolean>`jsonb_array_length(tracks) > ${index}`)
    .returningAll()
    .executeTakeFirst();
}

/** Removes track `index` only if it exists; undefined when it does not. */
export async function removeTrack(db: Kysely<Database>, id: string, index: number, now: Date) {
  return db
    .updateTable('events')
    .set({ tracks: sql`tracks - ${index}::int`, updated_at: now })
    .where('id', '=', id)
    .where(sql<boolean>`jsonb_array_length(tracks) > ${index}`)
    .returningAll()
    .executeTakeFirst();
}

export function setTicketEmails(
  db: Kysely<Database> | Transaction<Database>,
  id: string,
  enabled: boolean,
  at: Date,
) {
  return db
    .updateTable('events')
    .set({ ticket_emails_enabled: enabled, updated_at: at })
    .where('id', '=', id)
    .returning(['id', 'ticket_emails_enabled'])
    .executeTakeFirst();
}
