// Registration under load, on PostgreSQL: two service processes (pool of 20 each, background
// workers off) beside two processes of the naive Fastify + pg route (bench/naive-server.ts:
// BEGIN; conditional UPDATE of the capacity row; INSERT the registration; INSERT its job;
// COMMIT), 128 concurrent clients split across the two processes of each. Measured: one hot
// event without a capacity limit, the same load spread over 1,000 events, and a ticket drop
// (one event of capacity 500, far more requests than seats), checking that the drop sells
// exactly its capacity. `npm run bench:register` runs it alone and prints its section.
import pg from 'pg';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { account, cpuMeter, freshDatabase, httpPool, load, request, rounds, settings, startNaive, startService } from './lib.js';
import { num, renderSection, type Run, type Section, type Target } from './report.js';

const CAPACITY = Number(process.env.BENCH_CAPACITY ?? 500);
const CONCURRENCY = Number(process.env.BENCH_REGISTER_CONCURRENCY ?? 128);
const EVENTS = 1000;

export const REGISTER_NAMES = {
  naiveHot: 'naive route: one hot event',
  hot: 'service: one hot event',
  naiveSpread: `naive route: spread over ${num(EVENTS)} events`,
  spread: `service: spread over ${num(EVENTS)} events`,
  naiveDrop: `naive route: ticket drop`,
  drop: `service: ticket drop`,
};

export const REGISTER_TARGETS: Target[] = [
  { label: 'One hot event against the naive route', subject: REGISTER_NAMES.hot, ceiling: REGISTER_NAMES.naiveHot, figure: 'rps', compare: 'atLeast', value: 1.5, unit: '', digits: 2 },
  { label: 'Ticket drop against the naive route', subject: REGISTER_NAMES.drop, ceiling: REGISTER_NAMES.naiveDrop, figure: 'rps', compare: 'atLeast', value: 1.5, unit: '', digits: 2 },
  { label: 'Spread over many events against the naive route', subject: REGISTER_NAMES.spread, ceiling: REGISTER_NAMES.naiveSpread, figure: 'rps', compare: 'atLeast', value: 1, unit: '', digits: 2 },
  { label: 'p99, spread over many events, against the naive route', subject: REGISTER_NAMES.spread, ceiling: REGISTER_NAMES.naiveSpread, figure: 'p99', compare: 'atMost', value: 1, unit: '', digits: 2 },
  { label: 'p99, one hot event', subject: REGISTER_NAMES.hot, figure: 'p99', compare: 'below', value: 100, unit: 'ms', digits: 1 },
  { label: 'p99, ticket drop', subject: REGISTER_NAMES.drop, figure: 'p99', compare: 'below', value: 100, unit: 'ms', digits: 1 },
  { label: 'p99, spread over many events', subject: REGISTER_NAMES.spread, figure: 'p99', compare: 'below', value: 100, unit: 'ms', digits: 1 },
];

