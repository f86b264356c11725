// Door check-in under load, on PostgreSQL: one service process (pool of 20) beside the baseline
// routes (bench/baseline-server.ts, pool of 20) on the same database, each on its own tables:
// the service's registrations and attendees, the baseline's ref_tickets, seeded with the same
// tickets. 200 concurrent scanners over keep-alive connections. Measured: lookups (the service
// answers them from its in-memory roster once built; the baseline with one prepared SELECT),
// admits of distinct tickets (the service group-commits them; the baseline runs one prepared
// conditional UPDATE each), and a mix of admits with 5 % re-scans; the bare Fastify route as the
// ceiling of HTTP alone. The targets (docs/decisions/15-the-door.md, docs/decisions/22-figures-and-evidence.md) are stated in DOOR_TARGETS and
// judged by report.ts in the same run. `npm run bench` runs this with the others and writes
// BENCHMARKS.md; `npm run bench:checkin` runs it alone and prints its section.
import pg from 'pg';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { account, APP, backendsOf, baselineBackends, cpuMeter, createBaselineTables, freshDatabase, httpPool, load, request, rounds, serviceBackends, settings, startBaseline, startService, tagged } from './lib.js';
import { renderSection, type Run, type Section, type Target } from './report.js';

const TICKETS = Number(process.env.BENCH_TICKETS ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_DOOR_CONCURRENCY ?? 200);

export const DOOR_NAMES = {
  bare: 'bare Fastify route',
  baselineLookups: 'baseline, one prepared SELECT: lookups',
  lookups: 'service: lookups (from its in-memory roster)',
  baselineAdmits: 'baseline, one prepared UPDATE: admits',
  admits: 'service: admits',
  baselineMix: 'baseline, one prepared UPDATE: admits with 5 % re-scans',
  mix: 'service: admits with 5 % re-scans',
};

const ROSTER =
  "The service answers lookups from the event's roster in its memory, built by the first scan (the warm-up here), without the database; the baseline reads the database for each";

/** docs/decisions/15-the-door.md and docs/decisions/22-figures-and-evidence.md: lookups ≥ 1.5× one prepared SELECT, admits ≥ 1.2× one prepared UPDATE, p99 at or below theirs. */
export const DOOR_TARGETS: Target[] = [
  { label: 'Lookups (the service from its in-memory roster) against one prepared SELECT', subject: DOOR_NAMES.lookups, ceiling: DOOR_NAMES.baselineLookups, figure: 'rps', compare: 'atLeast', value: 1.5, unit: '', digits: 2 },
  { label: 'Admits against one prepared UPDATE', subject: DOOR_NAMES.admits, ceiling: DOOR_NAMES.baselineAdmits, figure: 'rps', compare: 'atLeast', value: 1.2, unit: '', digits: 2 },
  { label: "Lookups' p99 (the service from its in-memory roster) against one prepared SELECT's", subject: DOOR_NAMES.lookups, ceiling: DOOR_NAMES.baselineLookups, figure: 'p99', compare: 'atMost', value: 1, unit: '', digits: 2 },
  { label: "Admits' p99 against one prepared UPDATE's", subject: DOOR_NAMES.admits, ceiling: DOOR_NAMES.baselineAdmits, figure: 'p99', compare: 'atMost', value: 1, unit: '', digits: 2 },
];

/** The event's tickets in the service's tables, and the same tickets in the baseline's ref_tickets. */
async function seed(db: pg.Pool, eventId: string, accountId: string, prefix: string): Promise<string[]> {
  await db.query(
    `insert into registrations (id, event_id, account_id, mode, status, name, email, ticket_type, quantity, amount_paise, created_at, confirmed_at)
     select $1 || lpad(g::text, 6, '0'), $2, $3, 'test', 'confirmed', 'Guest ' || g, 'guest' || g || '@example.in', 'General', 1, 0, now(), now()
     from generate_series(1, $4) g`,
    [prefix, eventId, accountId, TICKETS],
  );
  await db.query(`insert into attendees (id, registration_id, idx, name, email) select id, id, 0, name, email from registrations where event_id = $1`, [eventId]);
  await db.query(`update seat_counters set taken = $2 where event_id = $1 and scope = 'event'`, [eventId, TICKETS]);
  await db.query(
    `insert into ref_tickets (id, event_id, status, ticket_type, name, email)
     select a.id, r.event_id, r.status, r.ticket_type, a.name, a.email from attendees a join registrations r on r.id = a.registration_id where r.event_id = $1`,
    [eventId],
  );
  return Array.from({ length: TICKETS }, (_, i) => `${prefix}${String(i + 1).padStart(6, '0')}`);
}

