// The baseline's tables for `npm run bench:size` (ref_size_*, read by
// bench/size-baseline-server.ts): what a careful engineer would make for the same questions,
// loaded with the same row counts by the same generate_series (bench/size-load-sql.ts's
// `generated`, so every event has as many registrations of each status as the service's). No
// triggers, no partitions; integer keys; the indexes each question needs and no more:
// - a page and an export by keyset: (event_id, created_at, id);
// - analytics: (event_id, status) covering the amount and the time of the first admit, so the
//   counts are an index-only scan (each booking keeps when it was first admitted, the
//   denormalised figure the question asks for; its people keep their own);
// - the audit log's newest first: (account, seq desc);
// - an account's events in the dashboard's order: (account, start_at desc, created_at desc, id),
//   each event keeping its seats taken and its registrations' count.
import type pg from 'pg';
import type { PlannedEvent } from './size-data.js';
import { generated } from './size-load-sql.js';
import { eachWindow, windowArrays } from './size-load.js';

const TABLES = [
  `create table ref_size_events (id int primary key, account int not null, title text not null,
    start_at timestamptz not null, created_at timestamptz not null, capacity int not null,
    price_paise int not null, team boolean not null, taken int not null default 0,
    registrations int not null default 0)`,
  `create index ref_size_events_list on ref_size_events (account, start_at desc, created_at desc, id)`,
  `create table ref_size_registrations (id bigint generated always as identity primary key,
    event_id int not null references ref_size_events, account int not null, status text not null,
    name text not null, email text not null, phone text, quantity int not null, amount_paise int not null,
    answer text, created_at timestamptz not null, confirmed_at timestamptz, cancelled_at timestamptz,
    checked_in_at timestamptz)`,
  `create index ref_size_registrations_order on ref_size_registrations (event_id, created_at, id)`,
  `create index ref_size_registrations_status on ref_size_registrations (event_id, status) include (amount_paise, checked_in_at)`,
  `create table ref_size_attendees (registration_id bigint not null references ref_size_registrations,
    idx int not null, name text not null, email text not null, checked_in_at timestamptz,
    primary key (registration_id, idx))`,
  `create table ref_size_audit (seq bigint generated always as identity primary key, account int not null,
    action text not null, target text not null, before jsonb, after jsonb, at timestamptz not null)`,
  `create index ref_size_audit_account on ref_size_audit (account, seq desc)`,
];

export async function createRefTables(db: pg.Pool): Promise<void> {
  for (const t of TABLES) await db.query(t);
}

/** The same events (id = plan index + 1): owner, dates, capacity, price, team. */
async function insertRefEvents(db: pg.Pool, events: readonly PlannedEvent[]): Promise<void> {
  await db.query(
    `insert into ref_size_events (id, account, title, start_at, created_at, capacity, price_paise, team)
     select i + 1, a, 'Event ' || (i + 1), s, c, cap, case when k = 'paid' then 49900 else 0 end, k = 'team'
     from unnest($1::int[], $2::int[], $3::timestamptz[], $4::timestamptz[], $5::int[], $6::text[]) as p(i, a, s, c, cap, k)`,
    [
      events.map((e) => e.index),
      events.map((e) => e.account),
      events.map((e) => e.startAt),
      events.map((e) => e.createdAt),
      events.map((e) => e.capacity),
      events.map((e) => e.kind),
    ],
  );
}

/** A window's registrations in the order they sold, and their people ($9: now). */
const WINDOW = `
  with r as (
    insert into ref_size_registrations (event_id, account, status, name, email, phone, quantity, amount_paise,
      answer, created_at, confirmed_at, cancelled_at, checked_in_at)
    select e.id, e.account, x.status, x.name, x.email, x.phone, x.quantity,
      case when x.paid then e.price_paise * x.quantity else 0 end, case when x.paid or e.team then x.answer end,
      x.at,
      case when x.status in ('confirmed', 'refunded') or (x.status = 'cancelled' and not x.paid) then x.at end,
      case when x.status in ('cancelled', 'refunded') then least($9::timestamptz, x.at + interval '2 days') end,
      case when x.status = 'confirmed' and e.start_at < $9::timestamptz - interval '3 hours' and random() < 0.7
        then e.start_at - interval '30 minutes' + random() * interval '3 hours' end
    from (${generated('int')}) x join ref_size_events e on e.id = x.event_id
    order by x.at
    returning id, name, email, quantity, created_at, checked_in_at
  ), a as (
    insert into ref_size_attendees (registration_id, idx, name, email, checked_in_at)
    select r.id, k, case when k = 0 then r.name else r.name || ' guest ' || k end,
      case when k = 0 then r.email else replace(r.email, '@', '+' || k || '@') end, r.checked_in_at
    from r cross join lateral generate_series(0, r.quantity - 1) k
    order by r.created_at, k
    returning 1
  )
  select (select count(*) from r)::int as registrations, (select count(*) from a)::int as attendees`;

/** The same entries as the service's audit log, in the order of their times. */
const AUDIT = `
  insert into ref_size_audit (account, action, target, before, after, at)
  select * from (
    select r.account, 'registration.book' as action, r.id::text as target, null::jsonb as before,
        jsonb_build_object('status', r.status) as after, r.created_at as at
      from ref_size_registrations r
    union all
    select r.account, 'registration.pay', r.id::text, '{"status": "pending"}'::jsonb, '{"status": "confirmed"}'::jsonb, r.confirmed_at
      from ref_size_registrations r where r.amount_paise > 0 and r.status in ('confirmed', 'refunded')
    union all
    select r.account, 'registration.' || case r.status when 'cancelled' then 'cancel' else 'refund' end, r.id::text,
        null::jsonb, jsonb_build_object('status', r.status), r.cancelled_at
      from ref_size_registrations r where r.status in ('cancelled', 'refunded')
    union all
    select r.account, 'checkin.admit', r.id::text || '/' || a.idx, '{"checkedIn": false}'::jsonb, '{"checkedIn": true}'::jsonb, a.checked_in_at
      from ref_size_attendees a join ref_size_registrations r on r.id = a.registration_id
      where a.checked_in_at is not null
  ) s
  order by s.at`;

const COUNTERS = `
  update ref_size_events e set registrations = s.n, taken = s.seats
  from (select event_id, count(*)::int as n, coalesce(sum(quantity) filter (where status = 'confirmed'), 0)::int as seats
        from ref_size_registrations group by event_id) s
  where e.id = s.event_id`;

/** The baseline's tables, loaded window after window as the service's are; rows written per table. */
export async function loadRefTables(
  db: pg.Pool,
  events: readonly PlannedEvent[],
  o: { now: Date; windowRows: number; progress(line: string): void },
): Promise<Record<string, number>> {
  await insertRefEvents(db, events);
  const total: Record<string, number> = {
    ref_size_events: events.length,
    ref_size_registrations: 0,
    ref_size_attendees: 0,
  };
  await eachWindow(events, o, 'baseline', async (parts) => {
    const r = await db.query(WINDOW, [...windowArrays(parts, (e) => e.index + 1), o.now]);
    total.ref_size_registrations! += r.rows[0].registrations;
    total.ref_size_attendees! += r.rows[0].attendees;
    return r.rows[0].registrations as number;
  });
  const c = await db.connect();
  try {
    await c.query(`set work_mem = '256MB'`);
    total.ref_size_audit = (await c.query(AUDIT)).rowCount ?? 0;
    await c.query(COUNTERS);
  } finally {
    await c.query('reset work_mem').catch(() => {});
    c.release();
  }
  return total;
}
