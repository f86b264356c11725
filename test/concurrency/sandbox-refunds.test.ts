// The sandbox gateway's refunds, from two connection pools on one database (two service
// instances' pools, as two processes would have them): the money refunded never exceeds what
// was captured however the refunds interleave, and X-Refund-Idempotency's rules hold (the same
// key and body → the same refund; another body → 400; a duplicate sent while the first is in
// flight waits for it and answers the same refund). The interleaving is forced, not hoped for: a
// transaction of the test's own locks the payment row while the refunds pile up behind it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { embeddedDatabaseUrl } from '../../src/db/embedded.js';
import { GatewayError } from '../../src/modules/payments/gateway.js';
import { SandboxGateway } from '../../src/modules/sandbox/sandbox-gateway.js';
import { seededRandom } from '../helpers/prng.js';
import { startServer, type TestServer } from '../helpers/server.js';

const CAPTURE = 50000; // ₹500

describe('sandbox refunds across two connection pools', () => {
  let a: TestServer;
  let b: TestServer;
  let dbUrl: string;
  let accountId: string;
  /** The sandbox gateway of one account, on instance a's pool and on instance b's. */
  let gws: [SandboxGateway, SandboxGateway];

  before(async () => {
    a = await startServer();
    b = await startServer({ shareDatabaseWith: a });
    dbUrl = a.deps.config.databaseUrl ?? embeddedDatabaseUrl(a.dataDir);
    accountId = `acct_${a.deps.ids.secret(9)}`;
    gws = [
      new SandboxGateway({ db: a.deps.db, clock: a.clock, ids: a.deps.ids }, accountId),
      new SandboxGateway({ db: b.deps.db, clock: b.clock, ids: b.deps.ids }, accountId),
    ];
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  /** A captured payment of `amount` paise, paid through the sandbox's checkout. */
  async function capturedPayment(amount = CAPTURE, gw = gws[0]): Promise<string> {
    const order = await gw.createOrder({ amount, currency: 'INR', receipt: `r_${a.deps.ids.secret(6)}` });
    const payment = await gw.pay(order.id, 'success');
    assert.equal(payment?.status, 'captured');
    return payment!.id;
  }

  async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
    const c = new pg.Client({ connectionString: dbUrl });
    await c.connect();
    try {
      return (await c.query<T>(text, values)).rows;
    } finally {
      await c.end();
    }
  }

  /**
   * Locks the payment's row in a transaction of its own: refunds started now wait behind it.
   * `waiters(n)` resolves once n sessions wait, directly or behind one another, on that lock;
   * `release()` commits and lets them go all at once.
   */
  async function holdPayment(paymentId: string) {
    const c = new pg.Client({ connectionString: dbUrl });
    await c.connect();
    await c.query('begin');
    await c.query('select id from sandbox_payments where id = $1 for update', [paymentId]);
    const pid = (await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const blocked = `with recursive w(pid) as (
        select pid from pg_stat_activity where $1::int = any(pg_blocking_pids(pid))
        union select s.pid from pg_stat_activity s join w on w.pid = any(pg_blocking_pids(s.pid))
      ) select count(*)::int as n from w`;
    return {
      async waiters(n: number) {
        // Waits for the refunds to reach the lock (a condition, not a race): each poll asks the database.
        for (let i = 0; i < 3000; i++) {
          const [row] = await query<{ n: number }>(blocked, [pid]);
          if (row!.n >= n) return;
          await new Promise((r) => setTimeout(r, 10));
        }
        throw new Error(`fewer than ${n} refunds came to wait on the payment`);
      },
      async release() {
        await c.query('commit');
        await c.end();
      },
    };
  }

  const rejected = (e: unknown) => e instanceof GatewayError && e.kind === 'rejected' && e.status === 400;

  it('refunds at most the capture when refunds summing to more interleave across two pools', async () => {
    const paymentId = await capturedPayment();
    const hold = await holdPayment(paymentId);
    // Eight refunds of ₹100 of a ₹500 payment, four through each pool, all let go at once.
    // Their outcomes are taken at once: a refund refused while the hold's connection is still
    // closing would otherwise be a rejection nobody handles yet, which fails the test run.
    const outcomes = Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => gws[i % 2]!.refundPayment(paymentId, 10000)),
    );
    await hold.waiters(8);
    await hold.release();
    const settled = await outcomes;
    const made = settled.filter((s) => s.status === 'fulfilled').map((s) => s.value);
    const refused = settled.filter((s) => s.status === 'rejected').map((s) => s.reason as unknown);
    const payment = await gws[0].fetchPayment(paymentId);
    assert.ok(
      payment!.amountRefunded <= CAPTURE,
      `refunded ${payment!.amountRefunded} of a ${CAPTURE} capture`,
    );
    assert.deepEqual([made.length, refused.length], [5, 3]);
    assert.ok(refused.every(rejected), String(refused.find((e) => !rejected(e))));
    assert.equal(new Set(made.map((r) => r.id)).size, 5, 'five refunds, each its own');
    assert.deepEqual([payment!.amountRefunded, payment!.status], [CAPTURE, 'refunded']);
  });

  it('refunds what the refund before it left when a full refund waits behind a partial one', async () => {
    const paymentId = await capturedPayment();
    const hold = await holdPayment(paymentId);
    const part = gws[0].refundPayment(paymentId, 10000);
    await hold.waiters(1);
    const rest = gws[1].refundPayment(paymentId);
    await hold.waiters(2);
    await hold.release();
    assert.deepEqual([(await part).amount, (await rest).amount], [10000, CAPTURE - 10000]);
    assert.deepEqual(
      [
        (await gws[1].fetchPayment(paymentId))!.amountRefunded,
        (await gws[1].fetchPayment(paymentId))!.status,
      ],
      [CAPTURE, 'refunded'],
    );
    await assert.rejects(
      gws[0].refundPayment(paymentId),
      (e: unknown) => rejected(e) && /fully refunded already/.test((e as Error).message),
    );
  });

  it('never refunds more than the capture in a free-running race of uneven refunds', async () => {
    const random = seededRandom(20);
    const paymentId = await capturedPayment();
    const amounts = Array.from({ length: 24 }, () => 100 * (20 + Math.floor(random() * 80)));
    const settled = await Promise.allSettled(
      amounts.map((amount, i) => gws[i % 2]!.refundPayment(paymentId, amount)),
    );
    const made = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value.amount] : []));
    assert.ok(settled.every((s) => s.status === 'fulfilled' || rejected(s.reason)));
    const payment = await gws[1].fetchPayment(paymentId);
    assert.ok(payment!.amountRefunded <= CAPTURE);
    assert.equal(
      made.reduce((x, y) => x + y, 0),
      payment!.amountRefunded,
      'what the refunds answered is what the payment shows refunded',
    );
  });

  it('refuses a refund of a payment not captured, of an unknown payment and of another account’s payment', async () => {
    const order = await gws[0].createOrder({ amount: CAPTURE, currency: 'INR', receipt: 'failed' });
    const failed = await gws[0].pay(order.id, 'failure');
    await assert.rejects(gws[0].refundPayment(failed!.id, 100), rejected);
    await assert.rejects(gws[0].refundPayment('pay_AAAAAAAAAAAAAA'), rejected);
    const other = new SandboxGateway(
      { db: b.deps.db, clock: b.clock, ids: b.deps.ids },
      `acct_${a.deps.ids.secret(9)}`,
    );
    const paymentId = await capturedPayment();
    await assert.rejects(other.refundPayment(paymentId, 100), rejected);
    await assert.rejects(gws[0].refundPayment(paymentId, 0), rejected);
    await assert.rejects(gws[0].refundPayment(paymentId, CAPTURE + 1), rejected);
    assert.equal((await gws[0].fetchPayment(paymentId))!.amountRefunded, 0);
    // The database itself refuses a refunded total past the capture, however it is written.
    await assert.rejects(
      query('update sandbox_payments set amount_refunded = amount + 1 where id = $1', [paymentId]),
      (e: unknown) => (e as { code?: string }).code === '23514',
    );
  });

  describe('X-Refund-Idempotency', () => {
    const refundRows = async (paymentId: string) =>
      (
        await query<{ n: number }>('select count(*)::int as n from sandbox_refunds where payment_id = $1', [
          paymentId,
        ])
      )[0]!.n;

    it('answers the same refund for the same key and body, from either pool, and refunds once', async () => {
      const paymentId = await capturedPayment();
      const first = await gws[0].refundPayment(
        paymentId,
        20000,
        { registrationId: 'reg_1' },
        'cancel_reg_1_a',
      );
      const again = await gws[1].refundPayment(
        paymentId,
        20000,
        { registrationId: 'reg_1' },
        'cancel_reg_1_a',
      );
      assert.deepEqual(again, first);
      assert.equal((await gws[0].fetchPayment(paymentId))!.amountRefunded, 20000);
      assert.equal(await refundRows(paymentId), 1);
      // Another key is another refund; a full refund under a key replays even once nothing is left.
      const rest = await gws[1].refundPayment(paymentId, undefined, undefined, 'rest_of_pay_1');
      assert.equal(rest.amount, CAPTURE - 20000);
      assert.deepEqual(await gws[0].refundPayment(paymentId, undefined, undefined, 'rest_of_pay_1'), rest);
      assert.deepEqual(
        await gws[1].refundPayment(paymentId, 20000, { registrationId: 'reg_1' }, 'cancel_reg_1_a'),
        first,
      );
      assert.equal((await gws[0].fetchPayment(paymentId))!.amountRefunded, CAPTURE);
      assert.equal(await refundRows(paymentId), 2);
    });

    it('refuses the same key with another amount or other notes (400) and refunds nothing more', async () => {
      const paymentId = await capturedPayment();
      await gws[0].refundPayment(paymentId, 10000, { reason: 'fee' }, 'fee_policy_key_1');
      const mismatch = (e: unknown) =>
        rejected(e) &&
        (e as GatewayError).message ===
          'Different request with the same idempotency key has already been processed.';
      await assert.rejects(
        gws[1].refundPayment(paymentId, 12000, { reason: 'fee' }, 'fee_policy_key_1'),
        mismatch,
      );
      await assert.rejects(
        gws[1].refundPayment(paymentId, 10000, { reason: 'other' }, 'fee_policy_key_1'),
        mismatch,
      );
      await assert.rejects(gws[0].refundPayment(paymentId, 10000, undefined, 'fee_policy_key_1'), mismatch);
      await assert.rejects(
        gws[0].refundPayment(paymentId, undefined, { reason: 'fee' }, 'fee_policy_key_1'),
        mismatch,
      );
      // The same notes in another key order are the same body.
      await gws[0].refundPayment(paymentId, 5000, { a: '1', b: '2' }, 'ordered_notes_key');
      await gws[1].refundPayment(paymentId, 5000, { b: '2', a: '1' }, 'ordered_notes_key');
      assert.equal((await gws[0].fetchPayment(paymentId))!.amountRefunded, 15000);
      assert.equal(await refundRows(paymentId), 2);
    });

    it('binds a key to one payment: the same key on another payment is that payment’s own refund', async () => {
      const p1 = await capturedPayment();
      const p2 = await capturedPayment();
      const r1 = await gws[0].refundPayment(p1, 10000, undefined, 'shared_key_000');
      const r2 = await gws[1].refundPayment(p2, 10000, undefined, 'shared_key_000');
      assert.notEqual(r1.id, r2.id);
      assert.deepEqual([r1.paymentId, r2.paymentId], [p1, p2]);
    });

    it('keeps no key for a refused refund: the key may carry a corrected request', async () => {
      const paymentId = await capturedPayment();
      await assert.rejects(
        gws[0].refundPayment(paymentId, CAPTURE + 100, undefined, 'corrected_key_1'),
        rejected,
      );
      const r = await gws[0].refundPayment(paymentId, CAPTURE, undefined, 'corrected_key_1');
      assert.equal(r.amount, CAPTURE);
    });

    it('makes a duplicate sent while the first is in flight wait for it, then answer the same refund', async () => {
      const paymentId = await capturedPayment();
      const hold = await holdPayment(paymentId);
      const sent = [0, 1, 0, 1].map((i) =>
        gws[i]!.refundPayment(paymentId, 15000, { registrationId: 'reg_9' }, 'cancel_reg_9_x'),
      );
      await hold.waiters(4);
      await hold.release();
      const answers = await Promise.all(sent);
      assert.equal(new Set(answers.map((r) => r.id)).size, 1, 'one refund, answered four times');
      assert.equal((await gws[0].fetchPayment(paymentId))!.amountRefunded, 15000);
      assert.equal(await refundRows(paymentId), 1);
    });
  });
});
