// Loading `npm run bench:size`'s data into the service's own tables, set-based and never
// through the API: the month partitions the rows will land in (made by the service's own
// createMonthPartition), the events (copies of template events the service made through its
// API, one per kind, with their seat counters), then each group of events in a transaction of
// its own (bench/size-load-sql.ts). Nothing is disabled: every constraint, trigger and
// partition route applies as it does to the service's writes.
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { createMonthPartition, monthStart, PARTITIONED_TABLES } from '../src/db/partitions.js';
import { randomIds } from '../src/lib/ids.js';
import { type EventKind, type PlannedEvent, type WindowPart, windows } from './size-data.js';
import * as q from './size-load-sql.js';

/** An organiser account of the benchmark: made through the API, with a full test key. */
export interface SizeAccount {
  userId: string;
  email: string;
  password: string;
  token: string;
  key: string;
  keyId: string;
  keyPrefix: string;
}

export interface LoadSetup {
  db: pg.Pool;
  accounts: SizeAccount[];
  /** A template event of each kind, made through the API by the first account. */
  templates: Record<EventKind, string>;
  now: Date;
  /** Registrations a window of time holds, about (default WINDOW_ROWS). */
  windowRows: number;
  progress(line: string): void;
}

/** Registrations a window of time holds, about (bench/size-data.ts: windows). */
export const WINDOW_ROWS = 50_000;
const DAY = 86_400_000;
/** Accounts with a webhook: every other one. */
export const hasWebhook = (account: number) => account % 2 === 0;

/** The months each partitioned table will hold rows of, made before the load (the service makes only the current and next ones). */
export async function makePartitions(
  db: pg.Pool,
  events: readonly PlannedEvent[],
  now: Date,
): Promise<number> {
  const k = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: db }) });
  const first = events.reduce((m, e) => (e.createdAt < m ? e.createdAt : m), now);
  const from: Record<string, Date> = {
    audit_log: first,
    checkin_log: first,
    webhook_deliveries: monthStart(now, -2),
    jobs: new Date(now.getTime() - 30 * DAY),
  };
  let made = 0;
  for (const t of Object.values(PARTITIONED_TABLES)) {
    for (let m = monthStart(from[t.table]!); m <= monthStart(now, 3); m = monthStart(m, 1)) {
      await createMonthPartition(k, t, m);
      made++;
    }
  }
  return made;
}

/** The columns of `table`, in order. */
async function columns(db: pg.Pool, table: string): Promise<string[]> {
  const r = await db.query<{ c: string }>(
    `select column_name as c from information_schema.columns
     where table_schema = current_schema() and table_name = $1 order by ordinal_position`,
    [table],
  );
  return r.rows.map((x) => x.c);
}

const TITLES = ['Meetup', 'Conference', 'Workshop', 'Concert', 'Hackathon', 'Screening', 'Walk'];

/**
 * The events: each a copy of its kind's template (every column the service wrote, its
 * questions and policies), with its own id, owner, slug, title, dates and capacity, published;
 * and each template's seat counters copied for it. Returns the ids in plan order.
 */
export async function insertEvents(s: LoadSetup, events: readonly PlannedEvent[]): Promise<string[]> {
  const cols = await columns(s.db, 'events');
  const own: Record<string, string> = {
    id: 'p.id',
    account_id: 'p.account_id',
    slug: 'p.slug',
    title: 'p.title',
    status: `'published'`,
    start_date: `to_char(p.start_at at time zone 'Asia/Kolkata', 'YYYY-MM-DD"T"HH24:MI:SS"+05:30"')`,
    start_at: 'p.start_at',
    end_date: 'null',
    capacity: 'p.capacity',
    created_at: 'p.created_at',
    updated_at: 'p.created_at',
  };
  const list = cols.map((c) => `"${c}"`).join(', ');
  const values = cols.map((c) => own[c] ?? `t."${c}"`).join(', ');
  const ids = events.map(() => randomIds.make('ev', 12));
  for (let a = 0; a < events.length; a += 5000) {
    const part = events.slice(a, a + 5000);
    const pid = ids.slice(a, a + 5000);
    const template = part.map((e) => s.templates[e.kind]);
    const capacity = part.map((e) => e.capacity);
    await s.db.query(
      `insert into events (${list}) select ${values}
       from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::int[], $8::timestamptz[])
         as p(id, template, account_id, slug, title, start_at, capacity, created_at)
       join events t on t.id = p.template`,
      [
        pid,
        template,
        part.map((e) => s.accounts[e.account]!.userId),
        part.map(
          (e, i) =>
            `${TITLES[e.index % TITLES.length]!.toLowerCase()}-${e.index + 1}-${pid[i]!.slice(3, 9).toLowerCase()}`,
        ),
        part.map((e) => `${TITLES[e.index % TITLES.length]} ${e.index + 1}`),
        part.map((e) => e.startAt),
        capacity,
        part.map((e) => e.createdAt),
      ],
    );
    await s.db.query(
      `insert into seat_counters (event_id, scope, capacity, taken)
       select p.id, c.scope, case when c.scope = 'event' then p.capacity else c.capacity end, 0
       from unnest($1::text[], $2::text[], $3::int[]) as p(id, template, capacity)
       join seat_counters c on c.event_id = p.template`,
      [pid, template, capacity],
    );
  }
  return ids;
}

