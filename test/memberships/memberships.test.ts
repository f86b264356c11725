import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  call,
  createKey,
  organiser,
  signup,
  uniqueEmail,
  type Account,
  type KeyInfo,
} from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEvent, keyApi, payInSandbox } from '../helpers/factories.js';
import { sandboxSubscriptionRow, setSandboxSubscriptionStatus } from '../helpers/rows.js';

describe('memberships', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let staff: Account;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    server = await startServer({
      isolatedDatabase: true,
      env: { STAFF_EMAILS: staffEmail, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
    });
    org = await organiser(server.url);
    staff = await signup(server.url, { email: staffEmail });
  });
  after(async () => {
    await server.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  async function plan(fields: Record<string, unknown>, key = org.key): Promise<string> {
    const r = await api('POST', '/api/v1/memberships/plans', { name: 'Club', amount: 500, ...fields }, key);
    assert.equal(r.status, 201, r.text);
    return r.body.data.id;
  }
  const subscribe = (planId: string, email: string, key = org.key) =>
    api('POST', '/api/v1/memberships/subscribe', { planId, name: 'Member', email }, key);
  const member = async (email: string, planId?: string) => {
    const r = await api(
      'GET',
      `/api/v1/memberships/members?email=${encodeURIComponent(email)}${planId ? `&planId=${planId}` : ''}`,
    );
    assert.equal(r.status, 200, r.text);
    return r.body.data[0];
  };
  const sandbox = (subscriptionId: string, action: string) =>
    api('POST', `/api/v1/sandbox/subscriptions/${subscriptionId}/${action}`);
  const advance = (days: number) => api('POST', '/api/v1/sandbox/clock', { advanceDays: days });

  describe('plans', () => {
    it('creates recurring (default) and fixed-term plans scoped to account and mode', async () => {
      const r = await api('POST', '/api/v1/memberships/plans', {
        name: 'Monthly',
        amount: 299.99,
        period: 'quarterly',
        description: 'Gym',
      });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.data.kind, 'recurring');
      assert.equal(r.body.data.amount, 299.99);
      assert.equal(r.body.data.totalCount, 0);
      assert.match(r.body.data.gatewayPlanId, /^plan_/);
      const f = await api('POST', '/api/v1/memberships/plans', {
        name: 'Annual',
        amount: 1000,
        kind: 'fixed_term',
        termMonths: 12,
      });
      assert.equal(f.status, 201);
      assert.equal(f.body.data.termMonths, 12);
      const list = await api('GET', '/api/v1/memberships/plans');
      assert.ok(list.body.data.some((p: any) => p.id === r.body.data.id));
      const live = await createKey(server.url, org.token, { mode: 'live' });
      assert.equal((await api('GET', '/api/v1/memberships/plans', undefined, live.key)).body.count, 0);
      const other = await organiser(server.url);
      assert.equal(
        (await subscribe(r.body.data.id, uniqueEmail(), other.key)).status,
        404,
        'a plan of another account',
      );
    });

    const refusals: [string, Record<string, unknown>][] = [
      ['a name over 80 characters', { name: 'x'.repeat(81), amount: 10, period: 'monthly' }],
      [
        'a description over 500 characters',
        { name: 'x', amount: 10, period: 'monthly', description: 'y'.repeat(501) },
      ],
      ['three decimals', { name: 'x', amount: 10.001, period: 'monthly' }],
      ['a recurring plan without period', { name: 'x', amount: 10 }],
      ['termMonths on a recurring plan', { name: 'x', amount: 10, period: 'monthly', termMonths: 3 }],
      ['a fixed term without termMonths', { name: 'x', amount: 10, kind: 'fixed_term' }],
      ['termMonths 0', { name: 'x', amount: 10, kind: 'fixed_term', termMonths: 0 }],
      ['termMonths 121', { name: 'x', amount: 10, kind: 'fixed_term', termMonths: 121 }],
      [
        'period on a fixed term',
        { name: 'x', amount: 10, kind: 'fixed_term', termMonths: 1, period: 'monthly' },
      ],
      ['a recurring amount above 15,000', { name: 'x', amount: 15000.01, period: 'monthly' }],
      ['an unknown period', { name: 'x', amount: 10, period: 'daily' }],
    ];
    for (const [what, body] of refusals) {
      it(`refuses ${what} with 400`, async () => {
        const r = await api('POST', '/api/v1/memberships/plans', body);
        assert.equal(r.status, 400, r.text);
      });
    }
    it('accepts a recurring amount of exactly 15,000 and a fixed term above it', async () => {
      assert.equal(
        (await api('POST', '/api/v1/memberships/plans', { name: 'x', amount: 15000, period: 'yearly' }))
          .status,
        201,
      );
      assert.equal(
        (
          await api('POST', '/api/v1/memberships/plans', {
            name: 'x',
            amount: 50000,
            kind: 'fixed_term',
            termMonths: 12,
          })
        ).status,
        201,
      );
    });
  });

  describe('recurring mandates', () => {
    it('walks the state table: created → authorised → active → cancel at period end → ended', async () => {
      const planId = await plan({ period: 'monthly' });
      const email = uniqueEmail('rec');
      const s = await subscribe(planId, email);
      assert.equal(s.status, 201, s.text);
      assert.equal(s.body.pendingAuthorisation, true);
      assert.match(s.body.membershipId, /^mem_/);
      assert.match(s.body.subscriptionId, /^sub_/);
      assert.equal(s.body.keyId, 'rzp_test_sandbox');
      assert.ok(s.body.authorisationUrl);
      let m = await member(email);
      assert.deepEqual(
        [m.status, m.displayStatus, m.goodStanding],
        ['created', 'pending_authorisation', false],
      );

      const again = await subscribe(planId, email);
      assert.equal(again.status, 200, 'the same email on the same plan returns the existing membership');
      assert.equal(again.body.membershipId, s.body.membershipId);

      assert.equal((await sandbox(s.body.subscriptionId, 'authenticate')).body.result, 'applied');
      m = await member(email);
      assert.deepEqual([m.status, m.goodStanding], ['authorised', true]);
      assert.equal(
        (await sandbox(s.body.subscriptionId, 'authenticate')).body.result,
        'ignored',
        'idempotent',
      );

      await sandbox(s.body.subscriptionId, 'charge');
      m = await member(email);
      assert.deepEqual([m.status, m.displayStatus, m.goodStanding], ['active', 'active', true]);
      assert.ok(Date.parse(m.validUntil) > server.clock.now().getTime() + 27 * 86_400_000);

      const c = await api('POST', `/api/v1/memberships/${s.body.membershipId}/cancel`, {});
      assert.equal(c.status, 201, c.text);
      assert.equal(c.body.alreadyEnded, false);
      assert.deepEqual(
        [c.body.data.displayStatus, c.body.data.goodStanding, c.body.data.cancelAtPeriodEnd],
        ['cancelling', true, true],
      );
      const sub = await sandboxSubscriptionRow(server, s.body.subscriptionId);
      assert.equal(sub.cancel_at_cycle_end, true, 'the gateway was asked to cancel at cycle end');

      await advance(40);
      m = await member(email);
      assert.deepEqual(
        [m.displayStatus, m.goodStanding],
        ['ended', false],
        'the member kept the time paid, then it ended',
      );
      const twice = await api('POST', `/api/v1/memberships/${s.body.membershipId}/cancel`, {});
      assert.equal(twice.status, 201);
      assert.equal(twice.body.alreadyEnded, true);
      await api('DELETE', '/api/v1/sandbox/clock');
    });

    it('cancels immediately, losing the rest of the period; a second cancel changes nothing', async () => {
      const planId = await plan({ period: 'weekly' });
      const email = uniqueEmail('imm');
      const s = await subscribe(planId, email);
      await sandbox(s.body.subscriptionId, 'authenticate');
      await sandbox(s.body.subscriptionId, 'charge');
      const c = await api('POST', `/api/v1/memberships/${s.body.membershipId}/cancel`, { immediate: true });
      assert.equal(c.status, 201);
      assert.deepEqual(
        [c.body.data.status, c.body.data.displayStatus, c.body.data.goodStanding],
        ['ended', 'ended', false],
      );
      const row = await server.deps.db
        .selectFrom('memberships')
        .selectAll()
        .where('id', '=', s.body.membershipId)
        .executeTakeFirstOrThrow();
      const again = await api('POST', `/api/v1/memberships/${s.body.membershipId}/cancel`, {
        immediate: true,
      });
      assert.equal(again.body.alreadyEnded, true);
      const after = await server.deps.db
        .selectFrom('memberships')
        .selectAll()
        .where('id', '=', s.body.membershipId)
        .executeTakeFirstOrThrow();
      assert.deepEqual(after, row, 'no change');
    });

    it('fails the cancel with 502 and leaves the record when the gateway refuses', async () => {
      const planId = await plan({ period: 'monthly' });
      const email = uniqueEmail('refuse');
      const s = await subscribe(planId, email);
      await sandbox(s.body.subscriptionId, 'authenticate');
      await sandbox(s.body.subscriptionId, 'charge');
      await setSandboxSubscriptionStatus(server, s.body.subscriptionId, 'completed');
      const before = await server.deps.db
        .selectFrom('memberships')
        .selectAll()
        .where('id', '=', s.body.membershipId)
        .executeTakeFirstOrThrow();
      const c = await api('POST', `/api/v1/memberships/${s.body.membershipId}/cancel`, {});
      assert.equal(c.status, 502, c.text);
      const after = await server.deps.db
        .selectFrom('memberships')
        .selectAll()
        .where('id', '=', s.body.membershipId)
        .executeTakeFirstOrThrow();
      assert.deepEqual(after, before);
    });

    it('takes good standing away when halted, and ends on the gateway’s cancellation', async () => {
      const planId = await plan({ period: 'monthly' });
      const email = uniqueEmail('halt');
      const s = await subscribe(planId, email);
      await sandbox(s.body.subscriptionId, 'charge'); // charged before authenticated: order-tolerant
      assert.equal((await member(email)).status, 'active');
      assert.equal((await sandbox(s.body.subscriptionId, 'authenticate')).body.result, 'ignored');
      await sandbox(s.body.subscriptionId, 'halt');
      let m = await member(email);
      assert.deepEqual([m.displayStatus, m.goodStanding], ['past_due', false]);
      await sandbox(s.body.subscriptionId, 'cancel');
      m = await member(email);
      assert.equal(m.displayStatus, 'ended');
      await sandbox(s.body.subscriptionId, 'charge');
      assert.equal((await member(email)).displayStatus, 'ended', 'an ended membership stays ended');
    });

    it('sends the organiser’s subscription.authenticated webhook when asked for it', async () => {
      const { startReceiver } = await import('../helpers/webhook-receiver.js');
      const receiver = await startReceiver();
      try {
        await api('PUT', '/api/v1/webhooks', {
          url: `${receiver.url}/m`,
          events: ['subscription.authenticated'],
        });
        const planId = await plan({ period: 'monthly' });
        const s = await subscribe(planId, uniqueEmail('hook'));
        await sandbox(s.body.subscriptionId, 'authenticate');
        for (let i = 0; i < 50 && receiver.received.length === 0; i++) await server.deps.jobs.runOnce();
        assert.equal(receiver.received.length, 1);
        const body = JSON.parse(receiver.received[0]!.body);
        assert.equal(body.type, 'subscription.authenticated');
        assert.equal(body.data.membershipId, s.body.membershipId);
      } finally {
        await api('DELETE', '/api/v1/webhooks');
        await receiver.close();
      }
    });
  });

  describe('fixed terms', () => {
    async function payTerm(membershipId: string, orderId: string) {
      return api('POST', `/api/v1/memberships/${membershipId}/confirm`, {
        orderId,
        paymentId: await payInSandbox(api, orderId),
      });
    }

    it('pays by order, expires on the test clock (still active in storage), and renews in the window', async () => {
      await api('DELETE', '/api/v1/sandbox/clock');
      const planId = await plan({ kind: 'fixed_term', termMonths: 3, amount: 1200 });
      const email = uniqueEmail('term');
      const s = await subscribe(planId, email);
      assert.equal(s.status, 201, s.text);
      assert.equal(s.body.amount, 120000);
      assert.equal(s.body.keyId, 'rzp_test_sandbox');
      assert.equal((await member(email)).displayStatus, 'pending_authorisation');

      const forged = await api('POST', `/api/v1/memberships/${s.body.membershipId}/confirm`, {
        orderId: s.body.orderId,
        paymentId: 'pay_forged',
      });
      assert.equal(forged.status, 402);
      const c = await payTerm(s.body.membershipId, s.body.orderId);
      assert.equal(c.status, 200, c.text);
      assert.deepEqual([c.body.data.status, c.body.data.goodStanding], ['active', true]);
      const firstEnd = Date.parse(c.body.data.validUntil);

      const early = await subscribe(planId, email);
      assert.equal(early.status, 200, 'outside the renewal window: the existing membership');
      assert.equal(early.body.existing, true);

      await advance(70); // within the last 30 days of a ~91-day term
      const renew = await subscribe(planId, email);
      assert.equal(renew.status, 201, 'renewal order in the window');
      await payTerm(s.body.membershipId, renew.body.orderId);
      const renewed = await member(email);
      const d = new Date(firstEnd);
      d.setUTCMonth(d.getUTCMonth() + 3);
      assert.equal(Date.parse(renewed.validUntil), d.getTime(), 'extends from the current end');

      await advance(200);
      const expired = await member(email);
      assert.deepEqual(
        [expired.status, expired.displayStatus, expired.goodStanding],
        ['active', 'expired', false],
      );

      const late = await subscribe(planId, email);
      assert.equal(late.status, 201);
      await payTerm(s.body.membershipId, late.body.orderId);
      const back = await member(email);
      const now = await api('POST', '/api/v1/sandbox/clock', { advanceDays: 0.0001 });
      assert.ok(
        Math.abs(Date.parse(back.validUntil) - Date.parse(now.body.now)) > 80 * 86_400_000,
        'after expiry: from the payment',
      );
      assert.equal(back.goodStanding, true);
      await api('DELETE', '/api/v1/sandbox/clock');
    });

    it('is confirmed by the gateway’s paid notification', async () => {
      const planId = await plan({ kind: 'fixed_term', termMonths: 1 });
      const email = uniqueEmail('notified');
      const s = await subscribe(planId, email);
      const r = await api('POST', `/api/v1/sandbox/orders/${s.body.orderId}/paid`);
      assert.equal(r.body.result, 'confirmed');
      assert.equal((await member(email)).goodStanding, true);
      assert.equal(
        (await api('POST', `/api/v1/sandbox/orders/${s.body.orderId}/paid`)).body.result,
        'ignored',
      );
    });

    it('refuses an undeliverable email with 400, and lets a checkout key subscribe but not list members', async () => {
      const planId = await plan({ kind: 'fixed_term', termMonths: 1 });
      assert.equal((await subscribe(planId, 'someone@nowhere.invalid')).status, 400);
      const checkout = await createKey(server.url, org.token, { class: 'checkout' });
      assert.equal((await subscribe(planId, uniqueEmail('co'), checkout.key)).status, 201);
      assert.equal((await api('GET', '/api/v1/memberships/members', undefined, checkout.key)).status, 403);
      assert.equal(
        (
          await api(
            'POST',
            '/api/v1/memberships/plans',
            { name: 'x', amount: 1, period: 'monthly' },
            checkout.key,
          )
        ).status,
        403,
      );
    });
  });

  describe('manual members and members-only tiers', () => {
    it('lets staff add a member by hand, who may then book a members-only tier', async () => {
      const planId = await plan({ kind: 'fixed_term', termMonths: 12 });
      const email = uniqueEmail('vip');
      const eventId = await createEvent(api, {
        title: 'Members night',
        startDate: '2026-12-24',
        specialPrices: [{ name: 'Members', price: 0, membersOnly: true }],
      });
      const refused = await api('POST', `/api/v1/events/${eventId}/register`, {
        name: 'V',
        email,
        ticketType: 'Members',
      });
      assert.equal(refused.status, 403);

      const notStaff = await call(server.url, 'POST', '/admin/api/memberships', {
        token: org.token,
        body: { planId, name: 'V', email, validUntil: '2099-01-01' },
      });
      assert.equal(notStaff.status, 403);
      const added = await call(server.url, 'POST', '/admin/api/memberships', {
        token: staff.token,
        body: { planId, name: 'V', email, validUntil: '2099-01-01' },
      });
      assert.equal(added.status, 201, added.text);
      assert.deepEqual([added.body.data.source, added.body.data.goodStanding], ['manual', true]);
      assert.equal((await member(email)).source, 'manual');

      const ok = await api('POST', `/api/v1/events/${eventId}/register`, {
        name: 'V',
        email,
        ticketType: 'Members',
      });
      assert.equal(ok.status, 201, ok.text);
      const lapsed = uniqueEmail('lapsed');
      await call(server.url, 'POST', '/admin/api/memberships', {
        token: staff.token,
        body: { planId, name: 'L', email: lapsed, validUntil: '2020-01-01' },
      });
      assert.equal((await member(lapsed)).displayStatus, 'expired');
      assert.equal(
        (
          await api('POST', `/api/v1/events/${eventId}/register`, {
            name: 'L',
            email: lapsed,
            ticketType: 'Members',
          })
        ).status,
        403,
      );
    });
  });
});