export async function registerBench(): Promise<{ section: Section; seatsRight: boolean }> {
  const { seconds, runs, warmupSeconds } = settings;
  const database = await freshDatabase('register');
  const services = [await startService(database.url, { WORKERS: 'false' }), await startService(database.url, { WORKERS: 'false' })];
  const db = new pg.Pool({ connectionString: database.url, max: 4 });
  const naives: Awaited<ReturnType<typeof startNaive>>[] = [];
  try {
    await db.query(`create table ref_events (id int primary key, capacity int not null, taken int not null default 0)`);
    await db.query(`create table ref_registrations (id bigserial primary key, event_id int not null, name text not null, email text not null, created_at timestamptz not null default now())`);
    await db.query(`create table ref_jobs (id bigserial primary key, topic text not null, payload jsonb not null, created_at timestamptz not null default now())`);
    // 0: the hot event; 1..EVENTS: the spread; EVENTS + 1 + round: each run's ticket drop.
    await db.query(`insert into ref_events (id, capacity) select g, case when g > $2::int then $1::int else 0 end from generate_series(0, $2::int + $3::int) g`, [CAPACITY, EVENTS, runs]);
    naives.push(await startNaive(database.url), await startNaive(database.url));

    const { key } = await account(services[0]!.url);
    const headers = { 'x-api-key': key };
    const create = async (title: string, capacity: number) =>
      (
        await fetch(`${services[0]!.url}/api/v1/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          body: JSON.stringify({ title, description: 'bench', startDate: '2026-12-31', capacity }),
        }).then((r) => r.json() as Promise<{ data: { id: string } }>)
      ).data.id;
    const hot = await create('Hot event', 0);
    const drops: string[] = [];
    for (let r = 0; r < runs; r++) drops.push(await create(`Ticket drop ${r + 1}`, CAPACITY));
    const spread: string[] = [];
    for (let i = 0; i < EVENTS; i += 10) spread.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => create(`Spread ${i + j}`, 0)))));
    const warm = await create('Warm-up', 0);

    const svc = services.map((s) => httpPool(s.url, CONCURRENCY / 2));
    const ref = naives.map((s) => httpPool(s.url, CONCURRENCY / 2));
    let seq = 0;
    const body = () => {
      const i = seq++;
      return { name: `Person ${i}`, email: `p${i}@example.in` };
    };
    const service = async (i: number, eventId: string) => (await request(svc[i % 2]!, 'POST', `/api/v1/events/${eventId}/register`, headers, body())).status;
    const naive = async (i: number, eventId: number) => (await request(ref[i % 2]!, 'POST', `/events/${eventId}/register`, {}, body())).status;
    await load(CONCURRENCY, warmupSeconds, async (i) => (await service(i, warm)) === 201);
    await load(CONCURRENCY, warmupSeconds, async (i) => (await naive(i, 0)) === 201);

    let seatsRight = true;
    const dropRun = async (go: (i: number) => Promise<number>, count: () => Promise<{ rows: number; counter: number }>): Promise<Run> => {
      let refused = 0;
      const r = await load(CONCURRENCY, seconds, async (i) => {
        const s = await go(i);
        if (s === 409) refused++;
        return s === 201 || s === 409;
      });
      const { rows, counter } = await count();
      const oversold = Math.max(0, rows - CAPACITY);
      if (oversold > 0 || rows !== counter || (refused > 0 && rows < CAPACITY)) seatsRight = false;
      return { ...r, extra: { confirmed: rows, counter, refused, oversold } };
    };

    // Where each answer's CPU goes: the two server processes of the configuration, the
    // database server, and this load generator, in CPU milliseconds per answer.
    const servicePids = () => services.map((s) => s.child.pid!);
    const naivePids = () => naives.map((n) => n.pid);
    const measured = (pids: () => number[], go: () => Promise<Run>) => async (): Promise<Run> => {
      const meter = cpuMeter(pids);
      const r = await go();
      const cpu = meter();
      const per = (s: number) => (r.done > 0 ? (s / r.done) * 1000 : undefined);
      return { ...r, extra: { ...r.extra, cpuServer: per(cpu.processes), cpuDatabase: per(cpu.database), cpuLoad: per(cpu.generator) } };
    };
    const series = await rounds(runs, [
      { name: REGISTER_NAMES.naiveHot, run: measured(naivePids, () => load(CONCURRENCY, seconds, async (i) => (await naive(i, 0)) === 201)) },
      { name: REGISTER_NAMES.hot, run: measured(servicePids, () => load(CONCURRENCY, seconds, async (i) => (await service(i, hot)) === 201)) },
      { name: REGISTER_NAMES.naiveSpread, run: measured(naivePids, () => load(CONCURRENCY, seconds, async (i) => (await naive(i, 1 + (i % EVENTS))) === 201)) },
      { name: REGISTER_NAMES.spread, run: measured(servicePids, () => load(CONCURRENCY, seconds, async (i) => (await service(i, spread[i % EVENTS]!)) === 201)) },
      {
        name: REGISTER_NAMES.naiveDrop,
        run: (round) => {
          const id = EVENTS + 1 + round;
          return measured(naivePids, () => dropRun(
            (i) => naive(i, id),
            async () => ({
              rows: (await db.query('select count(*)::int as n from ref_registrations where event_id = $1', [id])).rows[0].n as number,
              counter: (await db.query('select taken from ref_events where id = $1', [id])).rows[0].taken as number,
            }),
          ))();
        },
      },
      {
        name: REGISTER_NAMES.drop,
        run: (round) => {
          const id = drops[round]!;
          return measured(servicePids, () => dropRun(
            (i) => service(i, id),
            async () => ({
              rows: (await db.query(`select count(*)::int as n from registrations where event_id = $1 and status = 'confirmed'`, [id])).rows[0].n as number,
              counter: (await db.query(`select taken from seat_counters where event_id = $1 and scope = 'event'`, [id])).rows[0].taken as number,
            }),
          ))();
        },
      },
    ]);
    for (const p of [...svc, ...ref]) await p.close();

    const dropRuns = series.filter((s) => s.name === REGISTER_NAMES.drop || s.name === REGISTER_NAMES.naiveDrop).flatMap((s) => s.runs.map((r, i) => ({ name: s.name, i, x: r.extra! })));
    const wrong = dropRuns.filter(({ x }) => x.oversold! > 0 || x.confirmed !== x.counter || (x.refused! > 0 && x.confirmed! < CAPACITY));
    const full = dropRuns.every(({ x }) => x.confirmed === CAPACITY);
    const seats = wrong.length === 0
      ? `Ticket drops: in every run (${dropRuns.length}, service and naive route) the confirmed bookings matched the seat counter, none was oversold and none refused while seats were left; ${
          full ? `each sold all ${num(CAPACITY)} seats` : `seats sold of ${num(CAPACITY)}: ${dropRuns.map(({ name, i, x }) => `${name} run ${i + 1}: ${num(x.confirmed!)}`).join(', ')}`
        }.`
      : `**Ticket drops that went wrong**: ${wrong.map(({ name, i, x }) => `${name} run ${i + 1}: ${num(x.confirmed!)} confirmed, counter ${num(x.counter!)}, ${num(x.refused!)} refused, oversold ${num(x.oversold!)}`).join('; ')}.`;
    return {
      seatsRight,
      section: {
        title: 'Registration',
        description: `PostgreSQL. Two service processes (each its default pool of 20 connections, background workers off) and two processes of the naive route of \`bench/naive-server.ts\` (BEGIN; conditional UPDATE of the event's capacity row; INSERT the registration; INSERT its mail job; COMMIT; pool of 20 each, no authentication, its own tables) on the same database. ${CONCURRENCY} concurrent clients over keep-alive connections, split across the two processes of each, free registrations of one person each for ${seconds} s per run. One hot event: no capacity limit. Spread: the requests go round ${num(EVENTS)} events without a limit. Ticket drop: each run on an event of its own with a capacity of ${num(CAPACITY)}; requests go on for the whole run, so once the seats are gone the rest are refused (409, counted as correct answers in requests/s). Where the CPU goes, per answer: the configuration's two server processes, the database server (every process named postgres on the machine, so a quiet machine is assumed), and this load generator.`,
        series,
        columns: [
          { key: 'confirmed', label: 'confirmed', digits: 0 },
          { key: 'refused', label: 'refused (409)', digits: 0 },
          { key: 'oversold', label: 'oversold', digits: 0 },
          { key: 'cpuServer', label: 'CPU ms/answer: server processes', digits: 2 },
          { key: 'cpuDatabase', label: 'database', digits: 2 },
          { key: 'cpuLoad', label: 'load generator', digits: 2 },
        ],
        comparisons: [
          { subject: REGISTER_NAMES.hot, ceiling: REGISTER_NAMES.naiveHot },
          { subject: REGISTER_NAMES.spread, ceiling: REGISTER_NAMES.naiveSpread },
          { subject: REGISTER_NAMES.spread, ceiling: REGISTER_NAMES.naiveSpread, figure: 'p99' },
          { subject: REGISTER_NAMES.drop, ceiling: REGISTER_NAMES.naiveDrop },
        ],
        targets: REGISTER_TARGETS,
        notes: [seats],
      },
    };
  } finally {
    await db.end();
    for (const n of naives) await n.stop();
    for (const s of services) await s.stop();
    await database.drop();
  }
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  registerBench()
    .then(({ section, seatsRight }) => {
      console.log(renderSection(section));
      if (!seatsRight) process.exitCode = 1;
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