export async function doorBench(): Promise<Section> {
  const { seconds, runs, warmupSeconds } = settings;
  const database = await freshDatabase('checkin');
  const service = await startService(database.url, { WORKERS: 'false' }, (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean));
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
    const event = async (kind: string) => {
      const id = await mk(`${kind} ${made}`);
      return { id, tickets: await seed(db, id, userId, `reg_bench_${made++}_`) };
    };
    // Lookups read one event's tickets; every admitting run gets an event of its own, whose
    // tickets the service admits in its tables and the baseline in its own.
    const lookup = await event('Lookups');
    const fresh = { admits: [] as Awaited<ReturnType<typeof event>>[], mix: [] as Awaited<ReturnType<typeof event>>[] };
    for (let r = 0; r < runs; r++) {
      fresh.admits.push(await event('Admits'));
      fresh.mix.push(await event('Mix'));
    }
    await db.query('analyze');

    const svc = httpPool(service.url, CONCURRENCY);
    const ref = httpPool(baseline.url, CONCURRENCY);
    const headers = { 'x-api-key': key };
    const lookupPath = (i: number) => `/events/${lookup.id}/check-in?registrationId=${lookup.tickets[(i * 7919) % TICKETS]}`;
    await load(CONCURRENCY, warmupSeconds, async (i) => (await request(svc, 'GET', `/api/v1${lookupPath(i)}`, headers)).status === 200);
    await load(CONCURRENCY, warmupSeconds, async (i) => (await request(ref, 'GET', lookupPath(i), {})).status === 200);
    await load(CONCURRENCY, warmupSeconds, async () => (await request(ref, 'GET', '/', {})).status === 200);

    // CPU per answer: the one server process, the PostgreSQL backends of its own connections
    // (by pid), and this load generator.
    const measured = (pid: number, backends: () => Promise<number[]>, go: (round: number) => Promise<Run>) => async (round: number): Promise<Run> => {
      const meter = await cpuMeter(() => [pid], backends);
      const r = await go(round);
      const cpu = await meter();
      const per = (s: number) => (r.done > 0 ? (s / r.done) * 1000 : undefined);
      return { ...r, extra: { ...r.extra, cpuServer: per(cpu.processes), cpuDatabase: per(cpu.database), cpuLoad: per(cpu.generator) } };
    };
    const ofService = (go: (round: number) => Promise<Run>) => measured(service.child.pid!, backendsOf(db, serviceBackends), go);
    const ofBaseline = (go: (round: number) => Promise<Run>) => measured(baseline.pid, backendsOf(db, baselineBackends), go);
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
    const admits = (side: 'service' | 'baseline', pool: typeof svc, path: (eventId: string) => string, h: Record<string, string>) => async (round: number): Promise<Run> => {
      const e = fresh.admits[round]!;
      const r = await load(CONCURRENCY, seconds, async (i) => (await request(pool, 'POST', path(e.id), h, { registrationId: e.tickets[i] })).status === 201, TICKETS);
      return { ...r, extra: { created: r.done - r.errors, admitted: await admitted(side, e.id) } };
    };
    // 95 % first scans, 5 % re-scans of a ticket admitted earlier in the run.
    const mix = (pool: typeof svc, path: (eventId: string) => string, h: Record<string, string>) => (round: number) => {
      const e = fresh.mix[round]!;
      let firstScans = 0;
      return load(
        CONCURRENCY,
        seconds,
        async (i) => {
          const rescan = i % 20 === 19 && firstScans > 0;
          const ticket = rescan ? e.tickets[(i * 31) % firstScans]! : e.tickets[Math.min(firstScans++, TICKETS - 1)]!;
          const r = await request(pool, 'POST', path(e.id), h, { registrationId: ticket });
          return r.status === 201 || r.status === 200;
        },
        Math.floor(TICKETS / 0.95),
      );
    };
    const servicePath = (id: string) => `/api/v1/events/${id}/check-in`;
    const baselinePath = (id: string) => `/events/${id}/check-in`;

    const series = await rounds(runs, [
      { name: DOOR_NAMES.bare, run: ofBaseline(() => load(CONCURRENCY, seconds, async () => (await request(ref, 'GET', '/', {})).status === 200)) },
      { name: DOOR_NAMES.baselineLookups, run: ofBaseline(() => load(CONCURRENCY, seconds, async (i) => (await request(ref, 'GET', lookupPath(i), {})).status === 200)) },
      { name: DOOR_NAMES.lookups, run: ofService(() => load(CONCURRENCY, seconds, async (i) => (await request(svc, 'GET', `/api/v1${lookupPath(i)}`, headers)).status === 200)) },
      { name: DOOR_NAMES.baselineAdmits, run: ofBaseline(admits('baseline', ref, baselinePath, {})) },
      { name: DOOR_NAMES.admits, run: ofService(admits('service', svc, servicePath, headers)) },
      { name: DOOR_NAMES.baselineMix, run: ofBaseline(mix(ref, baselinePath, {})) },
      { name: DOOR_NAMES.mix, run: ofService(mix(svc, servicePath, headers)) },
    ]);
    await svc.close();
    await ref.close();

    // Each admit answered 201 put exactly one ticket in.
    const admitRuns = series.filter((x) => x.name === DOOR_NAMES.admits || x.name === DOOR_NAMES.baselineAdmits).flatMap((x) => x.runs.map((r, i) => ({ name: x.name, i, x: r.extra! })));
    const off = admitRuns.filter(({ x }) => x.created !== x.admitted);
    const admitNote =
      off.length === 0
        ? 'Admits: in every run of both, the tickets found in afterwards were exactly as many as the 201s answered.'
        : `**Admits that do not add up**: ${off.map(({ name, i, x }) => `${name} run ${i + 1}: ${x.created} answered 201, ${x.admitted} tickets in`).join('; ')}.`;

    return {
      title: 'Door check-in',
      description: `PostgreSQL. One service process (its default pool of 20 connections, background workers off) and, on the same database, the baseline routes of \`bench/baseline-server.ts\` (one Fastify process, pool of 20, no authentication), each on its own tables: the baseline's \`ref_tickets\` (no trigger) holds the same tickets as the service's registrations and attendees. The baseline's lookup is one named prepared SELECT; its admit one named prepared statement whose conditional UPDATE admits a confirmed ticket not yet in, once (201), and otherwise reads the ticket (200 already in, 409 not confirmed, 404 unknown). ${CONCURRENCY} concurrent scanners over keep-alive connections; ${TICKETS.toLocaleString('en')} tickets per event; each admitting run on an event of its own (the service and the baseline each admit its tickets in their own tables), and a run that admits every ticket before its ${seconds} s ends stops there. Lookups scan tickets of one event in a fixed scattered order; the service answers them from its in-memory roster, built during the warm-up. The bare route is Fastify answering a constant, the ceiling of HTTP alone on this machine. CPU per answer: the server process, the PostgreSQL backends of its own connections (by pid in \`pg_stat_activity\`), and this load generator.`,
      series,
      columns: [
        { key: 'created', label: 'admits answered 201', digits: 0 },
        { key: 'admitted', label: 'tickets in afterwards', digits: 0 },
        { key: 'cpuServer', label: 'CPU ms/answer: server process', digits: 2 },
        { key: 'cpuDatabase', label: 'its database backends', digits: 2 },
        { key: 'cpuLoad', label: 'load generator', digits: 2 },
      ],
      comparisons: [
        { subject: DOOR_NAMES.lookups, ceiling: DOOR_NAMES.baselineLookups, note: ROSTER },
        { subject: DOOR_NAMES.lookups, ceiling: DOOR_NAMES.baselineLookups, figure: 'p99', note: ROSTER },
        { subject: DOOR_NAMES.lookups, ceiling: DOOR_NAMES.bare, note: 'The service answers lookups from its in-memory roster; the bare route answers a constant' },
        { subject: DOOR_NAMES.admits, ceiling: DOOR_NAMES.baselineAdmits },
        { subject: DOOR_NAMES.admits, ceiling: DOOR_NAMES.baselineAdmits, figure: 'p99' },
        { subject: DOOR_NAMES.mix, ceiling: DOOR_NAMES.baselineMix },
      ],
      targets: DOOR_TARGETS,
      notes: [admitNote],
    };
  } finally {
    await db.end();
    await baseline.stop();
    await service.stop();
    await database.drop();
  }
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  doorBench()
    .then((s) => console.log(renderSection(s)))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
