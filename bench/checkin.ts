// Door check-in under load, on PostgreSQL: 10,000 tickets, 200 concurrent scanners.
// (a) lookups only, (b) admits of distinct tickets, (c) a mix with 5 % re-scans;
// ceilings from the same run: a bare Fastify route, and a single-row
// UPDATE … RETURNING through pg at the same concurrency and pool size.
import { spawn } from 'node:child_process';
import pg from 'pg';
import { freePort } from '../test/helpers/process.js';
import { account, freshDatabase, httpPool, load, request, show, startService, type LoadResult } from './lib.js';
import { writeSection } from './report.js';

const TICKETS = Number(process.env.BENCH_TICKETS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 200);
const LOOKUPS = Number(process.env.BENCH_LOOKUPS ?? 20_000);

async function seed(db: pg.Pool, eventId: string, accountId: string, prefix: string): Promise<string[]> {
  await db.query(
    `insert into registrations (id, event_id, account_id, mode, status, name, email, ticket_type, quantity, amount_paise, created_at, confirmed_at)
     select $1 || lpad(g::text, 6, '0'), $2, $3, 'test', 'confirmed', 'Guest ' || g, 'guest' || g || '@example.in', 'General', 1, 0, now(), now()
     from generate_series(1, $4) g`,
    [prefix, eventId, accountId, TICKETS],
  );
  await db.query(
    `insert into attendees (id, registration_id, idx, name, email) select id, id, 0, name, email from registrations where event_id = $1`,
    [eventId],
  );
  await db.query(`update seat_counters set taken = $2 where event_id = $1 and scope = 'event'`, [eventId, TICKETS]);
  return Array.from({ length: TICKETS }, (_, i) => `${prefix}${String(i + 1).padStart(6, '0')}`);
}

async function bareCeiling(): Promise<LoadResult> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bench/bare-server.mjs'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  const pool = httpPool(`http://127.0.0.1:${port}`, CONCURRENCY);
  await load('warm-up', CONCURRENCY, 5_000, async () => (await request(pool, 'GET', '/', {})).status === 200);
  const r = await load('ceiling: bare Fastify route', CONCURRENCY, 50_000, async () => (await request(pool, 'GET', '/', {})).status === 200);
  await pool.close();
  child.kill('SIGTERM');
  return r;
}

async function main(): Promise<void> {
  const database = await freshDatabase('checkin');
  const service = await startService(database.url, { WORKERS: 'false' });
  const db = new pg.Pool({ connectionString: database.url, max: 20 });
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
    const [lookupEvent, admitEvent, mixEvent, rawEvent] = [await mk('Lookups'), await mk('Admits'), await mk('Mix'), await mk('Raw')];
    const lookupTickets = await seed(db, lookupEvent, userId, 'reg_bench_l_');
    const admitTickets = await seed(db, admitEvent, userId, 'reg_bench_a_');
    const mixTickets = await seed(db, mixEvent, userId, 'reg_bench_m_');
    const rawTickets = await seed(db, rawEvent, userId, 'reg_bench_r_');
    await db.query('analyze');

    const results: LoadResult[] = [];
    results.push(await bareCeiling());

    // The raw reference: one UPDATE … RETURNING per ticket through pg, same concurrency, same pool size as the service.
    results.push(
      await load('ceiling: raw UPDATE … RETURNING through pg', CONCURRENCY, TICKETS, async (i) => {
        const r = await db.query('update attendees set checked_in_at = now() where id = $1 and checked_in_at is null returning id', [rawTickets[i]]);
        return r.rowCount === 1;
      }),
    );

    const pool = httpPool(service.url, CONCURRENCY);
    const headers = { 'x-api-key': key };
    await load('warm-up', CONCURRENCY, 2_000, async (i) => (await request(pool, 'GET', `/api/v1/events/${lookupEvent}/check-in?registrationId=${lookupTickets[i % TICKETS]}`, headers)).status === 200);
    results.push(
      await load('(a) lookups', CONCURRENCY, LOOKUPS, async (i) => {
        const r = await request(pool, 'GET', `/api/v1/events/${lookupEvent}/check-in?registrationId=${lookupTickets[(i * 7919) % TICKETS]}`, headers);
        return r.status === 200;
      }),
    );
    results.push(
      await load('(b) admits of distinct tickets', CONCURRENCY, TICKETS, async (i) => {
        const r = await request(pool, 'POST', `/api/v1/events/${admitEvent}/check-in`, headers, { registrationId: admitTickets[i] });
        return r.status === 201;
      }),
    );
    // (c) 95 % first scans, 5 % re-scans of a ticket admitted earlier in the run.
    let firstScans = 0;
    const mixTotal = Math.floor(TICKETS / 0.95);
    results.push(
      await load('(c) mix: admits with 5 % re-scans', CONCURRENCY, mixTotal, async (i) => {
        const rescan = i % 20 === 19 && firstScans > 0;
        const ticket = rescan ? mixTickets[(i * 31) % firstScans]! : mixTickets[Math.min(firstScans++, TICKETS - 1)]!;
        const r = await request(pool, 'POST', `/api/v1/events/${mixEvent}/check-in`, headers, { registrationId: ticket });
        return r.status === 201 || r.status === 200;
      }),
    );
    await pool.close();

    for (const r of results) console.log(show(r));
    const [bare, raw, lookups, admits, mix] = results as [LoadResult, LoadResult, LoadResult, LoadResult, LoadResult];
    const lines = [
      `## Door check-in (\`npm run bench:checkin\`)`,
      '',
      `PostgreSQL, one service process (pool of 20 connections), ${TICKETS.toLocaleString('en')} tickets per event, ${CONCURRENCY} concurrent scanners over keep-alive connections, load generator on the same machine.`,
      '',
      '| run | requests/s | p50 ms | p99 ms | errors |',
      '|---|---:|---:|---:|---:|',
      ...results.map((r) => `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} |`),
      '',
      `- Lookups reach **${((lookups.rps / bare.rps) * 100).toFixed(0)} %** of the bare route (aim: at least 20 %).`,
      `- Admits reach **${((admits.rps / raw.rps) * 100).toFixed(0)} %** of the raw UPDATE (aim: at least 60 %); the mix **${((mix.rps / raw.rps) * 100).toFixed(0)} %**.`,
      `- p99: lookups ${lookups.p99.toFixed(1)} ms, admits ${admits.p99.toFixed(1)} ms, mix ${mix.p99.toFixed(1)} ms (aim: under 20 ms).`,
    ];
    writeSection('checkin', lines.join('\n'));
    console.log(lines.slice(-3).join('\n'));
  } finally {
    await db.end();
    await service.stop();
    await database.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
