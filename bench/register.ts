// Registration under load, on PostgreSQL: two service processes (pool of 20 each, background
// workers off) beside two processes of the baseline routes (bench/baseline-server.ts, on tables
// of their own): the one-statement route (a prepared CTE: conditional UPDATE of the capacity
// row, INSERT the registration, INSERT its job) and, as a second line, the same writes in five
// round trips; 128 concurrent clients split across the two processes of each. Measured: one hot
// event without a capacity limit, the same load spread over 1,000 events, and a ticket drop
// (one event of capacity 2,000 and 40,000 requests), timed to its last confirmed booking and
// checked to sell exactly its capacity. `npm run bench:register` runs it alone and prints its section.
import pg from 'pg';
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
  startService,
  tagged,
} from './lib.js';
import { build } from './embedded.js';
import { num, renderSection, type Run, type Section, type Target } from './report.js';

const CAPACITY = Number(process.env.BENCH_CAPACITY ?? 2000);
/** Requests fired at each ticket drop, whatever the time they take. */
const DROP_REQUESTS = Number(process.env.BENCH_DROP_REQUESTS ?? 40_000);
/** A drop still going after this long is cut short (and says so by its figures). */
const DROP_LIMIT_S = 300;
const CONCURRENCY = Number(process.env.BENCH_REGISTER_CONCURRENCY ?? 128);
const EVENTS = 1000;

/** The baselines, as named beside every figure. */
export const BASELINES = {
  one: 'baseline, one statement',
  steps: 'baseline, five statements',
};

export const REGISTER_NAMES = {
  hot: 'service: one hot event',
  oneHot: `${BASELINES.one}: one hot event`,
  stepsHot: `${BASELINES.steps}: one hot event`,
  spread: `service: spread over ${num(EVENTS)} events`,
  oneSpread: `${BASELINES.one}: spread over ${num(EVENTS)} events`,
  stepsSpread: `${BASELINES.steps}: spread over ${num(EVENTS)} events`,
  drop: 'service: ticket drop (409s from its sold-out memory)',
  oneDrop: `${BASELINES.one}: ticket drop`,
  stepsDrop: `${BASELINES.steps}: ticket drop`,
};

/** Said beside every figure of a drop: most of its answers are refusals, and the service gives them from memory. */
export const DROP_MEMORY =
  "Most of a drop's answers are 409s: once a service process has read the event full it refuses for one second from its sold-out memory, without the database; the baseline asks the database for every one";

/** docs/decisions/22-figures-and-evidence.md, against the one-statement route. */
export const REGISTER_TARGETS: Target[] = [
  {
    label: `One hot event against the ${BASELINES.one}`,
    subject: REGISTER_NAMES.hot,
    ceiling: REGISTER_NAMES.oneHot,
    figure: 'rps',
    compare: 'atLeast',
    value: 2,
    unit: '',
    digits: 2,
  },
  {
    label: `Ticket drop sold out sooner than by the ${BASELINES.one}: seats sold per second up to the last confirmed booking (the 409s after it, which the service gives from its sold-out memory, do not count)`,
    subject: REGISTER_NAMES.drop,
    ceiling: REGISTER_NAMES.oneDrop,
    figure: 'sellRate',
    compare: 'atLeast',
    value: 1.5,
    unit: '',
    digits: 2,
  },
  {
    label: `Spread over many events against the ${BASELINES.one}`,
    subject: REGISTER_NAMES.spread,
    ceiling: REGISTER_NAMES.oneSpread,
    figure: 'rps',
    compare: 'atLeast',
    value: 1,
    unit: '',
    digits: 2,
  },
  {
    label: `p99, spread over many events, against the ${BASELINES.one}`,
    subject: REGISTER_NAMES.spread,
    ceiling: REGISTER_NAMES.oneSpread,
    figure: 'p99',
    compare: 'atMost',
    value: 1,
    unit: '',
    digits: 2,
  },
  {
    label: 'p99, one hot event',
    subject: REGISTER_NAMES.hot,
    figure: 'p99',
    compare: 'below',
    value: 100,
    unit: 'ms',
    digits: 1,
  },
  {
    label: 'p99, ticket drop',
    subject: REGISTER_NAMES.drop,
    figure: 'p99',
    compare: 'below',
    value: 100,
    unit: 'ms',
    digits: 1,
  },
  {
    label: 'p99, spread over many events',
    subject: REGISTER_NAMES.spread,
    figure: 'p99',
    compare: 'below',
    value: 100,
    unit: 'ms',
    digits: 1,
  },
];

