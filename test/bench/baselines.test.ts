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
