// A repeat subscribe never takes an open payment away, checkout keys never read
// personal data, and only captured, unrefunded money in the plan's currency activates a
// membership (docs/decisions/08-memberships.md, docs/decisions/11-trust-and-safety.md).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { keyApi, payInSandbox } from '../helpers/factories.js';
import { sandboxOrdersOf, seedSandboxPayment } from '../helpers/rows.js';

describe('memberships: open orders, checkout keys, payment checks', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let checkout: KeyInfo;

  before(async () => {
    server = await startServer({ isolatedDatabase: true });
    org = await organiser(server.url);
    checkout = await createKey(server.url, org.token, { class: 'checkout' });
  });
  after(async () => {
    await server.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  async function plan(fields: Record<string, unknown>): Promise<string> {
    const r = await api('POST', '/api/v1/memberships/plans', { name: 'Club', amount: 500, ...fields });
    assert.equal(r.status, 201, r.text);
    return r.body.data.id;
  }
  const row = (id: string) =>
    server.deps.db.selectFrom('memberships').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const sandboxPay = (orderId: string) => payInSandbox(api, orderId);

  it('answers a repeat fixed-term subscribe with the same open order and changes nothing; paying that order then confirms', async () => {
    const planId = await plan({ kind: 'fixed_term', termMonths: 12 });
    const email = uniqueEmail('repeat');
    const first = await api('POST', '/api/v1/memberships/subscribe', {
      planId,
      name: 'First Name',
      email,
      phone: '111',
    });
    assert.equal(first.status, 201, first.text);
    const before = await row(first.body.membershipId);
    const again = await api('POST', '/api/v1/memberships/subscribe', {
      planId,
      name: 'Someone Else',
      email,
      phone: '999',
    });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.existing, true);
    assert.equal(again.body.membershipId, first.body.membershipId);
    assert.equal(again.body.orderId, first.body.orderId, 'the same open order');
    assert.equal(again.body.amount, first.body.amount);
    assert.deepEqual(await row(first.body.membershipId), before, 'no stored field changed');
    const paid = await api('POST', `/api/v1/memberships/${first.body.membershipId}/confirm`, {
      orderId: first.body.orderId,
      paymentId: await sandboxPay(first.body.orderId),
    });
    assert.equal(paid.status, 200, paid.text);
    assert.deepEqual(
      [paid.body.data.status, paid.body.data.goodStanding, paid.body.data.name, paid.body.data.phone],
      ['active', true, 'First Name', '111'],
    );
  });

  it('answers a repeat recurring subscribe awaiting authorisation with the same subscription and changes nothing', async () => {
    const planId = await plan({ period: 'monthly' });
    const email = uniqueEmail('mandate');
    const first = await api('POST', '/api/v1/memberships/subscribe', { planId, name: 'First', email });
    assert.equal(first.status, 201, first.text);
    const before = await row(first.body.membershipId);
    const again = await api('POST', '/api/v1/memberships/subscribe', {
      planId,
      name: 'Second',
      email,
      phone: '5',
    });
    assert.equal(again.status, 200);
    assert.deepEqual(
      [again.body.subscriptionId, again.body.pendingAuthorisation],
      [first.body.subscriptionId, true],
    );
    assert.deepEqual(await row(first.body.membershipId), before);
  });

  it('makes one membership and one order for concurrent subscribes of one email', async () => {
    const planId = await plan({ kind: 'fixed_term', termMonths: 1 });
    const email = uniqueEmail('double');
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api('POST', '/api/v1/memberships/subscribe', { planId, name: `Click ${i}`, email }),
      ),
    );
    assert.deepEqual(
      replies.map((r) => r.status).sort(),
      [200, 200, 200, 200, 200, 201],
      replies.map((r) => r.text).join('\n'),
    );
    assert.equal(new Set(replies.map((r) => r.body.membershipId)).size, 1);
    assert.equal(new Set(replies.map((r) => r.body.orderId)).size, 1, 'one order for all');
    const rows = await server.deps.db
      .selectFrom('memberships')
      .select('id')
      .where('plan_id', '=', planId)
      .execute();
    assert.equal(rows.length, 1);
    const forPlan = (await sandboxOrdersOf(server, org.userId)).filter(
      (o) => (o.notes as Record<string, string>).email === email,
    );
    assert.equal(forPlan.length, 1, 'the gateway was asked for one order');
  });

  it('answers a checkout key without personal data on every memberships and sandbox route it may call', async () => {
    const planId = await plan({ kind: 'fixed_term', termMonths: 12 });
    const email = uniqueEmail('private');
    const name = 'Private Person';
    const phone = '+919876543210';
    const created = await api(
      'POST',
      '/api/v1/memberships/subscribe',
      { planId, name, email, phone },
      checkout.key,
    );
    assert.equal(created.status, 201, created.text);
    const leaks = (text: string) =>
      [email, name, phone, 'goodStanding', 'validUntil', 'createdAt', 'displayStatus'].filter((x) =>
        text.includes(x),
      );

    const again = await api(
      'POST',
      '/api/v1/memberships/subscribe',
      { planId, name, email, phone },
      checkout.key,
    );
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(leaks(again.text), []);
    // The id of an existing membership is the proof members-only tiers accept: a browser that
    // knows only the email learns that it exists, nothing more (docs/decisions/14-trust-and-safety-second-round.md).
    assert.deepEqual(again.body, { success: true, existing: true });

    // fixture-exception: the sandbox payment's answer to a checkout key is the subject
    const pay = await api(
      'POST',
      '/api/v1/sandbox/payments',
      { orderId: created.body.orderId, outcome: 'success' },
      checkout.key,
    );
    assert.equal(pay.status, 201);
    assert.deepEqual(leaks(pay.text), []);
    const confirmed = await api(
      'POST',
      `/api/v1/memberships/${created.body.membershipId}/confirm`,
      { orderId: created.body.orderId, paymentId: pay.body.paymentId },
      checkout.key,
    );
    assert.equal(confirmed.status, 200, confirmed.text);
    assert.deepEqual(leaks(confirmed.text), []);
    assert.equal(confirmed.body.data.status, 'active');

    // An active member: still nothing personal.
    const member = await api('POST', '/api/v1/memberships/subscribe', { planId, name, email }, checkout.key);
    assert.equal(member.status, 200);
    assert.deepEqual(leaks(member.text), []);

    // Recurring, and the sandbox's mandate events.
    const recurring = await plan({ period: 'monthly' });
    const r = await api(
      'POST',
      '/api/v1/memberships/subscribe',
      { planId: recurring, name, email, phone },
      checkout.key,
    );
    assert.equal(r.status, 201);
    const r2 = await api(
      'POST',
      '/api/v1/memberships/subscribe',
      { planId: recurring, name, email },
      checkout.key,
    );
    assert.equal(r2.status, 200);
    assert.deepEqual(leaks(r2.text), []);
    const auth = await api(
      'POST',
      `/api/v1/sandbox/subscriptions/${r.body.subscriptionId}/authenticate`,
      undefined,
      checkout.key,
    );
    assert.equal(auth.status, 200);
    assert.deepEqual(leaks(auth.text), []);

    // Everything else is refused to a checkout key.
    const refused: [string, string, unknown?][] = [
      ['GET', '/api/v1/memberships/plans'],
      ['POST', '/api/v1/memberships/plans', { name: 'x', amount: 1, period: 'monthly' }],
      ['GET', `/api/v1/memberships/members?email=${encodeURIComponent(email)}`],
      ['POST', `/api/v1/memberships/${created.body.membershipId}/cancel`, {}],
      ['GET', '/api/v1/webhooks'],
      ['PUT', '/api/v1/webhooks', { url: 'https://example.com/h' }],
      ['DELETE', '/api/v1/webhooks'],
      ['GET', '/api/v1/webhooks/deliveries'],
      ['GET', '/api/v1/sandbox/emails'],
      ['POST', '/api/v1/sandbox/clock', { advanceDays: 1 }],
      ['DELETE', '/api/v1/sandbox/clock'],
      ['POST', `/api/v1/sandbox/orders/${created.body.orderId}/paid`],
    ];
    for (const [method, path, body] of refused) {
      const res = await api(method, path, body, checkout.key);
      assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
      assert.deepEqual(leaks(res.text), []);
    }
  });

  it('never activates a membership with a refunded, merely created or other-currency payment (402)', async () => {
    const planId = await plan({ kind: 'fixed_term', termMonths: 1 });
    const s = await api('POST', '/api/v1/memberships/subscribe', {
      planId,
      name: 'M',
      email: uniqueEmail('verify'),
    });
    const { membershipId, orderId, amount } = s.body;
    const confirm = (paymentId: string) =>
      api('POST', `/api/v1/memberships/${membershipId}/confirm`, { orderId, paymentId });

    const refunded = await sandboxPay(orderId);
    await server.deps.membershipDeps.gatewayFor('test', org.userId).refundPayment(refunded);
    const r1 = await confirm(refunded);
    assert.deepEqual([r1.status, r1.body.code], [402, 'payment_not_verified']);

    const insert = (id: string, fields: { status: 'created' | 'captured'; currency: string }) =>
      seedSandboxPayment(server, { id, orderId, amount, ...fields });
    const created = `pay_created${Date.now()}`;
    await insert(created, { status: 'created', currency: 'INR' });
    const r2 = await confirm(created);
    assert.deepEqual([r2.status, r2.body.code], [402, 'payment_not_verified']);

    const usd = `pay_usd${Date.now()}`;
    await insert(usd, { status: 'captured', currency: 'USD' });
    const r3 = await confirm(usd);
    assert.deepEqual([r3.status, r3.body.code], [402, 'payment_not_verified']);

    // The gateway's paid notification for the refunded payment does not activate it either.
    const n = await api('POST', `/api/v1/sandbox/orders/${orderId}/paid`);
    assert.equal(n.status, 200, n.text);
    assert.equal(n.body.result, 'ignored');
    const m = (await api('GET', `/api/v1/memberships/members?planId=${planId}`)).body.data[0];
    assert.deepEqual([m.status, m.goodStanding], ['pending_payment', false]);
  });

  it('scopes sandbox payments by account: another account cannot read or settle them', async () => {
    const planId = await plan({ kind: 'fixed_term', termMonths: 1 });
    const s = await api('POST', '/api/v1/memberships/subscribe', {
      planId,
      name: 'Mine',
      email: uniqueEmail('mine'),
    });
    const paymentId = await sandboxPay(s.body.orderId);
    const other = await organiser(server.url);
    const paid = await api('POST', `/api/v1/sandbox/orders/${s.body.orderId}/paid`, undefined, other.key);
    assert.equal(paid.status, 404, paid.text);
    assert.ok(!paid.text.includes(paymentId), 'the payment id is not shown to another account');
    // fixture-exception: another account's refusal is the subject
    assert.equal(
      (
        await api(
          'POST',
          '/api/v1/sandbox/payments',
          { orderId: s.body.orderId, outcome: 'success' },
          other.key,
        )
      ).status,
      404,
    );
    const confirmOther = await api(
      'POST',
      `/api/v1/memberships/${s.body.membershipId}/confirm`,
      { orderId: s.body.orderId, paymentId },
      other.key,
    );
    assert.equal(confirmOther.status, 403);
    assert.equal(
      (await row(s.body.membershipId)).status,
      'pending_payment',
      'nothing was confirmed by the other account',
    );
  });
});
