// One run of `npm run bench:size` against a service already started on a migrated database
// (bench/size.ts starts the compiled one on a fresh database; test/bench/size-bench.test.ts an
// in-process one): organiser accounts and template events through the API, the data loaded
// set-based (bench/size-load.ts) and the baseline's tables beside it (bench/size-ref.ts),
// VACUUM (ANALYZE), each answer checked once, then measured (bench/size-measure.ts), and the
// plans of the service's statements captured (bench/size-plans.ts).
import pg from 'pg';
import { DashboardClient } from '../test/helpers/dashboard.js';
import { APP, startBaseline, tagged } from './lib.js';
import type { Series } from './report.js';
import {
  expectedCounts,
  planEvents,
  type EventKind,
  type ExpectedCounts,
  type PlannedEvent,
  type SizeOptions,
} from './size-data.js';
import {
  insertEvents,
  loadHistory,
  loadRegistrations,
  makePartitions,
  type LoadSetup,
  WINDOW_ROWS,
  type SizeAccount,
} from './size-load.js';
import { checkAnswers, measureSize, type SizeSubjects } from './size-measure.js';
import { capturePlans, type CapturedPlan } from './size-plans.js';
import { createRefTables, loadRefTables } from './size-ref.js';

export interface SizeRunOptions extends SizeOptions {
  concurrency: number;
  seconds: number;
  runs: number;
  warmupSeconds: number;
  /** Capture the plans (EXPLAIN ANALYZE of the service's statements). */
  plans: boolean;
  /** Where they are written (named in the section). */
  plansFile?: string | undefined;
  /** Registrations loaded per window of time, about (default WINDOW_ROWS). */
  windowRows?: number | undefined;
  progress(line: string): void;
}

export interface SizeFigures {
  options: SizeRunOptions;
  events: PlannedEvent[];
  expected: ExpectedCounts;
  /** Rows in each table after the load, counted. */
  counted: Record<string, number>;
  /** Month partitions made for the rows. */
  partitions: number;
  /** The database's size on disk after the load (both sides' tables and indexes). */
  bytes: number;
  /** Seconds of each part of the load, in order. */
  loadSeconds: Record<string, number>;
  big: SizeSubjects['big'];
  checks: { lines: string[]; right: boolean };
  series: Series[];
  plans?: CapturedPlan[];
}

const PASSWORD = 'bench password 123';

async function post(url: string, path: string, body: unknown, auth: Record<string, string>) {
  const r = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** Organiser accounts, signed up through the API, each with a full test key. */
export async function makeAccounts(url: string, n: number): Promise<SizeAccount[]> {
  const out: SizeAccount[] = [];
  for (let i = 0; i < n; i++) {
    const email = `size-${i + 1}-${Date.now().toString(36)}@example.in`;
    const s = await post(url, '/auth/signup', { email, password: PASSWORD, name: `Organiser ${i + 1}` }, {});
    const k = await post(
      url,
      '/dashboard/api/keys',
      { mode: 'test', class: 'full' },
      { authorization: `Bearer ${s.idToken}` },
    );
    out.push({
      userId: s.userId,
      email,
      password: PASSWORD,
      token: s.idToken,
      key: k.key,
      keyId: k.data.id,
      keyPrefix: k.data.prefix,
    });
  }
  return out;
}

const QUESTION = [{ name: 'company', label: 'Company', type: 'text', required: false }];

/** One event of each kind, made through the API: what the loaded events are copies of. */
export async function makeTemplates(url: string, a: SizeAccount): Promise<Record<EventKind, string>> {
  const base = {
    description: 'Size benchmark template',
    startDate: '2027-01-16T10:00:00+05:30',
    capacity: 0,
  };
  const make = async (title: string, extra: object) =>
    (await post(url, '/api/v1/events', { title, ...base, ...extra }, { 'x-api-key': a.key })).data
      .id as string;
  return {
    free: await make('Free template', {}),
    paid: await make('Paid template', { price: 499, customFields: QUESTION }),
    team: await make('Team template', { maxTeamSize: 4, customFields: QUESTION }),
  };
}

async function deleteTemplates(url: string, a: SizeAccount, templates: Record<EventKind, string>) {
  for (const id of Object.values(templates)) {
    const r = await fetch(`${url}/api/v1/events/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${a.token}` },
    });
    if (r.status >= 300) throw new Error(`deleting template ${id}: ${r.status} ${await r.text()}`);
  }
}

