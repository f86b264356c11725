// Payouts under races, through two service processes on one database
// (docs/decisions/12-money-integrity.md, docs/decisions/20-booking-lifecycle.md): a payout's amount is held once, and credited back at most once, only by a
// move to failed, cancelled or reversed; a payout is never both paid (processed) and
// credited back unless the bank reversed it; two withdrawals at once never take more than
// the available balance. Live payouts go through RazorpayX (the emulator) and its
// notifications; test-mode payouts through the sandbox routes. The processes run no
// workers: a worker here sends the live payouts they queue.
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
import { call, createKey, signup, type Account, type KeyInfo, uniqueEmail } from '../helpers/http.js';
import { createEvent, keyApi, paidBooking } from '../helpers/factories.js';
import {
  gatewayEnv,
  signWebhook,
  startRazorpayEmulator,
  type RazorpayEmulator,
} from '../helpers/razorpay-emulator.js';
import { startProcess, type ServiceProcess } from '../helpers/process.js';
import { isolatedDatabase } from '../helpers/server.js';
import { ledgerOf, payoutRow, pendingJobs } from '../helpers/rows.js';
import { RAISED_LIMITS } from '../helpers/limits.js';

const onPostgres = process.env.TEST_DB === 'postgres';
const creds = { keyId: 'rzp_live_RacePayouts001', keySecret: 'racepayoutssecret000001' };
const WEBHOOK_SECRET = 'payout-race-webhook-secret';
const ACCOUNT_NUMBER = '7878780080316316';
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('payouts across two processes', () => {
  const procs: ServiceProcess[] = [];
  const dirs: string[] = [];
  let rzp: RazorpayEmulator;
  let worker: Deps;
  const clock = new ManualClock(new Date());
  // On PostgreSQL a database of its own: the worker here runs every due job, and must meet no other file's.
  let database: Awaited<ReturnType<typeof isolatedDatabase>> | undefined;

  before(async () => {
    rzp = await startRazorpayEmulator(creds, { accountNumber: ACCOUNT_NUMBER });
    const shared = {
      SESSION_SECRET: 'payout-race-session-secret-0123456789abcd',
      SECRETS_KEY: 'payout-race-secrets-key-0123456789abcdefgh',
      ...RAISED_LIMITS,
      EMAIL_DNS_CHECK: 'false',
      WORKERS: 'false',
      // Proceeds are available at once: the processes' clocks cannot be moved.
      PAYOUT_CLEARING_DAYS: '0',
      RAZORPAYX_ACCOUNT_NUMBER: ACCOUNT_NUMBER,
      ...gatewayEnv(rzp, creds, WEBHOOK_SECRET),
    };
    database = onPostgres ? await isolatedDatabase() : undefined;
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'svc-pay-'));
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
    const dir = mkdtempSync(join(tmpdir(), 'svc-pay-worker-'));
    dirs.push(dir);
    const env = {
      ...shared,
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      DATABASE_URL: database ? database.url : embeddedDatabaseUrl(dirs[0]!),
    };
    worker = await createDeps(loadConfig(env), { clock, logger: pino({ level: 'silent' }) });
  });
  after(async () => {
    await worker?.close();
    for (const p of [...procs].reverse()) await p.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await database?.drop();
    await rzp?.close();
  });

  type Org = Account & KeyInfo;
  /** An organiser with a verified address and a full key in `mode`. */
  async function organiser(mode: 'test' | 'live'): Promise<Org> {
    const account = await signup(procs[0]!.url);
    await markEmailVerified(worker.db, account.userId, account.email.toLowerCase(), new Date());
    return { ...account, ...(await createKey(procs[0]!.url, account.token, { mode })) };
  }
  const dash = (i: number, org: Account, method: string, path: string, body?: unknown) =>
    call(procs[i % 2]!.url, method, path, { token: org.token, ...(body === undefined ? {} : { body }) });
  const available = async (org: Account, mode: 'test' | 'live') => {
    const r = await dash(0, org, 'GET', `/dashboard/api/balance?mode=${mode}`);
    assert.equal(r.status, 200, r.text);
    return r.body.available as number;
  };
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
  /** The worker's storage, as the named fixtures read it. */
  const workerStore = () => ({ deps: worker });
  /** The payout's ledger entries by kind: one hold, and a credit only with a move that credits back. */
  const entries = async (payoutId: string) => {
    const rows = (await ledgerOf(workerStore(), payoutId)).filter((r) => r.source_type === 'payout');
    return {
      holds: rows.filter((r) => r.kind === 'payout_hold').length,
      credits: rows.filter((r) => r.kind === 'payout_credit').length,
    };
  };
  const creditsBack = (status: string) =>
    status === 'failed' || status === 'cancelled' || status === 'reversed';

  /** A payout's state, its ledger entries and the balance agree: held once, credited once exactly when its state credits back. */
  async function assertPayoutAgrees(payoutId: string, what: string) {
    const row = await payoutRow(workerStore(), payoutId);
    const e = await entries(payoutId);
    assert.equal(e.holds, 1, `${what}: held ${e.holds} times`);
    assert.equal(
      e.credits,
      creditsBack(row.status) ? 1 : 0,
      `${what}: ${row.status} with ${e.credits} credits back`,
    );
    return row;
  }

  it('test mode: two withdrawals at once on both processes never take more than the available balance', async () => {
    const org = await organiser('test');
    const api = keyApi(procs[0]!.url, org.key);
    const eventId = await createEvent(api, { title: 'Paid', price: 1000 });
    await paidBooking(api, eventId);
    assert.equal(await available(org, 'test'), 1000);
    const answers = await Promise.all(
      range(24).map((i) =>
        dash(i, org, 'POST', '/dashboard/api/payouts?mode=test', { amount: 100, upiId: 'organiser@okaxis' }),
      ),
    );
    const accepted = answers.filter((a) => a.status === 201);
    for (const a of answers)
      assert.ok(
        a.status === 201 ||
          (a.status === 409 && (a.body.code === 'insufficient_balance' || a.body.code === 'busy')),
        `${a.status} ${a.text}`,
      );
    assert.ok(accepted.length <= 10, `${accepted.length} withdrawals of 100 from a balance of 1000`);
    if (answers.every((a) => a.body.code !== 'busy'))
      assert.equal(accepted.length, 10, 'every withdrawal that fitted was accepted');
    assert.equal(await available(org, 'test'), 1000 - 100 * accepted.length);
    for (const a of accepted) assert.deepEqual(await entries(a.body.id), { holds: 1, credits: 0 });
  });

  it('test mode: settling a payout two ways at once on both processes — one wins, the other is refused, and one credit at most', async () => {
    const org = await organiser('test');
    const api = keyApi(procs[0]!.url, org.key);
    const eventId = await createEvent(api, { title: 'Paid', price: 5000 });
    await paidBooking(api, eventId);
    const payouts: string[] = [];
    for (let i = 0; i < 16; i++) {
      const p = await dash(i, org, 'POST', '/dashboard/api/payouts?mode=test', {
        amount: 100,
        upiId: 'organiser@okaxis',
      });
      assert.equal(p.status, 201, p.text);
      payouts.push(p.body.id);
    }
    const rivals = ['cancel', 'fail', 'reverse', 'cancel'] as const;
    const settle = (i: number, id: string, outcome: string) =>
      call(procs[i % 2]!.url, 'POST', `/api/v1/sandbox/payouts/${id}/${outcome}`, { key: org.key });
    const answers = await Promise.all(
      payouts.map(async (id, i) => {
        const rival = rivals[i % 4]!;
        const [process, other] = await Promise.all([settle(i, id, 'process'), settle(i + 1, id, rival)]);
        return { id, rival, process, other };
      }),
    );
    const want = { process: 'processed', cancel: 'cancelled', fail: 'failed', reverse: 'reversed' } as const;
    let paidOut = 0;
    for (const a of answers) {
      const row = await assertPayoutAgrees(a.id, `payout ${a.id} (process vs ${a.rival})`);
      for (const [outcome, r] of [
        ['process', a.process],
        [a.rival, a.other],
      ] as const) {
        assert.ok(
          r.status === 200 || (r.status === 409 && r.body.code === 'invalid_payout_transition'),
          `${outcome}: ${r.status} ${r.text}`,
        );
        // An answer of 200 says the move asked for was made.
        if (r.status === 200)
          assert.equal(
            r.body.status,
            want[outcome],
            `${outcome} answered 200 with a ${r.body.status} payout`,
          );
      }
      // Both moves may succeed only as processed, then reversed.
      if (a.process.status === 200 && a.other.status === 200)
        assert.deepEqual([a.rival, row.status], ['reverse', 'reversed']);
      assert.ok(a.process.status === 200 || a.other.status === 200, 'one of them was made');
      if (!creditsBack(row.status)) paidOut += 100;
    }
    assert.equal(await available(org, 'test'), 5000 - paidOut);
  });

  it('live: processed racing reversed, failed or cancelled notifications on both processes, each delivered twice — credited back once exactly when the final state says so', async () => {
    const org = await organiser('live');
    // Live proceeds: a fixed-term membership paid at the gateway (₹5,000 less the 3 % gateway charge).
    const plan = await call(procs[0]!.url, 'POST', '/api/v1/memberships/plans', {
      key: org.key,
      body: { name: 'Patron', amount: 5000, kind: 'fixed_term', termMonths: 12 },
    });
    const s = await call(procs[0]!.url, 'POST', '/api/v1/memberships/subscribe', {
      key: org.key,
      body: { planId: plan.body.data.id, name: 'Patron', email: uniqueEmail('patron') },
    });
    const payment = rzp.pay(s.body.orderId);
    const confirmed = await call(
      procs[1]!.url,
      'POST',
      `/api/v1/memberships/${s.body.membershipId}/confirm`,
      { key: org.key, body: { orderId: s.body.orderId, paymentId: payment.id } },
    );
    assert.equal(confirmed.status, 200, confirmed.text);
    const start = await available(org, 'live');
    assert.equal(start, 4850);

    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const p = await dash(i, org, 'POST', '/dashboard/api/payouts', {
        amount: 100,
        upiId: 'organiser@okaxis',
      });
      assert.equal(p.status, 201, p.text);
      ids.push(p.body.id);
    }
    await work();
    const gatewayPayout = (id: string) => [...rzp.payouts.values()].find((g) => g.reference_id === id)!;
    for (const id of ids) assert.ok(gatewayPayout(id), `payout ${id} sent`);
    const rivals = ['reversed', 'failed', 'cancelled'] as const;
    // The bodies as the gateway sent them, each snapshot taken in turn.
    const races = ids.map((id, i) => {
      const g = String(gatewayPayout(id).id);
      const processed = rzp.settlePayout(g, 'processed', { utr: `UTR${i}RACE` });
      const rival = rzp.settlePayout(g, rivals[i % 3]!);
      return { id, rival: rivals[i % 3]!, processed, other: rival };
    });
    await Promise.all(
      races.flatMap((r, i) => [
        notify(i, r.processed),
        notify(i + 1, r.other),
        notify(i + 1, r.processed),
        notify(i, r.other),
      ]),
    );
    let paidOut = 0;
    for (const r of races) {
      const row = await assertPayoutAgrees(r.id, `payout ${r.id} (processed vs ${r.rival})`);
      // reversed may follow processed, so processed and reversed always end reversed.
      if (r.rival === 'reversed') assert.equal(row.status, 'reversed');
      else assert.ok(row.status === 'processed' || row.status === r.rival, row.status);
      if (row.status === 'processed') assert.equal(row.utr, `UTR${races.indexOf(r)}RACE`);
      if (!creditsBack(row.status)) paidOut += 100;
    }
    assert.equal(await available(org, 'live'), start - paidOut);
  });
});