export async function registerBench(): Promise<{ section: Section; seatsRight: boolean }> {
  const { seconds, runs, warmupSeconds } = settings;
  const database = await freshDatabase('register');
  const services = [
    await startService(database.url, { WORKERS: 'false' }),
    await startService(database.url, { WORKERS: 'false' }),
  ];
  const db = new pg.Pool({ connectionString: tagged(database.url, APP.driver), max: 4 });
  const baselines: Awaited<ReturnType<typeof startBaseline>>[] = [];
  try {
    await createBaselineTables(db);
    // 0: the hot event; 1..EVENTS: the spread; then each run's ticket drop, for each baseline route.
    const dropOf = (route: 'one' | 'steps', round: number) =>
      EVENTS + 1 + (route === 'one' ? 0 : runs) + round;
    await db.query(
      `insert into ref_events (id, capacity) select g, case when g > $2::int then $1::int else 0 end from generate_series(0, $2::int + 2 * $3::int) g`,
      [CAPACITY, EVENTS, runs],
    );
    baselines.push(await startBaseline(database.url), await startBaseline(database.url));

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
    for (let i = 0; i < EVENTS; i += 10)
      spread.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => create(`Spread ${i + j}`, 0)))));
    const warm = await create('Warm-up', 0);

    const svc = services.map((s) => httpPool(s.url, CONCURRENCY / 2));
    const ref = baselines.map((s) => httpPool(s.url, CONCURRENCY / 2));
    let seq = 0;
    const body = () => {
      const i = seq++;
      return { name: `Person ${i}`, email: `p${i}@example.in` };
    };
    const service = async (i: number, eventId: string) =>
      (await request(svc[i % 2]!, 'POST', `/api/v1/events/${eventId}/register`, headers, body())).status;
    const path = { one: 'register', steps: 'register-steps' };
    const baseline = (route: 'one' | 'steps') => async (i: number, eventId: number) =>
      (await request(ref[i % 2]!, 'POST', `/events/${eventId}/${path[route]}`, {}, body())).status;
    const one = baseline('one');
    const steps = baseline('steps');
    await load(CONCURRENCY, warmupSeconds, async (i) => (await service(i, warm)) === 201);
    await load(CONCURRENCY, warmupSeconds, async (i) => (await one(i, 0)) === 201);
    await load(CONCURRENCY, warmupSeconds, async (i) => (await steps(i, 0)) === 201);

    let seatsRight = true;
    // A drop: DROP_REQUESTS requests, as fast as the clients go, timed from the first request
    // to the last 201 (the sell-out) and to the last answer.
    const dropRun = async (
      go: (i: number) => Promise<number>,
      count: () => Promise<{ rows: number; counter: number }>,
    ): Promise<Run> => {
      let refused = 0;
      let lastSold = 0;
      const started = performance.now();
      const r = await load(
        CONCURRENCY,
        DROP_LIMIT_S,
        async (i) => {
          const s = await go(i);
          if (s === 409) refused++;
          if (s === 201) lastSold = performance.now();
          return s === 201 || s === 409;
        },
        DROP_REQUESTS,
      );
      const allAnswered = (performance.now() - started) / 1000;
      const { rows, counter } = await count();
      const oversold = Math.max(0, rows - CAPACITY);
      if (oversold > 0 || rows !== counter || (refused > 0 && rows < CAPACITY)) seatsRight = false;
      const soldOut = lastSold > 0 ? (lastSold - started) / 1000 : undefined;
      return {
        ...r,
        extra: {
          confirmed: rows,
          counter,
          refused,
          oversold,
          soldOutS: soldOut,
          sellRate: soldOut ? rows / soldOut : undefined,
          allAnsweredS: allAnswered,
        },
      };
    };

    // Where each answer's CPU goes: the configuration's two server processes, the PostgreSQL
    // backends of their own connections (by pid), and this load generator, in CPU ms per answer.
    const servicePids = () => services.map((s) => s.child.pid!);
    const baselinePids = () => baselines.map((n) => n.pid);
    const measured =
      (pids: () => number[], backends: () => Promise<number[]>, go: () => Promise<Run>) =>
      async (): Promise<Run> => {
        const meter = await cpuMeter(pids, backends);
        const r = await go();
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
    const ofService = (go: () => Promise<Run>) => measured(servicePids, backendsOf(db, serviceBackends), go);
    const ofBaseline = (go: () => Promise<Run>) =>
      measured(baselinePids, backendsOf(db, baselineBackends), go);
    const baselineDrop = (route: 'one' | 'steps') => (round: number) => {
      const id = dropOf(route, round);
      return ofBaseline(() =>
        dropRun(
          (i) => baseline(route)(i, id),
          async () => ({
            rows: (
              await db.query('select count(*)::int as n from ref_registrations where event_id = $1', [id])
            ).rows[0].n as number,
            counter: (await db.query('select taken from ref_events where id = $1', [id])).rows[0]
              .taken as number,
          }),
        ),
      )();
    };
    const series = await rounds(runs, [
      {
        name: REGISTER_NAMES.oneHot,
        run: ofBaseline(() => load(CONCURRENCY, seconds, async (i) => (await one(i, 0)) === 201)),
      },
      {
        name: REGISTER_NAMES.stepsHot,
        run: ofBaseline(() => load(CONCURRENCY, seconds, async (i) => (await steps(i, 0)) === 201)),
      },
      {
        name: REGISTER_NAMES.hot,
        run: ofService(() => load(CONCURRENCY, seconds, async (i) => (await service(i, hot)) === 201)),
      },
      {
        name: REGISTER_NAMES.oneSpread,
        run: ofBaseline(() =>
          load(CONCURRENCY, seconds, async (i) => (await one(i, 1 + (i % EVENTS))) === 201),
        ),
      },
      {
        name: REGISTER_NAMES.stepsSpread,
        run: ofBaseline(() =>
          load(CONCURRENCY, seconds, async (i) => (await steps(i, 1 + (i % EVENTS))) === 201),
        ),
      },
      {
        name: REGISTER_NAMES.spread,
        run: ofService(() =>
          load(CONCURRENCY, seconds, async (i) => (await service(i, spread[i % EVENTS]!)) === 201),
        ),
      },
      { name: REGISTER_NAMES.oneDrop, run: baselineDrop('one') },
      { name: REGISTER_NAMES.stepsDrop, run: baselineDrop('steps') },
      {
        name: REGISTER_NAMES.drop,
        run: (round) => {
          const id = drops[round]!;
          return ofService(() =>
            dropRun(
              (i) => service(i, id),
              async () => ({
                rows: (
                  await db.query(
                    `select count(*)::int as n from registrations where event_id = $1 and status = 'confirmed'`,
                    [id],
                  )
                ).rows[0].n as number,
                counter: (
                  await db.query(`select taken from seat_counters where event_id = $1 and scope = 'event'`, [
                    id,
                  ])
                ).rows[0].taken as number,
              }),
            ),
          )();
        },
      },
    ]);
    for (const p of [...svc, ...ref]) await p.close();

    const dropNames = [REGISTER_NAMES.drop, REGISTER_NAMES.oneDrop, REGISTER_NAMES.stepsDrop];
    const dropRuns = series
      .filter((s) => dropNames.includes(s.name))
      .flatMap((s) => s.runs.map((r, i) => ({ name: s.name, i, x: r.extra! })));
    const wrong = dropRuns.filter(
      ({ x }) => x.oversold! > 0 || x.confirmed !== x.counter || (x.refused! > 0 && x.confirmed! < CAPACITY),
    );
    const full = dropRuns.every(({ x }) => x.confirmed === CAPACITY);
    const seats =
      wrong.length === 0
        ? `Ticket drops: in every run (${dropRuns.length}, service and baselines) the confirmed bookings matched the seat counter, none was oversold and none refused while seats were left; ${
            full
              ? `each sold all ${num(CAPACITY)} seats`
              : `seats sold of ${num(CAPACITY)}: ${dropRuns.map(({ name, i, x }) => `${name} run ${i + 1}: ${num(x.confirmed!)}`).join(', ')}`
          }.`
        : `**Ticket drops that went wrong**: ${wrong.map(({ name, i, x }) => `${name} run ${i + 1}: ${num(x.confirmed!)} confirmed, counter ${num(x.counter!)}, ${num(x.refused!)} refused, oversold ${num(x.oversold!)}`).join('; ')}.`;
    const stepsNote =
      'The five-statement baseline: BEGIN, UPDATE, INSERT, INSERT, COMMIT, the capacity row locked across three round trips';
    return {
      seatsRight,
      section: {
        title: 'Registration',
        description: `PostgreSQL. Two service processes, run as \`npm start\` runs them (\`node dist/server.js\`; each its default pool of 20 connections, background workers off) and two processes of the baseline routes of \`bench/baseline-server.ts\` (pool of 20 each, no authentication, on tables of their own without triggers: \`ref_events\`, \`ref_registrations\`, \`ref_jobs\`) on the same database. "${BASELINES.one}" is one named prepared statement per request, a CTE that takes a seat on the event's capacity row if there is room and inserts the registration and its mail job (201, or 409 when full); "${BASELINES.steps}" makes the same writes in five round trips (BEGIN; UPDATE; INSERT; INSERT; COMMIT). Both commit each request on its own, with the database's durability settings (see the header). ${CONCURRENCY} concurrent clients over keep-alive connections, split across the two processes of each, free registrations of one person each for ${seconds} s per run. One hot event: no capacity limit. Spread: the requests go round ${num(EVENTS)} events without a limit. Ticket drop: each run on an event of its own with a capacity of ${num(CAPACITY)}, and ${num(DROP_REQUESTS)} requests fired as fast as the clients go (not for a fixed time); the drop's figure is how soon it sold out: the seconds from the first request to the last confirmed booking, and the seats sold per second until then. Once the seats are gone the rest are refused (409, counted as correct answers in requests/s); the service gives most of those 409s from its one-second sold-out memory, without the database. Where the CPU goes, per answer: the configuration's two server processes, the database (the PostgreSQL backends of those processes' own connections, found by pid in \`pg_stat_activity\`; the server's other processes, the WAL writer among them, are not counted), and this load generator.`,
        series,
        columns: [
          { key: 'confirmed', label: 'confirmed', digits: 0 },
          { key: 'refused', label: 'refused (409)', digits: 0 },
          { key: 'oversold', label: 'oversold', digits: 0 },
          { key: 'soldOutS', label: 'drop: s to the last confirmed booking', digits: 2 },
          { key: 'sellRate', label: 'drop: seats sold per s until then', digits: 0 },
          { key: 'allAnsweredS', label: `drop: s to answer all ${num(DROP_REQUESTS)}`, digits: 2 },
          { key: 'cpuServer', label: 'CPU ms/answer: server processes', digits: 2 },
          { key: 'cpuDatabase', label: 'their database backends', digits: 2 },
          { key: 'cpuLoad', label: 'load generator', digits: 2 },
        ],
        comparisons: [
          { subject: REGISTER_NAMES.hot, ceiling: REGISTER_NAMES.oneHot },
          { subject: REGISTER_NAMES.hot, ceiling: REGISTER_NAMES.stepsHot, note: stepsNote },
          { subject: REGISTER_NAMES.spread, ceiling: REGISTER_NAMES.oneSpread },
          { subject: REGISTER_NAMES.spread, ceiling: REGISTER_NAMES.oneSpread, figure: 'p99' },
          { subject: REGISTER_NAMES.spread, ceiling: REGISTER_NAMES.stepsSpread, note: stepsNote },
          {
            subject: REGISTER_NAMES.drop,
            ceiling: REGISTER_NAMES.oneDrop,
            figure: 'sellRate',
            unit: 'seats/s',
            digits: 0,
            note: 'Seats sold per second from the first request to the last confirmed booking: the higher, the sooner the drop sold out',
          },
          { subject: REGISTER_NAMES.drop, ceiling: REGISTER_NAMES.oneDrop, note: DROP_MEMORY },
          {
            subject: REGISTER_NAMES.drop,
            ceiling: REGISTER_NAMES.stepsDrop,
            figure: 'sellRate',
            unit: 'seats/s',
            digits: 0,
          },
        ],
        targets: REGISTER_TARGETS,
        notes: [seats],
      },
    };
  } finally {
    await db.end();
    for (const n of baselines) await n.stop();
    for (const s of services) await s.stop();
    await database.drop();
  }
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  build();
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