export const COUNTED = [
  'events',
  'registrations',
  'attendees',
  'audit_log',
  'checkin_log',
  'jobs',
  'webhook_deliveries',
  'ref_size_events',
  'ref_size_registrations',
  'ref_size_attendees',
  'ref_size_audit',
];

/** Everything before the measuring: accounts, events, registrations and the rest, the baseline's tables, VACUUM (ANALYZE). */
async function load(url: string, db: pg.Pool, o: SizeRunOptions, now: Date) {
  const seconds: Record<string, number> = {};
  const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    o.progress(`${name}…`);
    const r = await work();
    seconds[name] = (performance.now() - t) / 1000;
    return r;
  };
  const events = planEvents(o, now);
  const { accounts, templates } = await timed('accounts and template events through the API', async () => {
    const accounts = await makeAccounts(url, o.accounts);
    return { accounts, templates: await makeTemplates(url, accounts[0]!) };
  });
  const setup: LoadSetup = {
    db,
    accounts,
    templates,
    now,
    windowRows: o.windowRows ?? WINDOW_ROWS,
    progress: o.progress,
  };
  const partitions = await timed('month partitions', () => makePartitions(db, events, now));
  const ids = await timed('events', () => insertEvents(setup, events));
  await deleteTemplates(url, accounts[0]!, templates);
  await timed('registrations and their people, window after window of time', () =>
    loadRegistrations(setup, events, ids),
  );
  await timed('audit log, door scans, jobs, webhook deliveries, seat counters', () => loadHistory(setup));
  await timed("the baseline's tables", async () => {
    await createRefTables(db);
    await loadRefTables(db, events, setup);
  });
  await timed('VACUUM (ANALYZE)', () => db.query('vacuum (analyze)'));
  const counted: Record<string, number> = {};
  for (const t of COUNTED) counted[t] = Number((await db.query(`select count(*) as n from ${t}`)).rows[0].n);
  const bytes = Number((await db.query('select pg_database_size(current_database()) as b')).rows[0].b);
  return { events, accounts, ids, partitions, seconds, counted, bytes };
}

/** The id 90 % of the way into an event's registrations, oldest first. */
async function cursorOf(db: pg.Pool, table: string, eventId: string | number, n: number): Promise<string> {
  const r = await db.query(
    `select id from ${table} where event_id = $1 order by created_at, id offset $2 limit 1`,
    [eventId, Math.floor(n * 0.9)],
  );
  return String(r.rows[0].id);
}

export async function runSize(
  target: { serviceUrl: string; databaseUrl: string },
  o: SizeRunOptions,
): Promise<SizeFigures> {
  const db = new pg.Pool({ connectionString: tagged(target.databaseUrl, APP.driver), max: 2 });
  const now = new Date();
  try {
    const l = await load(target.serviceUrl, db, o, now);
    const n = l.events[0]!.registrations;
    const big = {
      id: l.ids[0]!,
      refId: 1,
      registrations: n,
      cursor: await cursorOf(db, 'registrations', l.ids[0]!, n),
      refCursor: await cursorOf(db, 'ref_size_registrations', 1, n),
    };
    const dashboard = new DashboardClient(target.serviceUrl);
    await dashboard.login(l.accounts[0]!.email, PASSWORD);
    const baseline = await startBaseline(target.databaseUrl, 'bench/size-baseline-server.ts');
    try {
      const subjects: SizeSubjects = {
        service: { url: target.serviceUrl, key: l.accounts[0]!.key, cookie: dashboard.cookieHeader() },
        baseline: { url: baseline.url },
        big,
        refAccount: 0,
      };
      o.progress('checking every answer once');
      const checks = await checkAnswers(subjects);
      o.progress('measuring');
      const series = await measureSize(subjects, o);
      const subject = { eventId: big.id, accountId: l.accounts[0]!.userId, cursor: big.cursor };
      const plans = o.plans ? await capturePlans(db, subject) : undefined;
      return {
        options: o,
        events: l.events,
        expected: expectedCounts(l.events),
        counted: l.counted,
        partitions: l.partitions,
        bytes: l.bytes,
        loadSeconds: l.seconds,
        big,
        checks,
        series,
        ...(plans ? { plans } : {}),
      };
    } finally {
      await baseline.stop();
    }
  } finally {
    await db.end();
  }
}