/** The arrays a window's statement takes ($1 to $8 of `generated`), for its parts' events named by `id`. */
export function windowArrays<T>(parts: readonly WindowPart[], id: (e: PlannedEvent) => T): unknown[] {
  return [
    parts.map((p) => id(p.event)),
    parts.map((p) => p.gFrom),
    parts.map((p) => p.gTo),
    parts.map((p) => p.event.registrations),
    parts.map((p) => p.event.createdAt),
    parts.map((p) => p.event.salesEnd),
    parts.map((p) => p.event.kind === 'paid'),
    parts.map((p) => p.event.kind === 'team'),
  ];
}

/** Runs `each` on every window in time order, saying how far it got every 10 s and at the end. */
export async function eachWindow(
  events: readonly PlannedEvent[],
  o: { windowRows: number; progress(line: string): void },
  what: string,
  each: (parts: WindowPart[]) => Promise<number>,
): Promise<void> {
  const all = windows(events, o.windowRows);
  const started = performance.now();
  let said = started;
  let done = 0;
  for (const [i, parts] of all.entries()) {
    done += await each(parts);
    const now = performance.now();
    if (now - said >= 10_000 || i === all.length - 1) {
      said = now;
      const rate = Math.round(done / ((now - started) / 1000)).toLocaleString('en');
      o.progress(
        `${what}: window ${i + 1}/${all.length}, ${done.toLocaleString('en')} registrations (${rate} /s)`,
      );
    }
  }
}

/** Every window's registrations and people, each window a statement (and a transaction) of its own; rows written. */
export async function loadRegistrations(
  s: LoadSetup,
  events: readonly PlannedEvent[],
  ids: readonly string[],
): Promise<Record<string, number>> {
  const total = { registrations: 0, attendees: 0 };
  await eachWindow(events, s, 'registrations', async (parts) => {
    const r = await s.db.query<{ registrations: number; attendees: number }>(q.insertWindow, [
      ...windowArrays(parts, (e) => ids[e.index]!),
      s.now,
    ]);
    total.registrations += r.rows[0]!.registrations;
    total.attendees += r.rows[0]!.attendees;
    return r.rows[0]!.registrations;
  });
  return total;
}

/** After the registrations: the audit log, the door's log, jobs and webhook deliveries (each one statement, in time order), the seat counters. */
export async function loadHistory(s: LoadSetup): Promise<Record<string, number>> {
  const webhooks = s.accounts.filter((_, i) => hasWebhook(i)).map((a) => a.userId);
  const kept = new Date(s.now.getTime() - 30 * DAY);
  const c = await s.db.connect();
  const rows: Record<string, number> = {};
  try {
    // Each statement sorts its rows by time: room for the sort of the audit log's millions.
    await c.query(`set work_mem = '256MB'`);
    const run = async (name: string, text: string, values: unknown[]) => {
      s.progress(name);
      rows[name] = (await c.query(text, values)).rowCount ?? 0;
    };
    await run('audit_log', q.insertAudit, [
      s.accounts.map((a) => a.userId),
      s.accounts.map((a) => a.keyId),
      s.accounts.map((a) => a.keyPrefix),
    ]);
    await run('checkin_log', q.insertScans, []);
    await run('jobs', q.insertJobs, [kept, webhooks]);
    await run('webhook_deliveries', q.insertDeliveries, [monthStart(s.now, -2), webhooks]);
    await c.query(q.updateCounters);
  } finally {
    await c.query('reset work_mem').catch(() => {});
    c.release();
  }
  return rows;
}
