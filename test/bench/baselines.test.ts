// The baselines `npm run bench` measures the service against (bench/baseline-server.ts): they
// must answer what the service answers and keep the same guarantees, or a ratio against them
// means nothing. And the CPU meter must count only the run's own database backends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import {
  APP,
  backendsOf,
  baselineBackends,
  cpuMeter,
  createBaselineTables,
  startBaseline,
  tagged,
} from '../../bench/lib.js';
import { embeddedDatabaseUrl } from '../../src/db/embedded.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('the benchmark baselines', () => {
  let server: TestServer;
  let db: pg.Pool;
  let baseline: Awaited<ReturnType<typeof startBaseline>>;
  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${baseline.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as { data?: Record<string, unknown>; code?: string } };
  };

  before(async () => {
    // A database of the test's own (the ref_ tables are made once per database).
    server = await startServer({ isolatedDatabase: true });
    const url = server.deps.config.databaseUrl ?? embeddedDatabaseUrl(server.dataDir);
    db = new pg.Pool({ connectionString: tagged(url, APP.driver), max: 2 });
    await createBaselineTables(db);
    await db.query('insert into ref_events (id, capacity) values (1, 3), (2, 3), (3, 0)');
    await db.query(
      `insert into ref_tickets (id, event_id, status, ticket_type, name, email) values
       ('reg_a', 'ev_1', 'confirmed', 'General', 'Asha', 'asha@example.in'),
       ('reg_b', 'ev_1', 'cancelled', 'General', 'Bala', 'bala@example.in')`,
    );
    // Two seated events of six seats: seats 0–3 Best (seat 3 nearest the stage), 4–5 Gold.
    await db.query('insert into ref_seat_events (id, seats) values (10, 6), (11, 6)');
    await db.query(
      `insert into ref_event_seats (event_id, seat_id, category, rank)
       select e, g, case when g < 4 then 'Best' else 'Gold' end, 5 - g from generate_series(0, 5) g, unnest('{10,11}'::int[]) e`,
    );
    baseline = await startBaseline(url);
  });

  after(async () => {
    await baseline?.stop();
    await db?.end();
    await server?.close();
  });

  for (const route of ['register', 'register-steps']) {
    it(`${route}: sells exactly the capacity under concurrent requests, each sale with its mail job; 409 once full`, async () => {
      const event = route === 'register' ? 1 : 2;
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          post(`/events/${event}/${route}`, { name: `P ${i}`, email: `p${i}@example.in` }),
        ),
      );
      const statuses = answers.map((a) => a.status).sort();
      assert.deepEqual(statuses, [201, 201, 201, ...Array(9).fill(409)]);
      assert.ok(answers.filter((a) => a.status === 409).every((a) => a.body.code === 'sold_out'));
      const ids = answers.filter((a) => a.status === 201).map((a) => a.body.data!.id);
      const rows = await db.query('select id::text from ref_registrations where event_id = $1 order by id', [
        event,
      ]);
      assert.deepEqual(rows.rows.map((r) => r.id).sort(), [...ids].sort());
      const jobs = await db.query(
        `select payload->>'registrationId' as id from ref_jobs where payload->>'registrationId' = any($1)`,
        [ids.map(String)],
      );
      assert.equal(jobs.rowCount, 3, 'one mail job per registration, in the same commit');
      assert.equal((await db.query('select taken from ref_events where id = $1', [event])).rows[0].taken, 3);
    });
  }

  it('register: an event without a limit takes every booking', async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        post('/events/3/register', { name: `Q ${i}`, email: `q${i}@example.in` }),
      ),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      [201, 201, 201, 201, 201],
    );
  });

  it('lookup: 200 with the ticket, 404 for another event or an unknown ticket', async () => {
    const ok = await fetch(`${baseline.url}/events/ev_1/check-in?registrationId=reg_a`);
    assert.equal(ok.status, 200);
    const body = (await ok.json()) as { data: Record<string, unknown> };
    assert.equal(body.data.name, 'Asha');
    assert.equal(body.data.status, 'confirmed');
    assert.equal((await fetch(`${baseline.url}/events/ev_2/check-in?registrationId=reg_a`)).status, 404);
    assert.equal((await fetch(`${baseline.url}/events/ev_1/check-in?registrationId=reg_zz`)).status, 404);
  });

  it('admit: of many scans of one ticket at once exactly one admits (201), the rest say already in (200)', async () => {
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => post('/events/ev_1/check-in', { registrationId: 'reg_a' })),
    );
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 201).length, 1, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 200).length, 15, statuses.join(','));
    const admitted = answers.find((a) => a.status === 201)!.body.data!;
    const stored = (await db.query('select checked_in_at from ref_tickets where id = $1', ['reg_a'])).rows[0]
      .checked_in_at as Date;
    assert.equal(
      new Date(admitted.checked_in_at as string).getTime(),
      stored.getTime(),
      'the admit that answered 201 is the one stored',
    );
    const again = await post('/events/ev_1/check-in', { registrationId: 'reg_a' });
    assert.equal(again.status, 200);
    assert.equal(new Date(again.body.data!.checked_in_at as string).getTime(), stored.getTime());
  });

  it('admit: 409 for a ticket that is not confirmed, 404 for an unknown one or another event', async () => {
    const cancelled = await post('/events/ev_1/check-in', { registrationId: 'reg_b' });
    assert.equal(cancelled.status, 409);
    assert.equal(cancelled.body.code, 'not_admissible');
    assert.equal(
      (await db.query('select checked_in_at from ref_tickets where id = $1', ['reg_b'])).rows[0]
        .checked_in_at,
      null,
    );
    assert.equal((await post('/events/ev_1/check-in', { registrationId: 'reg_zz' })).status, 404);
    assert.equal((await post('/events/ev_2/check-in', { registrationId: 'reg_a' })).status, 404);
  });

  const statuses = async (event: number) => {
    const r = await fetch(`${baseline.url}/events/${event}/seats/statuses`);
    return { status: r.status, body: (await r.json()) as { data: { statuses: string; counts: unknown } } };
  };

  it('seat hold: concurrent buyers each get another seat of the category, nearest the stage first; 409 once none is free', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => post('/events/11/seats/hold', { category: 'Best' })),
    );
    const held = answers.filter((a) => a.status === 201);
    assert.equal(held.length, 4, answers.map((a) => a.status).join(','));
    assert.ok(answers.filter((a) => a.status === 409).every((a) => a.body.code === 'seats_unavailable'));
    const seats = held.flatMap((a) => a.body.data!.seats as number[]).sort();
    assert.deepEqual(seats, [0, 1, 2, 3], 'each Best seat once, no Gold seat');
    assert.equal(new Set(held.map((a) => a.body.data!.holdToken)).size, 4);
    assert.equal((await statuses(11)).body.data.statuses, 'hhhhaa');
  });

  it('seat hold then book: the nearest free seat, sold once with its registration and mail job', async () => {
    const hold = await post('/events/10/seats/hold', { category: 'Best' });
    assert.equal(hold.status, 201);
    assert.deepEqual(hold.body.data!.seats, [3], 'the lowest rank first');
    const token = hold.body.data!.holdToken;
    const books = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        post('/events/10/seats/book', { holdToken: token, name: `B ${i}`, email: `b${i}@example.in` }),
      ),
    );
    assert.deepEqual(books.map((b) => b.status).sort(), [201, 409, 409, 409], 'a hold books once');
    const booked = books.find((b) => b.status === 201)!.body.data!;
    assert.deepEqual(booked.seats, [3]);
    const row = await db.query(
      'select status, registration_id::text as reg from ref_event_seats where event_id = 10 and seat_id = 3',
    );
    assert.deepEqual(row.rows[0], { status: 'sold', reg: booked.id });
    const reg = await db.query('select event_id from ref_registrations where id = $1', [booked.id]);
    assert.equal(reg.rows[0].event_id, 10);
    const job = await db.query(`select 1 from ref_jobs where payload->>'registrationId' = $1`, [booked.id]);
    assert.equal(job.rowCount, 1, 'its mail job, in the same commit');
    const s = await statuses(10);
    assert.equal(s.status, 200);
    assert.deepEqual(s.body.data, {
      counts: { available: 5, held: 0, sold: 1, blocked: 0 },
      statuses: 'aaasaa',
    });
    assert.equal((await statuses(99)).status, 404);
  });

  it("the CPU meter counts the baseline's own backends, by pid, and not the driver's", async () => {
    await Promise.all(
      Array.from({ length: 4 }, () =>
        fetch(`${baseline.url}/events/ev_1/check-in?registrationId=reg_a`).then((r) => r.text()),
      ),
    );
    const list = backendsOf(db, baselineBackends);
    const pids = await list();
    assert.ok(pids.length > 0, 'the baseline pool has backends');
    const named = await db.query(`select pid, application_name from pg_stat_activity where pid = any($1)`, [
      pids,
    ]);
    assert.ok(
      named.rows.every((r) => r.application_name === APP.baseline),
      JSON.stringify(named.rows),
    );
    const driver = await db.query('select pg_backend_pid() as pid');
    assert.ok(!pids.includes(driver.rows[0].pid));
    const meter = await cpuMeter(() => [baseline.pid], list);
    for (let i = 0; i < 200; i++)
      await fetch(`${baseline.url}/events/ev_1/check-in?registrationId=reg_a`).then((r) => r.text());
    const used = await meter();
    assert.ok(used.processes > 0, 'the baseline process used CPU');
    assert.ok(used.database >= 0);
  });
});
