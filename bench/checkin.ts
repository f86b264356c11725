// Door check-in under load, on PostgreSQL: one service process (pool of 20) beside the naive
// Fastify + pg routes (bench/naive-server.ts, pool of 20) on the same database, 200 concurrent
// scanners over keep-alive connections. Measured: lookups (the service answers them from its
// in-memory roster once built), admits of distinct tickets (group-committed), and a mix of
// admits with 5 % re-scans; the bare Fastify route as the ceiling of HTTP alone. The targets
// (product decisions §15) are stated in DOOR_TARGETS and judged by report.ts in the same run.
// `npm run bench` runs this with the others and writes BENCHMARKS.md; `npm run bench:checkin`
// runs it alone and prints its section.
import pg from 'pg';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { account, freshDatabase, httpPool, load, request, rounds, settings, startNaive, startService } from './lib.js';
import { renderSection, type Section, type Target } from './report.js';

const TICKETS = Number(process.env.BENCH_TICKETS ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_DOOR_CONCURRENCY ?? 200);

export const DOOR_NAMES = {
  bare: 'bare Fastify route',
  naiveLookups: 'naive route: lookups',
  lookups: 'service: lookups',
  naiveAdmits: 'naive route: admits',
  admits: 'service: admits',
  mix: 'service: admits with 5 % re-scans',
};

/** Product decisions §15: lookups ≥ 1.5× and admits ≥ 1.2× a hand-written Fastify + pg route, p99 at or below that route's. */
export const DOOR_TARGETS: Target[] = [
  { label: 'Lookups against the naive route', subject: DOOR_NAMES.lookups, ceiling: DOOR_NAMES.naiveLookups, figure: 'rps', compare: 'atLeast', value: 1.5, unit: '', digits: 2 },
  { label: 'Admits against the naive route', subject: DOOR_NAMES.admits, ceiling: DOOR_NAMES.naiveAdmits, figure: 'rps', compare: 'atLeast', value: 1.2, unit: '', digits: 2 },
  { label: "Lookups' p99 against the naive route's", subject: DOOR_NAMES.lookups, ceiling: DOOR_NAMES.naiveLookups, figure: 'p99', compare: 'atMost', value: 1, unit: '', digits: 2 },
  { label: "Admits' p99 against the naive route's", subject: DOOR_NAMES.admits, ceiling: DOOR_NAMES.naiveAdmits, figure: 'p99', compare: 'atMost', value: 1, unit: '', digits: 2 },
];

async function seed(db: pg.Pool, eventId: string, accountId: string, prefix: string): Promise<string[]> {
  await db.query(
    `insert into registrations (id, event_id, account_id, mode, status, name, email, ticket_type, quantity, amount_paise, created_at, confirmed_at)
     select $1 || lpad(g::text, 6, '0'), $2, $3, 'test', 'confirmed', 'Guest ' || g, 'guest' || g || '@example.in', 'General', 1, 0, now(), now()
     from generate_series(1, $4) g`,
    [prefix, eventId, accountId, TICKETS],
  );
  await db.query(`insert into attendees (id, registration_id, idx, name, email) select id, id, 0, name, email from registrations where event_id = $1`, [eventId]);
  await db.query(`update seat_counters set taken = $2 where event_id = $1 and scope = 'event'`, [eventId, TICKETS]);
  return Array.from({ length: TICKETS }, (_, i) => `${prefix}${String(i + 1).padStart(6, '0')}`);
}

