// Membership money under races, through two service processes on one database, live mode
// against the Razorpay emulator (docs/decisions/20-booking-lifecycle.md: money cannot exceed what was
// captured; memberships keep the rule for their own state). Every captured payment ends in
// exactly one place: a period the member got (one ledger entry) or a full refund (once).
// - a fixed-term payment reported four times at once (order.paid, payment.captured and the
//   member's confirm, on both processes) pays one term, once;
// - a second payment of an order already paid is refunded once, the first kept once;
// - a cancel racing the payment or a charge leaves money and state agreeing: the member
//   keeps the period the kept money paid for, or the money is refunded;
// - two charges of one subscription at once each add their period, the later end wins.
// The processes run no workers: a worker here runs the refund jobs they queue. Where one
// interleaving matters, the emulator's gate holds the cancel's gateway call while the
// charge is delivered, so the test decides the order instead of hoping for it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { embeddedDatabaseUrl } from '../../src/db/embedded.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { ManualClock } from '../../src/lib/clock.js';
import { markEmailVerified } from '../../src/modules/accounts/accounts.repo.js';
import { addMonths } from '../../src/modules/memberships/standing.js';
import { call, createKey, signup, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import {
  gatewayEnv,
  orderPaidEvent,
  paymentCapturedEvent,
  signWebhook,
  startRazorpayEmulator,
  subscriptionEvent,
  type RazorpayEmulator,
} from '../helpers/razorpay-emulator.js';
import { startProcess, type ServiceProcess } from '../helpers/process.js';
import { isolatedDatabase } from '../helpers/server.js';
import { keyApi } from '../helpers/factories.js';
import { ledgerOf, membershipRow, pendingJobs } from '../helpers/rows.js';
import { RAISED_LIMITS } from '../helpers/limits.js';

const onPostgres = process.env.TEST_DB === 'postgres';
const creds = { keyId: 'rzp_live_RaceMembers01', keySecret: 'racemembersecret0000001' };
const WEBHOOK_SECRET = 'membership-race-webhook-secret';
const DAY = 86_400_000;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('membership money across two processes', () => {
  const procs: ServiceProcess[] = [];
  const dirs: string[] = [];
  let rzp: RazorpayEmulator;
  let worker: Deps;
  const clock = new ManualClock(new Date());
  // On PostgreSQL a database of its own: the worker here runs every due job, and must meet no other file's.
  let database: Awaited<ReturnType<typeof isolatedDatabase>> | undefined;
  let org: Account & KeyInfo;

  before(async () => {
    rzp = await startRazorpayEmulator(creds);
    const shared = {
      SESSION_SECRET: 'membership-race-session-secret-0123456789',
      SECRETS_KEY: 'membership-race-secrets-key-0123456789abcd',
      ...RAISED_LIMITS,
      EMAIL_DNS_CHECK: 'false',
      WORKERS: 'false',
      ...gatewayEnv(rzp, creds, WEBHOOK_SECRET),
    };
    database = onPostgres ? await isolatedDatabase() : undefined;
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'svc-mem-'));
      dirs.push(dir);
      const databaseUrl = database ? database.url : i === 0 ? undefined : embeddedDatabaseUrl(dirs[0]!);
      procs.push(
        await startProcess({
          ...shared,
          DATA_DIR: dir,
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        }),
      );
    }
    const dir = mkdtempSync(join(tmpdir(), 'svc-mem-worker-'));
    dirs.push(dir);
    const env = {
      ...shared,
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      DATABASE_URL: database ? database.url : embeddedDatabaseUrl(dirs[0]!),
    };
    worker = await createDeps(loadConfig(env), { clock, logger: pino({ level: 'silent' }) });
    // A live key needs a verified address: test setup marks it as opening the mail's link does.
    const account = await signup(procs[0]!.url);
    await markEmailVerified(worker.db, account.userId, account.email.toLowerCase(), new Date());
    org = { ...account, ...(await createKey(procs[0]!.url, account.token, { mode: 'live' })) };
  });
  after(async () => {
    await worker?.close();
    for (const p of [...procs].reverse()) await p.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await database?.drop();
    await rzp?.close();
  });

  /** The caller at process `i` (of two, in turn). */
  const apiAt = (i: number) => keyApi(procs[i % 2]!.url, org.key);
  /** The worker's storage, as the named fixtures read it. */
  const workerStore = () => ({ deps: worker });
  const notify = async (i: number, body: string) => {
    const r = await call(procs[i % 2]!.url, 'POST', '/webhooks/razorpay', {
      raw: body,
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': signWebhook(body, WEBHOOK_SECRET),
      },
    });
    assert.equal(r.status, 200, r.text);
    return r.body.result as string;
  };
  /**
   * Runs what the processes queued to the end: the worker's clock reads now, then a minute on
   * per round, so a job retried after a slow gateway answer comes due (its database holds
   * only this file's jobs).
   */
  const work = async () => {
    for (let round = 0; round < 30; round++) {
      clock.set(new Date(Date.now() + round * 60_000));
      for (let i = 0; i < 500 && (await worker.jobs.runOnce()) > 0; i++);
      if ((await pendingJobs(workerStore())).length === 0) return;
    }
    assert.fail('jobs still pending after 30 rounds');
  };
  const membership = (id: string) => membershipRow(workerStore(), id);
  /** The payments the ledger holds for a membership. */
  const ledgerPayments = async (id: string) =>
    (await ledgerOf(workerStore(), id))
      .filter((e) => e.source_type === 'membership' && e.kind === 'membership_payment')
      .map((e) => e.ref);
  const refunded = (paymentId: unknown) => Number(rzp.payments.get(String(paymentId))!.amount_refunded);
  /** The refunds asked of the gateway for a payment, one per idempotency key (a retry repeats its key). */
  const refundKeys = (paymentId: unknown) =>
    new Set(
      rzp.requests
        .filter((r) => r.method === 'POST' && r.path === `/v1/payments/${paymentId}/refund`)
        .map((r) => r.headers['x-refund-idempotency']),
    ).size;

  async function fixedTermPlan(): Promise<string> {
    const r = await apiAt(0)('POST', '/api/v1/memberships/plans', {
      name: 'Annual',
      amount: 1200,
      kind: 'fixed_term',
      termMonths: 12,
    });
    assert.equal(r.status, 201, r.text);
    return r.body.data.id;
  }
  async function recurringPlan(): Promise<string> {
    const r = await apiAt(0)('POST', '/api/v1/memberships/plans', {
      name: 'Monthly',
      amount: 299,
      period: 'monthly',
    });
    assert.equal(r.status, 201, r.text);
    return r.body.data.id;
  }
  async function fixedTermMember(planId: string, i: number) {
    const s = await apiAt(i)('POST', '/api/v1/memberships/subscribe', {
      planId,
      name: `Member ${i}`,
      email: uniqueEmail(`ft${i}`),
    });
    assert.equal(s.status, 201, s.text);
    return { id: s.body.membershipId as string, orderId: s.body.orderId as string };
  }
  /** A recurring member whose mandate is approved; `charged` charges applied before the race. */
  async function mandate(planId: string, i: number, charged = 0) {
    const s = await apiAt(i)('POST', '/api/v1/memberships/subscribe', {
      planId,
      name: `Member ${i}`,
      email: uniqueEmail(`rc${i}`),
    });
    assert.equal(s.status, 201, s.text);
    const subscriptionId = s.body.subscriptionId as string;
    assert.equal(
      await notify(
        i,
        subscriptionEvent('authenticated', rzp.subscriptions.get(subscriptionId)!, {
          status: 'authenticated',
        }),
      ),
      'applied',
    );
    const charges: string[] = [];
    for (let c = 0; c < charged; c++) {
      const charge = rzp.chargeSubscription(subscriptionId);
      assert.equal(await notify(i + c, charge.body), 'applied');
      charges.push(String(charge.payment.id));
    }
    return { id: s.body.membershipId as string, subscriptionId, charges };
  }

  /**
   * A recurring charge ended in exactly one place: kept (one ledger entry, not refunded, the
   * period it paid for granted) or refunded in full (no ledger entry).
   */
  async function assertChargeAgrees(
    membershipId: string,
    charge: { payment: Record<string, unknown>; currentEnd: number },
    what: string,
  ) {
    const id = String(charge.payment.id);
    const kept = (await ledgerPayments(membershipId)).filter((r) => r === id).length;
    const back = refunded(id);
    const m = await membership(membershipId);
    assert.ok(kept <= 1, `${what}: the charge entered the ledger ${kept} times`);
    assert.ok(refundKeys(id) <= 1, `${what}: the charge was refunded under ${refundKeys(id)} keys`);
    if (kept === 1) {
      assert.equal(back, 0, `${what}: the charge is in the ledger and was refunded too`);
      assert.ok(
        m.valid_until !== null && m.valid_until.getTime() >= charge.currentEnd * 1000,
        `${what}: the charge is kept but its period was not granted (valid until ${m.valid_until?.toISOString()})`,
      );
    } else {
      assert.equal(
        back,
        Number(charge.payment.amount),
        `${what}: captured money is neither in the ledger nor refunded (membership ${m.status}, refunded ${back})`,
      );
    }
    return { kept: kept === 1, membership: m };
  }

  it('a fixed-term payment reported four times at once — order.paid, payment.captured and confirm on both processes — pays one term, once, and is never refunded', async () => {
    const planId = await fixedTermPlan();
    const cases = await Promise.all(
      range(8).map(async (i) => {
        const m = await fixedTermMember(planId, i);
        return { ...m, i, payment: rzp.pay(m.orderId) };
      }),
    );
    const started = new Date();
    const answers = await Promise.all(
      cases.flatMap((c) => {
        const confirm = (i: number) =>
          apiAt(i)('POST', `/api/v1/memberships/${c.id}/confirm`, {
            orderId: c.orderId,
            paymentId: c.payment.id,
          });
        return [
          notify(c.i, orderPaidEvent(rzp.orders.get(c.orderId)!, c.payment)),
          notify(c.i + 1, paymentCapturedEvent(c.payment)),
          confirm(c.i),
          confirm(c.i + 1),
        ];
      }),
    );
    const finished = new Date();
    for (const a of answers) {
      if (typeof a === 'string')
        assert.ok(a === 'confirmed' || a === 'ignored', `a notification answered ${a}`);
      else assert.equal(a.status, 200, a.text);
    }
    await work();
    for (const c of cases) {
      const m = await membership(c.id);
      assert.equal(m.status, 'active');
      // One term of twelve months from the payment, not two.
      assert.ok(
        m.valid_until!.getTime() >= addMonths(started, 12).getTime() - 1000 &&
          m.valid_until!.getTime() <= addMonths(finished, 12).getTime() + 1000,
        `one term: ${m.valid_until!.toISOString()}`,
      );
      assert.deepEqual(
        await ledgerPayments(c.id),
        [String(c.payment.id)],
        'one ledger entry for the payment',
      );
      assert.equal(refunded(c.payment.id), 0, 'the payment that pays the term is never refunded');
    }
  });

  it('two captured payments of one fixed-term order reported at once: one pays the term, the other is refunded in full, once', async () => {
    const planId = await fixedTermPlan();
    const cases = await Promise.all(range(8).map((i) => fixedTermMember(planId, i)));
    const paid = cases.map((c) => ({ ...c, a: rzp.pay(c.orderId), b: rzp.pay(c.orderId) }));
    const order = (id: string) => rzp.orders.get(id)!;
    await Promise.all(
      paid.flatMap((c, i) => [
        notify(i, orderPaidEvent(order(c.orderId), c.a)),
        notify(i + 1, orderPaidEvent(order(c.orderId), c.b)),
        notify(i + 1, paymentCapturedEvent(c.a)),
        notify(i, paymentCapturedEvent(c.b)),
      ]),
    );
    await work();
    for (const c of paid) {
      const kept = await ledgerPayments(c.id);
      assert.equal(kept.length, 1, `exactly one payment pays the term: ${kept.join(',')}`);
      const [keep, other] = kept[0] === String(c.a.id) ? [c.a, c.b] : [c.b, c.a];
      assert.equal(kept[0], String(keep.id));
      assert.equal(refunded(keep.id), 0, 'the kept payment is not refunded');
      assert.equal(refunded(other.id), Number(other.amount), 'the other is refunded in full');
      assert.equal(refundKeys(other.id), 1, 'under one idempotency key');
      assert.equal((await membership(c.id)).status, 'active');
    }
  });

  it('a cancel racing the payment of a fixed term: the member keeps the term the kept money paid for, or the money is refunded', async () => {
    const planId = await fixedTermPlan();
    const cases = await Promise.all(range(16).map((i) => fixedTermMember(planId, i)));
    const paid = cases.map((c) => ({ ...c, payment: rzp.pay(c.orderId) }));
    const answers = await Promise.all(
      paid.flatMap((c, i) => [
        apiAt(i)('POST', `/api/v1/memberships/${c.id}/cancel`, {}),
        notify(i + 1, orderPaidEvent(rzp.orders.get(c.orderId)!, c.payment)),
      ]),
    );
    for (const a of answers) if (typeof a !== 'string') assert.equal(a.status, 201, a.text);
    await work();
    for (const c of paid) {
      const kept = (await ledgerPayments(c.id)).length;
      const m = await membership(c.id);
      if (kept === 1) {
        assert.equal(refunded(c.payment.id), 0, 'kept and refunded');
        assert.ok(
          m.status === 'active' &&
            m.cancel_at_period_end &&
            m.valid_until!.getTime() > Date.now() + 300 * DAY,
          `paid for a term the member does not get: ${m.status}, valid until ${m.valid_until?.toISOString()}`,
        );
      } else {
        assert.equal(kept, 0);
        assert.equal(
          refunded(c.payment.id),
          Number(c.payment.amount),
          'captured money neither kept nor refunded',
        );
        assert.equal(m.status, 'ended');
      }
    }
  });

  it('a default cancel whose gateway call is overtaken by the first charge: the charge is refunded or its period kept, even after the gateway’s cancelled notification', async () => {
    const planId = await recurringPlan();
    const m = await mandate(planId, 0);
    rzp.gate(true, new RegExp(`^POST /v1/subscriptions/${m.subscriptionId}/cancel$`));
    try {
      // Nothing is paid yet, so the cancel ends the mandate now; the gateway charged just before.
      const cancelling = apiAt(0)('POST', `/api/v1/memberships/${m.id}/cancel`, {});
      const held = await rzp.nextHeld();
      const charge = rzp.chargeSubscription(m.subscriptionId);
      await notify(1, charge.body);
      held.release();
      const c = await cancelling;
      assert.equal(c.status, 201, c.text);
      await notify(1, subscriptionEvent('cancelled', rzp.subscriptions.get(m.subscriptionId)!));
      await work();
      const { kept, membership: after } = await assertChargeAgrees(m.id, charge, 'the first charge');
      if (kept)
        assert.ok(
          after.status !== 'ended' && after.cancel_at_period_end,
          `kept a charge, but the membership is ${after.status}`,
        );
    } finally {
      rzp.gate(false);
    }
  });

  it('a charge whose notification arrives after an immediate cancel (the gateway charged first) is refunded, not dropped', async () => {
    const planId = await recurringPlan();
    const m = await mandate(planId, 1, 1);
    const charge = rzp.chargeSubscription(m.subscriptionId);
    const c = await apiAt(0)('POST', `/api/v1/memberships/${m.id}/cancel`, { immediate: true });
    assert.equal(c.status, 201, c.text);
    assert.equal(c.body.data.displayStatus, 'ended');
    await notify(1, subscriptionEvent('cancelled', rzp.subscriptions.get(m.subscriptionId)!));
    await Promise.all([notify(1, charge.body), notify(0, charge.body)]);
    await work();
    const { kept } = await assertChargeAgrees(m.id, charge, 'the late charge');
    assert.equal(kept, false, 'no period follows an ended membership, so its money goes back');
    assert.deepEqual(await ledgerPayments(m.id), m.charges, 'the earlier charge stays as it was');
  });

  it('cancels racing charges on both processes: every charge is kept with its period or refunded, never both, never neither', async () => {
    const planId = await recurringPlan();
    const members = await Promise.all(range(12).map((i) => mandate(planId, i, i % 3 === 0 ? 0 : 1)));
    const charges = members.map((m) => rzp.chargeSubscription(m.subscriptionId));
    const answers = await Promise.all(
      members.flatMap((m, i) => [
        apiAt(i)('POST', `/api/v1/memberships/${m.id}/cancel`, i % 2 === 0 ? { immediate: true } : {}),
        notify(i + 1, charges[i]!.body),
      ]),
    );
    for (const a of answers) if (typeof a !== 'string') assert.equal(a.status, 201, a.text);
    // The gateway tells of what it cancelled at once (an immediate cancel, or one of an unpaid mandate).
    for (const m of members) {
      const sub = rzp.subscriptions.get(m.subscriptionId)!;
      if (sub.status === 'cancelled') await notify(0, subscriptionEvent('cancelled', sub));
    }
    await work();
    for (const [i, m] of members.entries()) {
      const { kept, membership: after } = await assertChargeAgrees(m.id, charges[i]!, `member ${i}`);
      if (kept && i % 2 === 1)
        assert.ok(
          after.status !== 'ended',
          `member ${i}: a default cancel ended a membership whose kept charge paid for time ahead`,
        );
    }
  });

  it('two charges of one subscription delivered at once, each twice: both kept once, the later period’s end wins', async () => {
    const planId = await recurringPlan();
    const members = await Promise.all(range(10).map((i) => mandate(planId, i)));
    const pairs = members.map((m) => ({
      m,
      first: rzp.chargeSubscription(m.subscriptionId),
      second: rzp.chargeSubscription(m.subscriptionId),
    }));
    await Promise.all(
      pairs.flatMap(({ first, second }, i) => [
        notify(i, first.body),
        notify(i + 1, second.body),
        notify(i + 1, first.body),
        notify(i, second.body),
      ]),
    );
    await work();
    for (const { m, first, second } of pairs) {
      assert.deepEqual(
        (await ledgerPayments(m.id)).sort(),
        [String(first.payment.id), String(second.payment.id)].sort(),
        'each charge once',
      );
      const after = await membership(m.id);
      assert.equal(
        after.valid_until!.getTime(),
        second.currentEnd * 1000,
        'valid until the later charge’s period end',
      );
      assert.equal(refunded(first.payment.id) + refunded(second.payment.id), 0);
    }
  });
});
