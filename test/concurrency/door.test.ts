// The door across two service processes on one database (docs/decisions/15-the-door.md, speed): each
// answers lookups from its own in-memory roster, kept current by LISTEN/NOTIFY and a version
// counter, and admits through the database in groups. On the embedded pass the first process
// runs the embedded server and the second reaches it through its socket; on the PostgreSQL
// pass both use TEST_DATABASE_URL. Nothing here waits on a clock: each wait polls what an
// instance answers, a bounded number of times.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { embeddedDatabaseUrl } from '../../src/db/embedded.js';
import { call, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi, payInSandbox } from '../helpers/factories.js';
import { startProcess, type ServiceProcess } from '../helpers/process.js';
import { RAISED_LIMITS } from '../helpers/limits.js';

const onPostgres = process.env.TEST_DB === 'postgres';

describe('the door across two service processes', () => {
  const procs: ServiceProcess[] = [];
  const dirs: string[] = [];
  let admin: pg.Client;
  let org: Account & KeyInfo;
  let A: ServiceProcess;
  let B: ServiceProcess;

  before(async () => {
    // The version check runs often here, so a test that needs it does not wait long.
    const shared = {
      SESSION_SECRET: 'concurrency-test-session-secret-0123456789',
      SECRETS_KEY: 'concurrency-test-secrets-key-0123456789abcd',
      ...RAISED_LIMITS,
      EMAIL_DNS_CHECK: 'false',
      WORKERS: 'false',
      DOOR_ROSTER_CHECK_MS: '100',
    };
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'svc-door-'));
      dirs.push(dir);
      const databaseUrl = onPostgres
        ? process.env.TEST_DATABASE_URL
        : i === 0
          ? undefined
          : embeddedDatabaseUrl(dirs[0]!);
      if (onPostgres && !databaseUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
      procs.push(
        await startProcess({
          ...shared,
          DATA_DIR: dir,
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        }),
      );
    }
    [A, B] = procs as [ServiceProcess, ServiceProcess];
    admin = new pg.Client({
      connectionString: onPostgres ? process.env.TEST_DATABASE_URL : embeddedDatabaseUrl(dirs[0]!),
    });
    await admin.connect();
    org = await organiser(A.url);
  });
  after(async () => {
    await admin?.end();
    B?.child.kill('SIGCONT');
    // The process that runs the embedded server stops last.
    for (const p of [...procs].reverse()) await p.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const apiAt = (p: ServiceProcess) => keyApi(p.url, org.key);
  const apiA = keyApi(
    () => A.url,
    () => org.key,
  );
  const lookup = (p: ServiceProcess, ev: string, id: string) =>
    apiAt(p)('GET', `/api/v1/events/${ev}/check-in?registrationId=${id}`);
  const admit = (p: ServiceProcess, ev: string, id: string, extra: Record<string, unknown> = {}) =>
    apiAt(p)('POST', `/api/v1/events/${ev}/check-in`, { registrationId: id, ...extra });

  /** A counter of the instance's /metrics (0 when it has not been counted yet). */
  async function metric(p: ServiceProcess, name: string, labels = ''): Promise<number> {
    const text = (await call(p.url, 'GET', '/metrics')).text;
    const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
    return line ? Number(line.split(' ')[1]) : 0;
  }
  const fromRoster = (p: ServiceProcess) => metric(p, 'door_lookups_total', '{from="roster"}');

  /** Asks until `done` holds of the answer, a bounded number of times. */
  async function until<T>(
    what: string,
    ask: () => Promise<T>,
    done: (v: T) => boolean,
    attempts = 300,
  ): Promise<T> {
    let last: T | undefined;
    for (let i = 0; i < attempts; i++) {
      last = await ask();
      if (done(last)) return last;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`${what}: not reached after ${attempts} attempts; last answer ${JSON.stringify(last)}`);
  }

  /** A lookup at `p` answered from its roster (the first lookups build it, from the database). */
  async function fromItsRoster(
    p: ServiceProcess,
    ev: string,
    id: string,
    done: (r: any) => boolean = () => true,
  ) {
    return until(
      `a lookup of ${id} from the roster`,
      async () => {
        const before = await fromRoster(p);
        const r = await lookup(p, ev, id);
        return { r, roster: (await fromRoster(p)) === before + 1 };
      },
      (x) => x.r.status === 200 && x.roster && done(x.r),
    ).then((x) => x.r);
  }

  const newEvent = (fields: Record<string, unknown> = {}) =>
    createEvent(apiA, { title: 'Two doors', startDate: '2026-12-31', ...fields });
  async function book(ev: string, paid = false): Promise<string> {
    const s1 = await apiA('POST', `/api/v1/events/${ev}/register`, {
      name: 'Door Guest',
      email: uniqueEmail('door'),
    });
    assert.equal(s1.status, 201, s1.text);
    if (paid) {
      const paymentId = await payInSandbox(apiA, s1.body.orderId);
      const s2 = await apiA('POST', `/api/v1/events/${ev}/register`, {
        registrationId: s1.body.registrationId,
        orderId: s1.body.orderId,
        paymentId,
      });
      assert.ok(s2.status < 300, s2.text);
    }
    return s1.body.registrationId;
  }

  it('admits a ticket scanned at both instances at once exactly once', async () => {
    const ev = await newEvent();
    const tickets = await Promise.all(Array.from({ length: 30 }, () => book(ev)));
    await fromItsRoster(A, ev, tickets[0]!);
    await fromItsRoster(B, ev, tickets[0]!);
    // Every ticket four times at once, twice at each instance: 120 admits racing.
    const answers = await Promise.all(
      tickets.flatMap((t) => [A, B, A, B].map(async (p) => ({ t, r: await admit(p, ev, t) }))),
    );
    for (const t of tickets) {
      const mine = answers.filter((a) => a.t === t).map((a) => a.r);
      assert.deepEqual(
        mine.map((r) => r.status).sort(),
        [200, 200, 200, 201],
        `${t}: ${mine.map((r) => r.text).join(' | ')}`,
      );
      assert.equal(mine.filter((r) => r.body.changed).length, 1);
      assert.ok(mine.every((r) => r.body.data.checkedIn));
      const log = await admin.query(`select action from checkin_log where attendee_id = $1`, [t]);
      assert.deepEqual(log.rows, [{ action: 'admit' }], `${t} is admitted once`);
    }
    // Both rosters come to show every ticket in.
    for (const p of [A, B])
      await until(
        'every ticket in',
        () => lookup(p, ev, tickets[29]!),
        (r) => r.body.data.checkedIn === true,
      );
  });

  it('an instance takes its own admits into its roster as it answers them, without reading the roster again', async () => {
    const ev = await newEvent();
    const tickets = await Promise.all(Array.from({ length: 40 }, () => book(ev)));
    await fromItsRoster(A, ev, tickets[0]!);
    const reads = async () =>
      (await metric(A, 'door_roster_refreshes_total', '{cause="change"}')) +
      (await metric(A, 'door_roster_refreshes_total', '{cause="version"}'));
    const before = await reads();
    // Forty admits at once: several statements, each heard back as a notification too.
    const answers = await Promise.all(tickets.map((t) => admit(A, ev, t)));
    assert.deepEqual(
      answers.map((r) => r.status),
      tickets.map(() => 201),
    );
    for (const t of tickets) {
      const counted = await fromRoster(A);
      const r = await lookup(A, ev, t);
      assert.deepEqual(
        [r.body.data.checkedIn, await fromRoster(A)],
        [true, counted + 1],
        `${t} in, from the roster`,
      );
    }
    assert.equal(await reads(), before, 'no roster read for the instance’s own admits');
  });

  it('undo wins over the admit it undoes, on the other instance', async () => {
    const ev = await newEvent();
    const tickets = await Promise.all(Array.from({ length: 8 }, () => book(ev)));
    await fromItsRoster(A, ev, tickets[0]!);
    await fromItsRoster(B, ev, tickets[0]!);
    for (const t of tickets) {
      assert.equal((await admit(A, ev, t)).status, 201);
      // B may not have heard of the admit yet: the undo is decided by the database.
      const undo = await admit(B, ev, t, { undo: true });
      assert.deepEqual(
        [undo.status, undo.body.changed, undo.body.data.checkedIn],
        [201, true, false],
        undo.text,
      );
      // The instance that undid it answers so at once; the other once it has heard.
      assert.equal((await lookup(B, ev, t)).body.data.checkedIn, false);
      await until(
        'A hears of the undo',
        () => lookup(A, ev, t),
        (r) => r.body.data.checkedIn === false,
      );
    }
    const rows = await admin.query(
      `select a.checked_in_at, array_agg(l.action order by l.id) as log from attendees a join checkin_log l on l.attendee_id = a.id where a.id = any($1) group by a.id, a.checked_in_at`,
      [tickets],
    );
    assert.equal(rows.rows.length, tickets.length);
    for (const r of rows.rows) assert.deepEqual([r.checked_in_at, r.log], [null, ['admit', 'undo']]);
    // And the ticket can be admitted again, once.
    const again = await Promise.all([admit(A, ev, tickets[0]!), admit(B, ev, tickets[0]!)]);
    assert.deepEqual(again.map((r) => r.status).sort(), [200, 201]);
  });

  it('a refund through the API at one instance is refused at the other’s next scan, by the notification', async () => {
    const ev = await newEvent({ price: 250 });
    const t = await book(ev, true);
    const shown = await fromItsRoster(B, ev, t);
    assert.equal(shown.body.data.admissible, true);
    await fromItsRoster(A, ev, t);
    const missedAtA = await metric(A, 'door_roster_refreshes_total', '{cause="version"}');
    const [changes, missed, connects] = [
      await metric(B, 'door_roster_refreshes_total', '{cause="change"}'),
      await metric(B, 'door_roster_refreshes_total', '{cause="version"}'),
      await metric(B, 'door_listener_connects_total'),
    ];

    assert.equal((await apiA('POST', `/api/v1/events/${ev}/registrations/${t}/refund`)).status, 200);
    // The instance that refunded knew before it answered (its commit's NOTICE): no stale answer there.
    assert.equal((await lookup(A, ev, t)).body.data.refusalReason, 'refunded');
    assert.equal(
      await metric(A, 'door_roster_refreshes_total', '{cause="version"}'),
      missedAtA,
      'A never had to find its own change by the version check',
    );
    const scan = await admit(B, ev, t);
    assert.deepEqual([scan.status, scan.body.refusalReason], [409, 'refunded'], scan.text);
    const look = await fromItsRoster(B, ev, t, (r) => r.body.data.refusalReason === 'refunded');
    assert.equal(look.body.data.admissible, false);
    // B's roster read the change because it was told, not because a check found it behind.
    assert.ok((await metric(B, 'door_roster_refreshes_total', '{cause="change"}')) > changes);
    assert.equal(await metric(B, 'door_roster_refreshes_total', '{cause="version"}'), missed);
    assert.equal(await metric(B, 'door_listener_connects_total'), connects, 'no reconnect');
    // Refused from the roster now, without the database.
    const before = await fromRoster(B);
    assert.equal((await admit(B, ev, t)).status, 409);
    assert.equal(await fromRoster(B), before + 1);
  });

  it('a notification missed while the LISTEN connection is down is found by the version counter', async () => {
    const ev = await newEvent({ price: 250 });
    const t = await book(ev, true);
    await fromItsRoster(B, ev, t);
    const [missed, connects] = [
      await metric(B, 'door_roster_refreshes_total', '{cause="version"}'),
      await metric(B, 'door_listener_connects_total'),
    ];
    // B is held still while its LISTEN connection is ended and the refund commits: it cannot
    // hear the notification, nor reconnect before it is sent.
    B.child.kill('SIGSTOP');
    try {
      const ended = await admin.query(
        `select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = $1`,
        [`door listener (pid ${B.child.pid})`],
      );
      assert.deepEqual(ended.rows, [{ ok: true }]);
      assert.equal((await apiA('POST', `/api/v1/events/${ev}/registrations/${t}/refund`)).status, 200);
    } finally {
      B.child.kill('SIGCONT');
    }
    await fromItsRoster(B, ev, t, (r) => r.body.data.refusalReason === 'refunded');
    assert.ok((await metric(B, 'door_listener_connects_total')) > connects, 'reconnected');
    assert.ok(
      (await metric(B, 'door_roster_refreshes_total', '{cause="version"}')) > missed,
      'rebuilt because its version was behind',
    );
  });

  it('a notification lost on a live connection is found by the periodic version check', async () => {
    const ev = await newEvent();
    const t = await book(ev);
    await fromItsRoster(B, ev, t);
    const [missed, connects] = [
      await metric(B, 'door_roster_refreshes_total', '{cause="version"}'),
      await metric(B, 'door_listener_connects_total'),
    ];
    // A change whose notification never comes: written with the triggers off, the version
    // raised by hand.
    await admin.query('begin');
    await admin.query(`set local session_replication_role = replica`);
    await admin.query(
      `update attendees set checked_in_at = now(), checked_in_by = 'dashboard' where id = $1`,
      [t],
    );
    await admin.query(
      `insert into door_versions (event_id, version) values ($1, 1) on conflict (event_id) do update set version = door_versions.version + 1`,
      [ev],
    );
    await admin.query('commit');
    const seen = await fromItsRoster(B, ev, t, (r) => r.body.data.checkedIn === true);
    assert.equal(seen.body.data.members[0].checkedInAt !== null, true);
    assert.ok((await metric(B, 'door_roster_refreshes_total', '{cause="version"}')) > missed);
    assert.equal(await metric(B, 'door_listener_connects_total'), connects, 'no reconnect');
  });

  it('an event is announced only once some instance holds its roster: a ticket drop before the door opens pays nothing', async () => {
    const quiet = await newEvent();
    const open = await newEvent();
    await fromItsRoster(B, open, await book(open));
    const heard: string[] = [];
    const listener = new pg.Client({
      connectionString: onPostgres ? process.env.TEST_DATABASE_URL : embeddedDatabaseUrl(dirs[0]!),
    });
    await listener.connect();
    try {
      // Other test files may share the database: only these two events count.
      listener.on('notification', (m) => {
        const ev = m.payload!.split(' ')[0]!;
        if (ev === quiet || ev === open) heard.push(ev);
      });
      await listener.query('listen door');
      await book(quiet);
      await book(open);
      // Notifications arrive in commit order: had the first booking been announced, it would be first.
      await until(
        'the open event’s notification',
        async () => heard.slice(),
        (h) => h.includes(open),
      );
      assert.deepEqual(heard, [open]);
      const versions = await admin.query(
        `select event_id, version > 0 as bumped, watched from door_versions where event_id = any($1) order by watched`,
        [[quiet, open]],
      );
      assert.deepEqual(
        versions.rows,
        [
          { event_id: quiet, bumped: true, watched: false },
          { event_id: open, bumped: true, watched: true },
        ],
        'the version counts every change either way',
      );
    } finally {
      await listener.end();
    }
  });

  it('an event deleted at one instance is gone from the other’s roster', async () => {
    const ev = await newEvent();
    const t = await book(ev);
    await fromItsRoster(B, ev, t);
    const del = await call(A.url, 'DELETE', `/api/v1/events/${ev}`, { token: org.token });
    assert.equal(del.status, 200, del.text);
    await until(
      'B forgets the event',
      () => lookup(B, ev, t),
      (r) => r.status === 404,
    );
  });
});
