// Door check-in under load, on PostgreSQL: one service process (pool of 20) beside the baseline
// routes (bench/baseline-server.ts, pool of 20) on the same database, each on its own tables:
// the service's registrations and attendees, the baseline's ref_tickets, seeded with the same
// tickets. 200 concurrent scanners over keep-alive connections. Measured: lookups (the service
// answers them from its in-memory roster once built; the baseline with one prepared SELECT),
// admits of distinct tickets (the service group-commits them; the baseline runs one prepared
// conditional UPDATE each), and a mix of admits with 5 % re-scans; the bare Fastify route as the
// ceiling of HTTP alone; the first scan of a large event (its roster built while lookups of
// another event go on, whose worst latency shows any stall); the service's RSS at the end. The
// targets (docs/decisions/15-the-door.md, docs/decisions/22-figures-and-evidence.md) are stated in
// DOOR_TARGETS and judged by report.ts in the same run. `npm run bench` runs this with the others and writes
// BENCHMARKS.md; `npm run bench:checkin` runs it alone and prints its section.
import pg from 'pg';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import {
  account,
  APP,
  backendsOf,
  baselineBackends,
  cpuMeter,
  createBaselineTables,
  freshDatabase,
  httpPool,
  load,
  request,
  rounds,
  serviceBackends,
  settings,
  startBaseline,
  startEnvText,
  startService,
  tagged,
} from './lib.js';
import { build } from './embedded.js';
import { renderSection, type Run, type Section, type Target } from './report.js';

const TICKETS = Number(process.env.BENCH_TICKETS ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_DOOR_CONCURRENCY ?? 200);
/** People of the event whose first scan is measured (a fresh one each run). */
const FIRST_SCAN_PEOPLE = Number(process.env.BENCH_FIRST_SCAN_PEOPLE ?? 150_000);
/** Lookups kept going during a first scan: enough to meet any stall, too few to queue behind each other. */
const FIRST_SCAN_CONCURRENCY = Number(process.env.BENCH_FIRST_SCAN_CONCURRENCY ?? 20);
/** Longest a first scan's roster is waited for. */
const FIRST_SCAN_LIMIT_S = 120;
const people = (n: number) => n.toLocaleString('en');

export const DOOR_NAMES = {
  bare: 'bare Fastify route',
  baselineLookups: 'baseline, one prepared SELECT: lookups',
  lookups: 'service: lookups (from its in-memory roster)',
  baselineAdmits: 'baseline, one prepared UPDATE: admits',
  admits: 'service: admits',
  baselineMix: 'baseline, one prepared UPDATE: admits with 5 % re-scans',
  mix: 'service: admits with 5 % re-scans',
  firstScan: `service: lookups of a warm event while the first scan of a ${people(FIRST_SCAN_PEOPLE)}-person event builds its roster`,
  rss: 'service process at the end of the door section',
};

const ROSTER =
  "The service answers lookups from the event's roster in its memory, built by the first scan (the warm-up here), without the database; the baseline reads the database for each";

/**
 * docs/decisions/15-the-door.md and docs/decisions/22-figures-and-evidence.md: lookups ≥ 1.5× one prepared SELECT, admits
 * ≥ 1.2× one prepared UPDATE, p99 at or below theirs; the first scan of a 150,000-person event stalls no other request (the
 * worst under 100 ms); RSS under 300 MB.
 */
