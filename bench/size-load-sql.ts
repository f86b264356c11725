// The set-based statements that load `npm run bench:size`'s data into the service's own tables
// (bench/size-load.ts runs them): each window of time's registrations and their people in one
// statement, in the order they sold; then the audit log, the door's log, the finished jobs and
// the webhook deliveries each in one statement in the order of their times (so the audit log's
// `seq` and the door log's id grow with time, as the service writes them), and the seat
// counters. Every constraint and trigger of the tables stays on: the door's deferred triggers
// bump each event's version at each commit, the audit log only takes inserts, and the
// partitioned tables route each row to its month. The rows follow bench/size-data.ts; the SQL
// shared with the baseline's tables (bench/size-ref.ts) is `generated`.
import { quantitySql, statusSql } from './size-data.js';

/** 22 characters of base64url from 16 random bytes, as the service's ids (src/lib/ids.ts). */
export const RAND = `rtrim(translate(encode(uuid_send(gen_random_uuid()), 'base64'), '+/', '-_'), '=')`;

/**
 * One row per registration of a window: its event (of type `idType`), g, and what
 * bench/size-data.ts makes of g, sold at a random moment of its slot. Parameters (arrays, one
 * element an event's part of the window): $1 event ids, $2 first g, $3 last g, $4 the event's
 * registrations, $5 its sales' start, $6 their end, $7 paid, $8 team.
 */
export function generated(idType: 'text' | 'int'): string {
  return `select p.event_id, g, p.paid, ${statusSql('g', 'p.paid')} as status,
      ${quantitySql('g', 'p.team')} as quantity,
      p.sale_from + (p.sale_to - p.sale_from) * ((g - 1 + random()) / p.n) as at,
      'Person ' || g as name,
      'person' || g || '.' || substr(md5(p.event_id::text), 1, 8) || '@example.in' as email,
      case when g % 2 = 0 then '+9198' || lpad((g % 100000000)::text, 8, '0') end as phone,
      'Company ' || (g % 997) as answer
    from unnest($1::${idType}[], $2::int[], $3::int[], $4::int[], $5::timestamptz[], $6::timestamptz[], $7::bool[], $8::bool[])
      as p(event_id, g_from, g_to, n, sale_from, sale_to, paid, team)
    cross join lateral generate_series(p.g_from, p.g_to) g`;
}

/**
 * A window's registrations, in the order they sold, and everyone on them (the primary's id the
 * registration's, as the service makes them). Paid: an order for each, a payment for those
 * confirmed or refunded; a cancelled paid one lapsed unpaid. Seven in ten people on a
 * confirmed booking of an event that began over three hours before $9 (now) came through the
 * door, admitted from the organiser's dashboard.
 */
export const insertWindow = `
  with r as (
    insert into registrations (id, event_id, account_id, mode, status, name, email, phone, whatsapp_opt_in,
      ticket_type, quantity, amount_paise, currency, custom_fields, created_at, confirmed_at, pending_reason,
      order_id, payment_id, refund_id, cancelled_at, refunded_paise)
    select 'reg_' || ${RAND}, e.id, e.account_id, e.mode, x.status, x.name, x.email, x.phone,
      x.phone is not null and x.g % 3 = 0, 'General', x.quantity,
      case when x.paid then e.price_paise * x.quantity else 0 end, e.currency,
      case when jsonb_array_length(e.custom_fields) > 0
        then jsonb_build_object(e.custom_fields->0->>'name', x.answer) else '{}'::jsonb end,
      x.at,
      case when x.status in ('confirmed', 'refunded') or (x.status = 'cancelled' and not x.paid)
        then x.at + case when x.paid then interval '40 seconds' else interval '0' end end,
      case when x.status = 'pending' then 'payment' end,
      case when x.paid then 'order_' || ${RAND} end,
      case when x.paid and x.status in ('confirmed', 'refunded') then 'pay_' || ${RAND} end,
      case when x.status = 'refunded' then 'rfnd_' || ${RAND} end,
      case when x.status in ('cancelled', 'refunded') then least($9::timestamptz, x.at + interval '2 days') end,
      case when x.status = 'refunded' then e.price_paise * x.quantity else 0 end
    from (${generated('text')}) x join events e on e.id = x.event_id
    order by x.at
    returning id, event_id, status, name, email, quantity, created_at
  ), a as (
    insert into attendees (id, registration_id, event_id, idx, name, email, checked_in_at, checked_in_by)
    select case when k = 0 then r.id else 'tkt_' || ${RAND} end, r.id, r.event_id, k,
      case when k = 0 then r.name else r.name || ' guest ' || k end,
      case when k = 0 then r.email else replace(r.email, '@', '+' || k || '@') end,
      c.at, case when c.at is not null then 'dashboard' end
    from r join events e on e.id = r.event_id
    cross join lateral generate_series(0, r.quantity - 1) k
    cross join lateral (select case when r.status = 'confirmed' and e.start_at < $9::timestamptz - interval '3 hours'
        and random() < 0.7 then e.start_at - interval '30 minutes' + random() * interval '3 hours' end as at) c
    order by r.created_at, k
    returning 1
  )
  select (select count(*) from r)::int as registrations, (select count(*) from a)::int as attendees`;

const entry = (actor: string, action: string, before: string, after: string, at: string) =>
  `select r.account_id, r.mode, ${actor}, '${action}' as action, 'registration' as target_type, r.id as target_id,
     ${before} as before, ${after} as after, ${at} as at`;
