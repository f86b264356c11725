// The database going away under a load of bookings and coming back: the embedded server killed
// (SIGKILL of its postmaster, embedded pass only) and every pool backend terminated
// (pg_terminate_backend, both storages). Throughout, the service process stays up and answers
// every request: 201 for a booking it stored, else 503 `database_unavailable` with Retry-After,
// never a 500; it books again once the database is back (the embedded server restarted by the
// service itself), every acknowledged booking is stored, and /metrics counts what happened.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { embeddedDatabaseUrl } from '../../src/db/embedded.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { call, organiser, uniqueEmail } from '../helpers/http.js';
import { startServer, storage, type TestServer } from '../helpers/server.js';

const CALLERS = 8;
/** Bookings acknowledged before the database is taken away: the load is under way. */
const BEFORE = 30;
/** Generous: a restart after a crash runs recovery on a machine busy with other tests. */
const RECOVERY_DEADLINE_MS = 60_000;

interface Outcome {
  acknowledged: string[];
  /** 503 answers after the disruption. */
  refused: number;
  /** Anything but a 201, or a 503 with Retry-After. */
  wrong: string[];
}

/**
 * Books from CALLERS concurrent callers; after BEFORE acknowledgements runs `disrupt` once,
 * then keeps booking until a booking started once `recovered()` holds is acknowledged (or the
 * deadline passes, which fails).
 */
async function bookThrough(
  server: TestServer,
  disrupt: () => Promise<void>,
  recovered: () => boolean,
): Promise<Outcome> {
  const org = await organiser(server.url);
  const eventId = await createEvent(keyApi(server.url, org.key), { capacity: 0 });
  const out: Outcome = { acknowledged: [], refused: 0, wrong: [] };
  let disrupted: Promise<void> | undefined;
  let disruptedDone = false;
  let bookedAgain = false;
  const deadline = Date.now() + RECOVERY_DEADLINE_MS;
  const caller = async () => {
    while (!bookedAgain && Date.now() < deadline) {
      const again = disruptedDone && recovered();
      const r = await call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
        key: org.key,
        body: { name: 'Asha', email: uniqueEmail('restart') },
      });
      if (r.status === 201) {
        out.acknowledged.push(r.body.registrationId as string);
        if (again) bookedAgain = true;
      } else if (
        r.status === 503 &&
        r.body?.code === 'database_unavailable' &&
        r.headers.get('retry-after')
      ) {
        out.refused++;
      } else out.wrong.push(`${r.status} ${r.text.slice(0, 200)}`);
      if (disrupted === undefined && out.acknowledged.length >= BEFORE) {
        disrupted = disrupt().then(() => void (disruptedDone = true));
        await disrupted;
      }
    }
  };
  await Promise.all(Array.from({ length: CALLERS }, caller));
  assert.ok(disruptedDone, 'the database was disrupted mid-load');
  assert.deepEqual(out.wrong, [], 'every answer is a 201 or a 503 with Retry-After');
  assert.ok(bookedAgain, `a booking succeeded again within ${RECOVERY_DEADLINE_MS / 1000} s`);
  await assertStored(server, org.key, eventId, out.acknowledged);
  return out;
}

async function assertStored(server: TestServer, key: string, eventId: string, acknowledged: string[]) {
  const list = await call(server.url, 'GET', `/api/v1/events/${eventId}/registrations?limit=1000`, { key });
  assert.equal(list.status, 200, list.text);
  const stored = new Map((list.body.data as { id: string; status: string }[]).map((r) => [r.id, r.status]));
  const missing = acknowledged.filter((id) => stored.get(id) !== 'confirmed');
  assert.deepEqual(missing, [], `every one of ${acknowledged.length} acknowledged bookings is stored`);
}

async function metric(server: TestServer, line: RegExp): Promise<number> {
  const r = await call(server.url, 'GET', '/metrics');
  assert.equal(r.status, 200, r.text);
  const m = line.exec(r.text);
  assert.ok(m, `/metrics has ${line}`);
  return Number(m[1]);
}

const LOST = /^db_connection_errors_total\{kind="lost"\} (\d+)$/m;
const RESTARTS = /^embedded_database_restarts_total (\d+)$/m;

describe('the database going away under load and coming back', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer({ isolatedDatabase: true });
  });
  after(async () => server.close());

  it('survives every pool backend terminated mid-load', async () => {
    const url = server.deps.config.databaseUrl ?? embeddedDatabaseUrl(server.dataDir);
    const terminate = async () => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        const r = await admin.query(`select pg_terminate_backend(pid) as ended from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`);
        assert.ok(r.rows.length > 0, 'the pool had backends to end');
      } finally {
        await admin.end();
      }
    };
    const lostBefore = await metric(server, LOST);
    await bookThrough(server, terminate, () => true);
    assert.ok((await metric(server, LOST)) > lostBefore, 'the lost connections are counted');
    assert.equal((await call(server.url, 'GET', '/readyz')).status, 200);
  });

  it('restarts the embedded server after a SIGKILL mid-load', {
    skip:
      storage === 'postgres'
        ? 'about the embedded server (the PostgreSQL pass uses one the service does not run)'
        : false,
  }, async () => {
    const pidFile = join(server.dataDir, 'db', 'postmaster.pid');
    const postmaster = () => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : 0);
    const killed = postmaster();
    const restartsBefore = await metric(server, RESTARTS);
    const { refused } = await bookThrough(
      server,
      async () => void process.kill(killed, 'SIGKILL'),
      // A server of a new pid has written its lock file: a booking started now needs it.
      () => postmaster() !== killed && postmaster() !== 0,
    );
    assert.ok(refused > 0, 'bookings were refused while the server was down');
    assert.ok((await metric(server, RESTARTS)) > restartsBefore, 'the restart is counted');
    assert.notEqual(postmaster(), killed, 'a new server runs');
    assert.equal((await call(server.url, 'GET', '/readyz')).status, 200);
  });
});