export const DOOR_TARGETS: Target[] = [
  {
    label: 'Lookups (the service from its in-memory roster) against one prepared SELECT',
    subject: DOOR_NAMES.lookups,
    ceiling: DOOR_NAMES.baselineLookups,
    figure: 'rps',
    compare: 'atLeast',
    value: 1.5,
    unit: '',
    digits: 2,
  },
  {
    label: 'Admits against one prepared UPDATE',
    subject: DOOR_NAMES.admits,
    ceiling: DOOR_NAMES.baselineAdmits,
    figure: 'rps',
    compare: 'atLeast',
    value: 1.2,
    unit: '',
    digits: 2,
  },
  {
    label: "Lookups' p99 (the service from its in-memory roster) against one prepared SELECT's",
    subject: DOOR_NAMES.lookups,
    ceiling: DOOR_NAMES.baselineLookups,
    figure: 'p99',
    compare: 'atMost',
    value: 1,
    unit: '',
    digits: 2,
  },
  {
    label: "Admits' p99 against one prepared UPDATE's",
    subject: DOOR_NAMES.admits,
    ceiling: DOOR_NAMES.baselineAdmits,
    figure: 'p99',
    compare: 'atMost',
    value: 1,
    unit: '',
    digits: 2,
  },
  {
    label: `The worst other request while the first scan of a ${people(FIRST_SCAN_PEOPLE)}-person event builds its roster`,
    subject: DOOR_NAMES.firstScan,
    figure: 'max',
    compare: 'below',
    value: 100,
    unit: 'ms',
    digits: 0,
  },
  {
    label: "The service process's RSS at the end of the door section",
    subject: DOOR_NAMES.rss,
    figure: 'rssMB',
    compare: 'below',
    value: 300,
    unit: 'MB',
    digits: 0,
  },
];

