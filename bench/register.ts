// Registration under load, on PostgreSQL with two service processes:
// (a) a ticket drop: one event of capacity K, N ≫ K concurrent free registrations;
// (b) the same volume spread over 1,000 events.
// The reference, at the same concurrency: the naive seat transaction straight
// through pg (BEGIN; conditional UPDATE of the capacity row; INSERT the
// registration; INSERT the job; COMMIT).
import pg from 'pg';
import { account, freshDatabase, httpPool, load, request, show, startService, type LoadResult } from './lib.js';
import { writeSection } from './report.js';

const CAPACITY = Number(process.env.BENCH_CAPACITY ?? 500);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 6000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 128);
const EVENTS = 1000;

async function naive(db: pg.Pool, name: string, eventIds: (i: number) => number): Promise<LoadResult> {
  return load(name, CONCURRENCY, REQUESTS, async (i) => {
    const c = await db.connect();
    try {
      await c.query('begin');
      const seat = await c.query('update ref_events set taken = taken + 1 where id = $1 and (capacity = 0 or taken < capacity) returning id', [eventIds(i)]);
      if (seat.rowCount !== 1) {
        await c.query('rollback');
        return true; // a refused registration is a correct answer too
      }
      await c.query('insert into ref_registrations (event_id, name, email) values ($1, $2, $3)', [eventIds(i), `P${i}`, `p${i}@example.in`]);
      await c.query(`insert into ref_jobs (topic, payload) values ('ticket.email', $1)`, [JSON.stringify({ i })]);
      await c.query('commit');
      return true;
    } catch {
      await c.query('rollback').catch(() => {});
      return false;
    } finally {
      c.release();
    }
  });
}

async function main(): Promise<void> {
  const database = await freshDatabase('register');
  const services = [await startService(database.url, { WORKERS: 'false' }), await startService(database.url, { WORKERS: 'false' })];
  const db = new pg.Pool({ connectionString: database.url, max: 40 });
  try {
    await db.query(`create table ref_events (id int primary key, capacity int not null, taken int not null default 0)`);
    await db.query(`create table ref_registrations (id bigserial primary key, event_id int not null, name text not null, email text not null, created_at timestamptz not null default now())`);
    await db.query(`create table ref_jobs (id bigserial primary key, topic text not null, payload jsonb not null, created_at timestamptz not null default now())`);
    await db.query(`insert into ref_events (id, capacity) select g, case when g = 0 then $1 else 0 end from generate_series(0, $2) g`, [CAPACITY, EVENTS]);

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
    const drop = await create('Ticket drop', CAPACITY);
    const spread: string[] = [];
    for (let i = 0; i < EVENTS; i++) spread.push(await create(`Spread ${i}`, 0));
    const warm = await create('Warm-up', 0);

    const pools = services.map((s) => httpPool(s.url, CONCURRENCY / 2));
    const register = async (i: number, eventId: string) => {
      const r = await request(pools[i % 2]!, 'POST', `/api/v1/events/${eventId}/register`, headers, { name: `Person ${i}`, email: `p${i}@example.in` });
      return r.status;
    };
    await load('warm-up', CONCURRENCY, 1000, async (i) => (await register(i, warm)) === 201);

    const results: LoadResult[] = [];
    results.push(await naive(db, 'reference: naive transaction, one hot row', () => 0));
    let confirmed = 0;
    let refused = 0;
    const a = await load('(a) ticket drop through the service', CONCURRENCY, REQUESTS, async (i) => {
      const s = await register(i, drop);
      if (s === 201) confirmed++;
      else if (s === 409) refused++;
      return s === 201 || s === 409;
    });
    results.push(a);
    results.push(await naive(db, 'reference: naive transaction, 1,000 rows', (i) => 1 + (i % EVENTS)));
    results.push(await load('(b) spread over 1,000 events', CONCURRENCY, REQUESTS, async (i) => (await register(i, spread[i % EVENTS]!)) === 201));
    for (const p of pools) await p.close();

    const taken = (await db.query(`select count(*)::int as n from registrations where event_id = $1 and status = 'confirmed'`, [drop])).rows[0].n as number;
    const counter = (await db.query(`select taken from seat_counters where event_id = $1 and scope = 'event'`, [drop])).rows[0].taken as number;
    const oversold = Math.max(0, taken - CAPACITY);
    for (const r of results) console.log(show(r));
    console.log(`ticket drop: capacity ${CAPACITY}, confirmed answers ${confirmed}, confirmed rows ${taken}, counter ${counter}, refused ${refused}, oversold ${oversold}`);
    const [refHot, drop_, refSpread, spread_] = results as [LoadResult, LoadResult, LoadResult, LoadResult];
    const lines = [
      `## Registration (\`npm run bench:register\`)`,
      '',
      `PostgreSQL, two service processes (pool of 20 connections each), ${CONCURRENCY} concurrent clients over keep-alive connections split across both, ${REQUESTS.toLocaleString('en')} free registrations per run, background workers off; load generator on the same machine. The reference runs the naive seat transaction (BEGIN; conditional UPDATE of the capacity row; INSERT registration; INSERT job; COMMIT) straight through pg with a pool of 40 at the same concurrency.`,
      '',
      '| run | requests/s | p50 ms | p99 ms | errors |',
      '|---|---:|---:|---:|---:|',
      ...results.map((r) => `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} |`),
      '',
      `- Ticket drop: capacity ${CAPACITY}, **${taken} confirmed** (the seat counter says ${counter}), ${refused} refused with 409, **oversold ${oversold}**.`,
      `- (a) the service over HTTP reaches **${(drop_.rps / refHot.rps).toFixed(2)}×** the naive transaction on one hot row (aim: 1.0 or more).`,
      `- (b) spread over ${EVENTS.toLocaleString('en')} events: **${((spread_.rps / refSpread.rps) * 100).toFixed(0)} %** of the naive transaction (aim: 60 % or more).`,
      `- p99: (a) ${drop_.p99.toFixed(1)} ms, (b) ${spread_.p99.toFixed(1)} ms (aim: under 100 ms).`,
    ];
    writeSection('register', lines.join('\n'));
    console.log(lines.slice(-4).join('\n'));
    if (oversold > 0 || taken !== CAPACITY || counter !== CAPACITY) {
      console.error('SEATS WRONG');
      process.exitCode = 1;
    }
  } finally {
    await db.end();
    for (const s of services) await s.stop();
    await database.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
