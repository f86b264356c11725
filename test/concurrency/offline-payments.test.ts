// Payment outside the gateway across two connection pools on one database (two service instances'
// pools, as two processes would have them; docs/decisions/24-payment-outside-the-gateway.md): the
// reminder a day before payBy and the cancellation at payBy each happen once when both instances'
// jobs and sweeps reach the same booking at the same moment, and two marks of one booking as paid,
// one at each instance, confirm it once (one audit entry, one ledger sale, one invoice's worth of
// effects) and both answer it confirmed; a mark racing the lapse at payBy: exactly one wins. The interleaving is forced, not hoped
// for: a transaction of the test's own locks the booking's row while both wait behind it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { embeddedDatabaseUrl } from '../../src/db/embedded.js';
import { ManualClock } from '../../src/lib/clock.js';
import {
  lapseIfDue,
  remindIfDue,
  sweepOfflineDeadlines,
} from '../../src/modules/registrations/offline-deadlines.js';
import { organiser, uniqueEmail } from '../helpers/http.js';
import { createEventData, keyApi, type Api } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

const DAY = 86_400_000;

describe('offline payments across two connection pools', () => {
  let a: TestServer;
  let b: TestServer;
  let dbUrl: string;
  let api: Api;
  let key: string;
  const clock = new ManualClock(new Date());

  before(async () => {
    // Its sweeps walk every due booking: a database of its own on PostgreSQL.
    a = await startServer({ clock, isolatedDatabase: true });
    b = await startServer({ clock, shareDatabaseWith: a });
    dbUrl = a.deps.config.databaseUrl ?? embeddedDatabaseUrl(a.dataDir);
    const org = await organiser(a.url, 'test');
    key = org.key;
    api = keyApi(a.url, org.key);
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
    const c = new pg.Client({ connectionString: dbUrl });
    await c.connect();
    try {
      return (await c.query<T>(text, values)).rows;
    } finally {
      await c.end();
    }
  }

  /** Locks the bookings' rows in a transaction of its own; `waiters(n)` resolves once n sessions wait on it. */
  async function holdRows(ids: string[]) {
    const c = new pg.Client({ connectionString: dbUrl });
    await c.connect();
    await c.query('begin');
    await c.query('select id from registrations where id = any($1) for update', [ids]);
    const pid = (await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const blocked = `with recursive w(pid) as (
        select pid from pg_stat_activity where $1::int = any(pg_blocking_pids(pid))
        union select s.pid from pg_stat_activity s join w on w.pid = any(pg_blocking_pids(s.pid))
      ) select count(*)::int as n from w`;
    return {
      async waiters(n: number) {
        // A condition, not a race: each poll asks the database who waits.
        for (let i = 0; i < 3000; i++) {
          const [row] = await query<{ n: number }>(blocked, [pid]);
          if (row!.n >= n) return;
          await new Promise((r) => setTimeout(r, 10));
        }
        throw new Error(`fewer than ${n} sessions came to wait on the bookings`);
      },
      async release() {
        await c.query('commit');
        await c.end();
      },
    };
  }

  async function offlineBookings(n: number): Promise<{ eventId: string; ids: string[] }> {
    const ev = await createEventData(
      api,
      {
        price: 300,
        capacity: n,
        waitlist: { enabled: true },
        offlinePayment: { enabled: true, methods: ['bank_transfer'], payWithinDays: 3 },
      },
      { publish: true },
    );
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const r = await api('POST', `/api/v1/events/${ev.id}/register`, {
        name: `Buyer ${i}`,
        email: uniqueEmail(`race${i}`),
        paymentMethod: 'bank_transfer',
      });
      assert.equal(r.status, 201, r.text);
      ids.push(r.body.registrationId);
    }
    return { eventId: ev.id, ids };
  }

  const count = async (sqlText: string, values: unknown[]) =>
    (await query<{ n: number }>(sqlText, values))[0]!.n;
  const jobsFor = (ids: string[], topic: string, kind?: string) =>
    count(
      `select count(*)::int as n from jobs where topic = $1 and payload->>'registrationId' = any($2)
        and ($3::text is null or payload->>'kind' = $3)`,
      [topic, ids, kind ?? null],
    );

  it('reminds once and cancels once when both instances reach one booking together', async () => {
    const { eventId, ids } = await offlineBookings(1);
    const id = ids[0]!;
    clock.advance(2 * DAY + 60_000);
    let hold = await holdRows([id]);
    const reminders = [remindIfDue(a.deps, id), remindIfDue(b.deps, id)];
    await hold.waiters(2);
    await hold.release();
    assert.deepEqual((await Promise.all(reminders)).sort(), [false, true]);
    assert.equal(await jobsFor(ids, 'offline.payment_due_mail', 'reminder'), 1);

    clock.advance(DAY);
    hold = await holdRows([id]);
    const lapses = [lapseIfDue(a.deps, id), lapseIfDue(b.deps, id)];
    await hold.waiters(2);
    await hold.release();
    assert.deepEqual((await Promise.all(lapses)).sort(), [false, true]);
    const [reg] = await query<{ status: string }>('select status from registrations where id = $1', [id]);
    assert.equal(reg!.status, 'cancelled');
    assert.equal(
      await count(
        `select count(*)::int as n from audit_log where target_id = $1 and action = 'registration.lapse_unpaid'`,
        [id],
      ),
      1,
    );
    const [seat] = await query<{ taken: number }>(
      `select taken from seat_counters where event_id = $1 and scope = 'event'`,
      [eventId],
    );
    assert.equal(seat!.taken, 0, 'its seat freed once');
  });

  it('two sweeps over many due bookings cancel each once and free each seat once, offered to the waitlist', async () => {
    const { eventId, ids } = await offlineBookings(8);
    for (let i = 0; i < 8; i++) {
      const w = await api('POST', `/api/v1/events/${eventId}/waitlist`, {
        name: `W${i}`,
        email: uniqueEmail(`w${i}`),
      });
      assert.equal(w.status, 201, w.text);
    }
    clock.advance(3 * DAY + 60_000);
    const hold = await holdRows(ids);
    const sweeps = [sweepOfflineDeadlines(a.deps), sweepOfflineDeadlines(b.deps)];
    await hold.waiters(2);
    await hold.release();
    const done = await Promise.all(sweeps);
    assert.equal(done[0]!.lapsed + done[1]!.lapsed, 8, JSON.stringify(done));
    assert.equal(
      await count(
        `select count(*)::int as n from registrations where id = any($1) and status = 'cancelled'`,
        [ids],
      ),
      8,
    );
    assert.equal(
      await count(
        `select count(*)::int as n from audit_log where target_id = any($1) and action = 'registration.lapse_unpaid'`,
        [ids],
      ),
      8,
    );
    assert.equal(await jobsFor(ids, 'booking.mail'), 8, 'one cancellation mail each');
    const offered = await count(
      `select count(*)::int as n from waitlist_entries where event_id = $1 and status = 'offered'`,
      [eventId],
    );
    assert.equal(offered, 8, 'each freed seat offered once');
    const [seat] = await query<{ taken: number }>(
      `select taken from seat_counters where event_id = $1 and scope = 'event'`,
      [eventId],
    );
    assert.equal(seat!.taken, 8, 'the seats are held for the offers, never counted twice');
  });

  it('two marks at once, one at each instance, confirm once and both answer it confirmed', async () => {
    const { eventId, ids } = await offlineBookings(1);
    const id = ids[0]!;
    const hold = await holdRows([id]);
    const body = { method: 'bank_transfer', amountPaid: 300 };
    const path = `/api/v1/events/${eventId}/registrations/${id}/mark-paid`;
    const marks = [a, b].map((s) => keyApi(s.url, key)('POST', path, body));
    await hold.waiters(2);
    await hold.release();
    const answers = await Promise.all(marks);
    for (const r of answers) {
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.data.status, 'confirmed');
    }
    assert.equal(
      await count(
        `select count(*)::int as n from audit_log where target_id = $1 and action = 'registration.mark_paid'`,
        [id],
      ),
      1,
    );
    assert.equal(
      await count(
        `select count(*)::int as n from ledger_entries where source_id = $1 and kind = 'offline_sale'`,
        [id],
      ),
      1,
    );
    assert.equal(
      await count(
        `select count(*)::int as n from jobs where topic = 'ticket.email' and payload->>'attendeeId' = $1`,
        [id],
      ),
      1,
      'one ticket mail',
    );
  });

  it('a mark racing the lapse at payBy: exactly one of them moves the booking', async () => {
    const { eventId, ids } = await offlineBookings(1);
    const id = ids[0]!;
    clock.advance(3 * DAY + 60_000);
    const hold = await holdRows([id]);
    const mark = keyApi(a.url, key)('POST', `/api/v1/events/${eventId}/registrations/${id}/mark-paid`, {
      method: 'bank_transfer',
      amountPaid: 300,
    });
    const lapse = lapseIfDue(b.deps, id);
    await hold.waiters(2);
    await hold.release();
    const [m, l] = await Promise.all([mark, lapse]);
    const [reg] = await query<{ status: string }>('select status from registrations where id = $1', [id]);
    if (reg!.status === 'confirmed') {
      assert.equal(m.status, 200, m.text);
      assert.equal(l, false);
    } else {
      assert.equal(reg!.status, 'cancelled');
      assert.equal(m.status, 409, m.text);
      assert.equal(l, true);
    }
    const moves = await count(
      `select count(*)::int as n from audit_log where target_id = $1 and action in ('registration.mark_paid', 'registration.lapse_unpaid')`,
      [id],
    );
    assert.equal(moves, 1);
  });
});