/** The event's tickets in the service's tables, and (`baseline`) the same tickets in the baseline's ref_tickets. */
async function seed(
  db: pg.Pool,
  eventId: string,
  accountId: string,
  prefix: string,
  count = TICKETS,
  baseline = true,
): Promise<string[]> {
  const width = Math.max(6, String(count).length);
  await db.query(
    `insert into registrations (id, event_id, account_id, mode, status, name, email, ticket_type, quantity, amount_paise, created_at, confirmed_at)
     select $1 || lpad(g::text, $5, '0'), $2, $3, 'test', 'confirmed', 'Guest ' || g, 'guest' || g || '@example.in', 'General', 1, 0, now(), now()
     from generate_series(1, $4) g`,
    [prefix, eventId, accountId, count, width],
  );
  await db.query(
    `insert into attendees (id, registration_id, event_id, idx, name, email) select id, id, event_id, 0, name, email from registrations where event_id = $1`,
    [eventId],
  );
  await db.query(`update seat_counters set taken = $2 where event_id = $1 and scope = 'event'`, [
    eventId,
    count,
  ]);
  if (baseline) {
    await db.query(
      `insert into ref_tickets (id, event_id, status, ticket_type, name, email)
       select a.id, r.event_id, r.status, r.ticket_type, a.name, a.email from attendees a join registrations r on r.id = a.registration_id where r.event_id = $1`,
      [eventId],
    );
  }
  return Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(width, '0')}`);
}

/** The resident memory of a process (VmRSS), in MB. */
function rssMB(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

export async function doorBench(): Promise<Section> {
  const { seconds, runs, warmupSeconds } = settings;
  const database = await freshDatabase('checkin');
  const service = await startService(
    database.url,
    { WORKERS: 'false' },
    (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean),
  );
  const db = new pg.Pool({ connectionString: tagged(database.url, APP.driver), max: 4 });
  await createBaselineTables(db);
  const baseline = await startBaseline(database.url);
  try {
    const { key, userId } = await account(service.url);
    const mk = async (title: string) =>
      (
        await fetch(`${service.url}/api/v1/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          body: JSON.stringify({ title, description: 'bench', startDate: '2026-12-31' }),
        }).then((r) => r.json() as Promise<{ data: { id: string } }>)
      ).data.id;
    let made = 0;
    const event = async (kind: string, count = TICKETS, baseline = true) => {
      const id = await mk(`${kind} ${made}`);
      return { id, tickets: await seed(db, id, userId, `reg_bench_${made++}_`, count, baseline) };
    };
    // Lookups read one event's tickets; every admitting run gets an event of its own, whose
    // tickets the service admits in its tables and the baseline in its own.
    const lookup = await event('Lookups');
    const fresh = {
      admits: [] as Awaited<ReturnType<typeof event>>[],
      mix: [] as Awaited<ReturnType<typeof event>>[],
      first: [] as Awaited<ReturnType<typeof event>>[],
    };
    for (let r = 0; r < runs; r++) {
      fresh.admits.push(await event('Admits'));
      fresh.mix.push(await event('Mix'));
      fresh.first.push(await event('First scan', FIRST_SCAN_PEOPLE, false));
    }
    await db.query('analyze');

    const svc = httpPool(service.url, CONCURRENCY);
    const ref = httpPool(baseline.url, CONCURRENCY);
    const headers = { 'x-api-key': key };
    const lookupPath = (i: number) =>
      `/events/${lookup.id}/check-in?registrationId=${lookup.tickets[(i * 7919) % TICKETS]}`;
    await load(
      CONCURRENCY,
      warmupSeconds,
      async (i) => (await request(svc, 'GET', `/api/v1${lookupPath(i)}`, headers)).status === 200,
    );
    await load(
      CONCURRENCY,
      warmupSeconds,
      async (i) => (await request(ref, 'GET', lookupPath(i), {})).status === 200,
    );
    await load(CONCURRENCY, warmupSeconds, async () => (await request(ref, 'GET', '/', {})).status === 200);

    // CPU per answer: the one server process, the PostgreSQL backends of its own connections
    // (by pid), and this load generator.
    const measured =
      (pid: number, backends: () => Promise<number[]>, go: (round: number) => Promise<Run>) =>
      async (round: number): Promise<Run> => {
        const meter = await cpuMeter(() => [pid], backends);
        const r = await go(round);
        const cpu = await meter();
        const per = (s: number) => (r.done > 0 ? (s / r.done) * 1000 : undefined);
        return {
          ...r,
          extra: {
            ...r.extra,
            cpuServer: per(cpu.processes),
            cpuDatabase: per(cpu.database),
            cpuLoad: per(cpu.generator),
          },
        };
      };
    const ofService = (go: (round: number) => Promise<Run>) =>
      measured(service.child.pid!, backendsOf(db, serviceBackends), go);
    const ofBaseline = (go: (round: number) => Promise<Run>) =>
      measured(baseline.pid, backendsOf(db, baselineBackends), go);
    // How many of the event's tickets are in, in the service's tables or the baseline's.
    const admitted = async (side: 'service' | 'baseline', eventId: string) =>
      (
        await db.query(
          side === 'service'
            ? `select count(*)::int as n from attendees a join registrations r on r.id = a.registration_id where r.event_id = $1 and a.checked_in_at is not null`
            : `select count(*)::int as n from ref_tickets where event_id = $1 and checked_in_at is not null`,
          [eventId],
        )
      ).rows[0].n as number;
    const admits =
      (
        side: 'service' | 'baseline',
        pool: typeof svc,
        path: (eventId: string) => string,
        h: Record<string, string>,
      ) =>
      async (round: number): Promise<Run> => {
        const e = fresh.admits[round]!;
        const r = await load(
          CONCURRENCY,
          seconds,
          async (i) =>
            (await request(pool, 'POST', path(e.id), h, { registrationId: e.tickets[i] })).status === 201,
          TICKETS,
        );
        return { ...r, extra: { created: r.done - r.errors, admitted: await admitted(side, e.id) } };
      };
    // 95 % first scans, 5 % re-scans of a ticket admitted earlier in the run.
    const mix =
      (pool: typeof svc, path: (eventId: string) => string, h: Record<string, string>) => (round: number) => {
        const e = fresh.mix[round]!;
        let firstScans = 0;
        return load(
          CONCURRENCY,
          seconds,
          async (i) => {
            const rescan = i % 20 === 19 && firstScans > 0;
            const ticket = rescan
              ? e.tickets[(i * 31) % firstScans]!
              : e.tickets[Math.min(firstScans++, TICKETS - 1)]!;
            const r = await request(pool, 'POST', path(e.id), h, { registrationId: ticket });
            return r.status === 201 || r.status === 200;
          },
          Math.floor(TICKETS / 0.95),
        );
      };
    // The first scan of an event of its own: lookups of the warm event go on meanwhile, and the
    // worst of them is the stall. The build's end is seen from the database (its transaction's
    // cursor, roster.repo.ts, is gone), so nothing asks the service itself how it is doing.
    const building = async () =>
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = $1 and xact_start is not null and query like '%door_roster%'`,
          [APP.service],
        )
      ).rows[0]!.n > 0;
    const firstScan = async (round: number): Promise<Run> => {
      const e = fresh.first[round]!;
      let finished = false;
      const others = load(
        FIRST_SCAN_CONCURRENCY,
        FIRST_SCAN_LIMIT_S + 10,
        async (i) => (await request(svc, 'GET', `/api/v1${lookupPath(i)}`, headers)).status === 200,
        Number.POSITIVE_INFINITY,
        () => finished,
      );
      await sleep(250);
      const started = performance.now();
      const first = await request(
        svc,
        'GET',
        `/api/v1/events/${e.id}/check-in?registrationId=${e.tickets[0]}`,
        headers,
      );
      const firstMs = performance.now() - started;
      let seen = false;
      let buildMs = Number.NaN;
      while (performance.now() - started < FIRST_SCAN_LIMIT_S * 1000) {
        const now = await building();
        if (now) seen = true;
        else if (seen) {
          buildMs = performance.now() - started;
          break;
        }
        await sleep(10);
      }
      // A moment more: the roster is put in place right after its last page.
      await sleep(250);
      finished = true;
      const r = await others;
      const after = await request(
        svc,
        'GET',
        `/api/v1/events/${e.id}/check-in?registrationId=${e.tickets[e.tickets.length - 1]}`,
        headers,
      );
      return {
        ...r,
        errors: r.errors + (first.status === 200 ? 0 : 1) + (after.status === 200 ? 0 : 1),
        extra: { ...r.extra, buildMs, firstMs },
      };
    };
    const servicePath = (id: string) => `/api/v1/events/${id}/check-in`;
    const baselinePath = (id: string) => `/events/${id}/check-in`;

    const series = await rounds(runs, [
      {
        name: DOOR_NAMES.bare,
        run: ofBaseline(() =>
          load(CONCURRENCY, seconds, async () => (await request(ref, 'GET', '/', {})).status === 200),
        ),
      },
      {
        name: DOOR_NAMES.baselineLookups,
        run: ofBaseline(() =>
          load(
            CONCURRENCY,
            seconds,
            async (i) => (await request(ref, 'GET', lookupPath(i), {})).status === 200,
          ),
        ),
      },
      {
        name: DOOR_NAMES.lookups,
        run: ofService(() =>
          load(
            CONCURRENCY,
            seconds,
            async (i) => (await request(svc, 'GET', `/api/v1${lookupPath(i)}`, headers)).status === 200,
          ),
        ),
      },
      { name: DOOR_NAMES.baselineAdmits, run: ofBaseline(admits('baseline', ref, baselinePath, {})) },
      { name: DOOR_NAMES.admits, run: ofService(admits('service', svc, servicePath, headers)) },
      { name: DOOR_NAMES.baselineMix, run: ofBaseline(mix(ref, baselinePath, {})) },
      { name: DOOR_NAMES.mix, run: ofService(mix(svc, servicePath, headers)) },
      { name: DOOR_NAMES.firstScan, run: firstScan },
    ]);
    await svc.close();
    await ref.close();
    // One reading, after every run of the section.
    series.push({
      name: DOOR_NAMES.rss,
      runs: [
        {
          rps: Number.NaN,
          p50: Number.NaN,
          p99: Number.NaN,
          max: Number.NaN,
          done: 0,
          errors: 0,
          load1: loadavg()[0]!,
          extra: { rssMB: rssMB(service.child.pid!) },
        },
      ],
    });
    const builds = series.find((x) => x.name === DOOR_NAMES.firstScan)!.runs;
    const unbuilt = builds.filter((r) => !Number.isFinite(r.extra?.buildMs ?? Number.NaN)).length;
    const firstScanNote =
      unbuilt === 0
        ? `First scan: in every run the roster of ${people(FIRST_SCAN_PEOPLE)} people was built (the column "roster built after ms", from the first lookup sent until the build's transaction ended); meanwhile the event's own lookups are answered by the database.`
        : `**First scan**: in ${unbuilt} of ${builds.length} runs the roster was not built within ${FIRST_SCAN_LIMIT_S} s.`;

    // Each admit answered 201 put exactly one ticket in.
    const admitRuns = series
      .filter((x) => x.name === DOOR_NAMES.admits || x.name === DOOR_NAMES.baselineAdmits)
      .flatMap((x) => x.runs.map((r, i) => ({ name: x.name, i, x: r.extra! })));
    const off = admitRuns.filter(({ x }) => x.created !== x.admitted);
    const admitNote =
      off.length === 0
        ? 'Admits: in every run of both, the tickets found in afterwards were exactly as many as the 201s answered.'
        : `**Admits that do not add up**: ${off.map(({ name, i, x }) => `${name} run ${i + 1}: ${x.created} answered 201, ${x.admitted} tickets in`).join('; ')}.`;

    return {
      title: 'Door check-in',
      description: `PostgreSQL. One service process, run as \`npm start\` runs it (\`node dist/server.js\` with ${startEnvText}; its default pool of 20 connections, background workers off) and, on the same database, the baseline routes of \`bench/baseline-server.ts\` (one Fastify process, pool of 20, no authentication), each on its own tables: the baseline's \`ref_tickets\` (no trigger) holds the same tickets as the service's registrations and attendees. The baseline's lookup is one named prepared SELECT; its admit one named prepared statement whose conditional UPDATE admits a confirmed ticket not yet in, once (201), and otherwise reads the ticket (200 already in, 409 not confirmed, 404 unknown). ${CONCURRENCY} concurrent scanners over keep-alive connections; ${TICKETS.toLocaleString('en')} tickets per event; each admitting run on an event of its own (the service and the baseline each admit its tickets in their own tables), and a run that admits every ticket before its ${seconds} s ends stops there. Lookups scan tickets of one event in a fixed scattered order; the service answers them from its in-memory roster, built during the warm-up. The bare route is Fastify answering a constant, the ceiling of HTTP alone on this machine. CPU per answer: the server process, the PostgreSQL backends of its own connections (by pid in \`pg_stat_activity\`), and this load generator. First scan: each run seeds an event of its own with ${people(FIRST_SCAN_PEOPLE)} people, as the others are seeded; while ${FIRST_SCAN_CONCURRENCY} callers look up tickets of the lookups' event (answered from its roster), the big event's first lookup is made, which the database answers and which starts the build of its roster; that row's figures are those other lookups', from 250 ms before the first lookup until 250 ms after the build's transaction ended, so its max is the worst stall the build caused. RSS: the service process's VmRSS (\`/proc/<pid>/status\`), read once after every run of the section, with the rosters it then holds (within \`DOOR_ROSTER_MAX_PEOPLE\`, its default).`,
      series,
      columns: [
        { key: 'created', label: 'admits answered 201', digits: 0 },
        { key: 'admitted', label: 'tickets in afterwards', digits: 0 },
        { key: 'cpuServer', label: 'CPU ms/answer: server process', digits: 2 },
        { key: 'cpuDatabase', label: 'its database backends', digits: 2 },
        { key: 'cpuLoad', label: 'load generator', digits: 2 },
        { key: 'buildMs', label: 'first scan: roster built after ms', digits: 0 },
        { key: 'firstMs', label: 'first scan: its own lookup ms', digits: 0 },
        { key: 'rssMB', label: 'service RSS MB', digits: 0 },
      ],
      comparisons: [
        { subject: DOOR_NAMES.lookups, ceiling: DOOR_NAMES.baselineLookups, note: ROSTER },
        { subject: DOOR_NAMES.lookups, ceiling: DOOR_NAMES.baselineLookups, figure: 'p99', note: ROSTER },
        {
          subject: DOOR_NAMES.lookups,
          ceiling: DOOR_NAMES.bare,
          note: 'The service answers lookups from its in-memory roster; the bare route answers a constant',
        },
        { subject: DOOR_NAMES.admits, ceiling: DOOR_NAMES.baselineAdmits },
        { subject: DOOR_NAMES.admits, ceiling: DOOR_NAMES.baselineAdmits, figure: 'p99' },
        { subject: DOOR_NAMES.mix, ceiling: DOOR_NAMES.baselineMix },
      ],
      targets: DOOR_TARGETS,
      notes: [admitNote, firstScanNote],
    };
  } finally {
    await db.end();
    await baseline.stop();
    await service.stop();
    await database.drop();
  }
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  build();
  doorBench()
    .then((s) => console.log(renderSection(s)))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