export async function doorBench(): Promise<Section> {
  const { seconds, runs, warmupSeconds } = settings;
  const database = await freshDatabase('checkin');
  const service = await startService(database.url, { WORKERS: 'false' });
  const naive = await startNaive(database.url);
  const db = new pg.Pool({ connectionString: database.url, max: 4 });
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
    // Lookups read one event's tickets (both routes); every admitting run gets its own event.
    const lookup = await event('Lookups');
    const fresh = { admits: [] as Awaited<ReturnType<typeof event>>[], naiveAdmits: [] as Awaited<ReturnType<typeof event>>[], mix: [] as Awaited<ReturnType<typeof event>>[] };
    for (let r = 0; r < runs; r++) {
      fresh.admits.push(await event('Admits'));
      fresh.naiveAdmits.push(await event('Naive admits'));
      fresh.mix.push(await event('Mix'));
    }
    await db.query('analyze');

    const svc = httpPool(service.url, CONCURRENCY);
    const ref = httpPool(naive.url, CONCURRENCY);
    const headers = { 'x-api-key': key };
    const lookupPath = (i: number) => `/events/${lookup.id}/check-in?registrationId=${lookup.tickets[(i * 7919) % TICKETS]}`;
    await load(CONCURRENCY, warmupSeconds, async (i) => (await request(svc, 'GET', `/api/v1${lookupPath(i)}`, headers)).status === 200);
    await load(CONCURRENCY, warmupSeconds, async (i) => (await request(ref, 'GET', lookupPath(i), {})).status === 200);
    await load(CONCURRENCY, warmupSeconds, async () => (await request(ref, 'GET', '/', {})).status === 200);

    const series = await rounds(runs, [
      { name: DOOR_NAMES.bare, run: () => load(CONCURRENCY, seconds, async () => (await request(ref, 'GET', '/', {})).status === 200) },
      { name: DOOR_NAMES.naiveLookups, run: () => load(CONCURRENCY, seconds, async (i) => (await request(ref, 'GET', lookupPath(i), {})).status === 200) },
      { name: DOOR_NAMES.lookups, run: () => load(CONCURRENCY, seconds, async (i) => (await request(svc, 'GET', `/api/v1${lookupPath(i)}`, headers)).status === 200) },
      {
        name: DOOR_NAMES.naiveAdmits,
        run: (round) => {
          const e = fresh.naiveAdmits[round]!;
          return load(CONCURRENCY, seconds, async (i) => (await request(ref, 'POST', `/events/${e.id}/check-in`, {}, { registrationId: e.tickets[i] })).status === 201, TICKETS);
        },
      },
      {
        name: DOOR_NAMES.admits,
        run: (round) => {
          const e = fresh.admits[round]!;
          return load(CONCURRENCY, seconds, async (i) => (await request(svc, 'POST', `/api/v1/events/${e.id}/check-in`, headers, { registrationId: e.tickets[i] })).status === 201, TICKETS);
        },
      },
      {
        name: DOOR_NAMES.mix,
        run: (round) => {
          // 95 % first scans, 5 % re-scans of a ticket admitted earlier in the run.
          const e = fresh.mix[round]!;
          let firstScans = 0;
          return load(
            CONCURRENCY,
            seconds,
            async (i) => {
              const rescan = i % 20 === 19 && firstScans > 0;
              const ticket = rescan ? e.tickets[(i * 31) % firstScans]! : e.tickets[Math.min(firstScans++, TICKETS - 1)]!;
              const r = await request(svc, 'POST', `/api/v1/events/${e.id}/check-in`, headers, { registrationId: ticket });
              return r.status === 201 || r.status === 200;
            },
            Math.floor(TICKETS / 0.95),
          );
        },
      },
    ]);
    await svc.close();
    await ref.close();

    return {
      title: 'Door check-in',
      description: `PostgreSQL. One service process (its default pool of 20 connections, background workers off) and, on the same database, the naive routes of \`bench/naive-server.ts\` (one Fastify process, one query or statement per request, no authentication, pool of 20). ${CONCURRENCY} concurrent scanners over keep-alive connections; ${TICKETS.toLocaleString('en')} tickets per event; each admitting run on an event of its own, and a run that admits every ticket before its ${seconds} s ends stops there. Lookups scan tickets of one event in a fixed scattered order. The bare route is Fastify answering a constant, the ceiling of HTTP alone on this machine.`,
      series,
      comparisons: [
        { subject: DOOR_NAMES.lookups, ceiling: DOOR_NAMES.naiveLookups },
        { subject: DOOR_NAMES.lookups, ceiling: DOOR_NAMES.naiveLookups, figure: 'p99' },
        { subject: DOOR_NAMES.lookups, ceiling: DOOR_NAMES.bare },
        { subject: DOOR_NAMES.admits, ceiling: DOOR_NAMES.naiveAdmits },
        { subject: DOOR_NAMES.admits, ceiling: DOOR_NAMES.naiveAdmits, figure: 'p99' },
        { subject: DOOR_NAMES.mix, ceiling: DOOR_NAMES.naiveAdmits },
      ],
      targets: DOOR_TARGETS,
    };
  } finally {
    await db.end();
    await naive.stop();
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
