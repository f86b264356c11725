// Two uploads of one bank statement at once, one at each of two service instances sharing one
// database (docs/decisions/24-payment-outside-the-gateway.md): each booking is marked paid once —
// one audit entry, one offline sale, one ticket mail — and between them the two summaries mark
// every booking exactly once, the other answer listing it as already paid. The interleaving is
// forced, not hoped for: a transaction of the test's own locks the bookings' rows while both
// uploads come to wait behind it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { embeddedDatabaseUrl } from '../../src/db/embedded.js';
import { organiser, uniqueEmail } from '../helpers/http.js';
import { createEventData, keyApi, type Api } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

const N = 20;

describe('statement uploads across two service instances', () => {
  let a: TestServer;
  let b: TestServer;
  let dbUrl: string;
  let api: Api;
  let key: string;

  before(async () => {
    a = await startServer();
    b = await startServer({ shareDatabaseWith: a });
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
  const count = async (text: string, values: unknown[]) => (await query<{ n: number }>(text, values))[0]!.n;

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

  it('marks each booking once, whichever instance reaches it first', async () => {
    const ev = await createEventData(
      api,
      { price: 750, capacity: N, offlinePayment: { enabled: true, methods: ['bank_transfer'] } },
      { publish: true },
    );
    const ids: string[] = [];
    let csv = 'Date,Narration,Amount\n';
    for (let i = 0; i < N; i++) {
      const r = await api('POST', `/api/v1/events/${ev.id}/register`, {
        name: `Buyer ${i}`,
        email: uniqueEmail(`stmtrace${i}`),
        paymentMethod: 'bank_transfer',
      });
      assert.equal(r.status, 201, r.text);
      ids.push(r.body.registrationId);
      csv += `2026-12-02,NEFT ${r.body.awaitingPayment.reference},750.00\n`;
    }
    const body = { csv, mapping: { date: 'Date', narration: 'Narration', amount: 'Amount' } };
    const hold = await holdRows(ids);
    const uploads = [a, b].map((s) =>
      keyApi(s.url, key)('POST', '/api/v1/offline-payments/statements', body),
    );
    await hold.waiters(2);
    await hold.release();
    const answers = await Promise.all(uploads);
    for (const r of answers) assert.equal(r.status, 200, r.text);
    const [x, y] = answers.map((r) => r.body.data);
    assert.equal(x.marked + y.marked, N, 'between them, each booking marked once');
    for (const s of [x, y]) {
      assert.equal(s.marked + s.listed.length, N);
      assert.ok(
        s.listed.every((l: { reason: string }) => l.reason === 'already_paid'),
        JSON.stringify(s.listed),
      );
    }
    const marked = [...x.markedLines, ...y.markedLines].map(
      (m: { registrationId: string }) => m.registrationId,
    );
    assert.deepEqual(marked.sort(), [...ids].sort());
    assert.equal(
      await count(
        `select count(*)::int as n from audit_log where target_id = any($1) and action = 'registration.mark_paid'`,
        [ids],
      ),
      N,
    );
    assert.equal(
      await count(
        `select count(*)::int as n from ledger_entries where source_id = any($1) and kind = 'offline_sale'`,
        [ids],
      ),
      N,
    );
    assert.equal(
      await count(
        `select count(*)::int as n from jobs where topic = 'ticket.email' and payload->>'attendeeId' = any($1)`,
        [ids],
      ),
      N,
      'one ticket mail each',
    );
  });
});