const status = (s: string) => `jsonb_build_object('status', ${s})`;
const organiser = `'user' as actor_kind, r.account_id as actor_id, 'dashboard' as actor_display`;

/**
 * The audit log, as the service writes it, in the order of its times: each booking (by the
 * account's key: $1 account ids, $2 key ids, $3 key prefixes), each payment (by the gateway's
 * notification), each cancellation and refund (by the organiser), each admit at the door.
 */
export const insertAudit = `
  insert into audit_log (id, account_id, mode, actor_kind, actor_id, actor_display, action, target_type, target_id, before, after, at)
  select 'aud_' || ${RAND}, s.* from (
    ${entry(
      `'key' as actor_kind, k.key_id as actor_id, k.prefix as actor_display`,
      'registration.book',
      'null::jsonb',
      `jsonb_build_object('status', case when r.amount_paise > 0 then 'pending' else 'confirmed' end,
        'ticketType', r.ticket_type, 'quantity', r.quantity, 'amount', r.amount_paise / 100.0)`,
      'r.created_at',
    )}
    from registrations r join unnest($1::text[], $2::text[], $3::text[]) k(account_id, key_id, prefix)
      on k.account_id = r.account_id
    union all
    ${entry(`'system', 'gateway', 'payment gateway'`, 'registration.pay', status(`'pending'`), status(`'confirmed'`), 'r.confirmed_at')}
    from registrations r where r.payment_id is not null
    union all
    ${entry(organiser, 'registration.cancel', status(`case when r.confirmed_at is null then 'pending' else 'confirmed' end`), status(`'cancelled'`), 'r.cancelled_at')}
    from registrations r where r.status = 'cancelled'
    union all
    ${entry(organiser, 'registration.refund', status(`'confirmed'`), status(`'refunded'`), 'r.cancelled_at')}
    from registrations r where r.status = 'refunded'
    union all
    select r.account_id, r.mode, 'user', r.account_id, 'dashboard', 'checkin.admit', 'attendee', a.id,
      '{"checkedIn": false}'::jsonb, '{"checkedIn": true}'::jsonb, a.checked_in_at
    from attendees a join registrations r on r.id = a.registration_id
    where a.checked_in_at is not null
  ) s
  order by s.at`;

/** The door's log of the admits, in their order. */
export const insertScans = `
  insert into checkin_log (event_id, attendee_id, action, actor, at)
  select r.event_id, a.id, 'admit', 'dashboard', a.checked_in_at
  from attendees a join registrations r on r.id = a.registration_id
  where a.checked_in_at is not null
  order by a.checked_in_at`;

/** A webhook envelope's id for a registration (the job and the delivery name the same one). */
const envelope = `'evt_' || translate(encode(substr(decode(md5(r.id), 'hex'), 1, 12), 'base64'), '+/', '-_')`;

/**
 * The queue's jobs still kept (finished ones are pruned after 30 days): a ticket mail for
 * everyone on a booking confirmed since $1 (now − 30 days), and a webhook delivery for those of
 * the accounts with a webhook ($2), each done, in the order they were queued.
 */
export const insertJobs = `
  insert into jobs (id, topic, payload, status, run_at, attempts, max_attempts, created_at, finished_at)
  select 'job_' || ${RAND}, s.* from (
    select 'ticket.email', jsonb_build_object('attendeeId', a.id), 'done',
      r.confirmed_at, 1, 0, r.confirmed_at as at, r.confirmed_at + interval '2 seconds'
    from attendees a join registrations r on r.id = a.registration_id
    where r.status = 'confirmed' and r.confirmed_at >= $1::timestamptz
    union all
    select 'webhook.deliver',
      jsonb_build_object('eventId', ${envelope}, 'createdAt', r.confirmed_at, 'accountId', r.account_id, 'mode', r.mode,
        'type', 'registration.confirmed', 'data', jsonb_build_object('registrationId', r.id, 'eventId', r.event_id)),
      'done', r.confirmed_at, 1, 1, r.confirmed_at, r.confirmed_at + interval '1 second'
    from registrations r
    where r.status = 'confirmed' and r.confirmed_at >= $1::timestamptz and r.account_id = any($2::text[])
  ) s
  order by s.at`;

/** Webhook deliveries still kept (two months before the current one): one per confirmed booking of an account with a webhook ($2), from $1; one in fifty answered 500. */
export const insertDeliveries = `
  insert into webhook_deliveries (id, account_id, mode, event_id, type, url, status_code, error, duration_ms, created_at)
  select 'dlv_' || substr(${RAND}, 1, 16), r.account_id, r.mode, ${envelope}, 'registration.confirmed',
    'https://hooks.example.in/tickets', case when random() < 0.02 then 500 else 200 end, null,
    40 + floor(random() * 160)::int, r.confirmed_at + interval '1 second'
  from registrations r
  where r.status = 'confirmed' and r.confirmed_at >= $1::timestamptz and r.account_id = any($2::text[])
  order by r.confirmed_at`;

/** Seats taken: every person on a confirmed booking on the event's counter, those paid also on its paid counter. */
export const updateCounters = `
  update seat_counters c
  set taken = case c.scope when 'event' then s.seats else s.paid end
  from (select event_id, sum(quantity)::int as seats,
          coalesce(sum(quantity) filter (where amount_paise > 0), 0)::int as paid
        from registrations where status = 'confirmed' group by event_id) s
  where c.event_id = s.event_id and c.scope in ('event', 'paid')`;
