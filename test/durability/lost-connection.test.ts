// A database connection lost under a request (a restart, a failover, a terminated backend, a cut
// network) fails that request with 503 `database_unavailable` and Retry-After, writes nothing, and
// leaves the process up and booking. Before, a checked-out connection had no error listener, so
// its socket's error ended the whole process. The backend is terminated while the booking waits on
// a row lock the test holds, so the connection is certainly checked out when it dies.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createEvent, keyApi, type Api } from '../helpers/factories.js';
import { organiser, uniqueEmail } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('a database connection lost under a request', () => {
  let server: TestServer;
  let api: Api;

  before(async () => {
    server = await startServer();
    const org = await organiser(server.url);
    api = keyApi(server.url, org.key);
  });
  after(async () => server.close());

  it('answers 503 with Retry-After, writes nothing, and the process books again', async () => {
    const eventId = await createEvent(api, { capacity: 10 });
    const db = server.deps.db;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    // The event's seat counter, locked: a booking's claim waits on it with its connection checked out.
    const holder = db.transaction().execute(async (trx) => {
      await sql`select 1 from seat_counters where event_id = ${eventId} for update`.execute(trx);
      locked();
      await released;
    });
    await isLocked;
    const booking = api('POST', `/api/v1/events/${eventId}/register`, {
      name: 'Asha',
      email: uniqueEmail('lost'),
    });
    // Wait until the booking's statement is waiting on the lock, then end its backend.
    let pid: number | undefined;
    while (pid === undefined) {
      const r = await sql<{ pid: number }>`select pid from pg_stat_activity
        where wait_event_type = 'Lock' and query like '%seat_counters%' and pid <> pg_backend_pid()`.execute(
        db,
      );
      pid = r.rows[0]?.pid;
      if (pid === undefined) await new Promise((r) => setImmediate(r));
    }
    await sql`select pg_terminate_backend(${pid}::int)`.execute(db);
    const refused = await booking;
    assert.deepEqual([refused.status, refused.body.code], [503, 'database_unavailable'], refused.text);
    assert.equal(refused.headers.get('retry-after'), '2');
    release();
    await holder;
    const list = await api('GET', `/api/v1/events/${eventId}/registrations`);
    assert.equal(list.body.data.length, 0, 'the lost request wrote nothing');
    const again = await api('POST', `/api/v1/events/${eventId}/register`, {
      name: 'Asha',
      email: uniqueEmail('again'),
    });
    assert.equal(again.status, 201, again.text);
  });
});
