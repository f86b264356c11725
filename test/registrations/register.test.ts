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
import { createEvent, keyApi, payInSandbox } from '../helpers/factories.js';
import { forcePublished, jobsWith, sandboxPaymentRow } from '../helpers/rows.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';

describe('registration', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    server = await startServer({ env: { STAFF_EMAILS: staffEmail } });
    org = await organiser(server.url);
  });
  after(async () => {
    await server.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const event = (fields: Record<string, unknown> = {}, key = org.key) =>
    createEvent(keyApi(server.url, key), { title: 'Gig', description: 'Music', ...fields });
  const person = (tag = 'p') => ({ name: 'Meera Iyer', email: uniqueEmail(tag) });
  const register = (eventId: string, body: Record<string, unknown>, key = org.key) =>
    api('POST', `/api/v1/events/${eventId}/register`, body, key);
  const registration = async (eventId: string, id: string) =>
    (await api('GET', `/api/v1/events/${eventId}/registrations/${id}`)).body.data;
  const availability = async (eventId: string, q = '') =>
    (await api('GET', `/api/v1/events/${eventId}/availability${q}`)).body.data;
  const pay = (orderId: string, outcome: 'success' | 'failure' = 'success') =>
    payInSandbox(api, orderId, outcome);
  async function paidStep1(eventId: string, extra: Record<string, unknown> = {}) {
    const r = await register(eventId, { ...person(), ...extra });
    assert.equal(r.status, 201, r.text);
    return r.body as {
      registrationId: string;
      orderId: string;
      amount: number;
      currency: string;
      key: string;
    };
  }

  describe('free events', () => {
    it('confirm in one call with no orderId, and hold a seat', async () => {
      const id = await event({ capacity: 5 });
      const r = await register(id, { ...person(), phone: '+919800000000' });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.success, true);
      assert.equal(r.body.status, 'confirmed');
      assert.equal('orderId' in r.body, false);
      assert.match(r.body.registrationId, /^reg_[A-Za-z0-9_-]{22}$/, '128 random bits');
      assert.deepEqual(r.body.ticketIds, [r.body.registrationId]);
      const reg = await registration(id, r.body.registrationId);
      assert.equal(reg.status, 'confirmed');
      assert.equal(reg.phone, '+919800000000');
      assert.equal(reg.ticketType, 'General');
      assert.equal(reg.amount, 0);
      assert.ok(reg.confirmedAt);
      assert.deepEqual([(await availability(id)).taken, (await availability(id)).remaining], [1, 4]);
    });

    it('never sell more than capacity and store nothing for the refused', async () => {
      const id = await event({ capacity: 2 });
      const answers = await Promise.all(Array.from({ length: 6 }, () => register(id, person())));
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 201, 409, 409, 409, 409]);
      for (const a of answers.filter((x) => x.status === 409)) assert.equal(a.body.code, 'sold_out');
      const list = await api('GET', `/api/v1/events/${id}/registrations`);
      assert.equal(list.body.count, 2);
      assert.deepEqual([(await availability(id)).taken, (await availability(id)).soldOut], [2, true]);
    });

    it('take a freed seat at once after a cancellation, however full the event looked', async () => {
      const id = await event({ capacity: 1 });
      const first = await register(id, person());
      assert.equal(first.status, 201);
      assert.equal((await register(id, person())).status, 409);
      assert.equal((await register(id, person())).status, 409);
      assert.equal(
        (await api('POST', `/api/v1/events/${id}/registrations/${first.body.registrationId}/cancel`)).status,
        200,
      );
      assert.equal((await register(id, person())).status, 201, 'the freed seat is sold');
      assert.equal((await register(id, person())).status, 409);
      assert.equal((await api('PATCH', `/api/v1/events/${id}`, { capacity: 2 })).status, 200);
      assert.equal((await register(id, person())).status, 201, 'a raised capacity is sold at once');
    });

    it('wait for approval when the event requires it; approve claims seats, reject cancels', async () => {
      const id = await event({ capacity: 1, requiresApproval: true });
      const a = await register(id, person());
      const b = await register(id, person());
      assert.equal(a.body.status, 'pending');
      assert.equal((await registration(id, a.body.registrationId)).pendingReason, 'approval');
      assert.equal((await availability(id)).taken, 0, 'pending approval holds no seat');
      const ok = await api('POST', `/api/v1/events/${id}/registrations/${a.body.registrationId}/approve`);
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.body.data.status, 'confirmed');
      assert.equal((await availability(id)).taken, 1);
      const full = await api('POST', `/api/v1/events/${id}/registrations/${b.body.registrationId}/approve`);
      assert.equal(full.status, 409);
      assert.equal(full.body.code, 'sold_out');
      assert.equal((await registration(id, b.body.registrationId)).status, 'pending', 'stays pending');
      const no = await api('POST', `/api/v1/events/${id}/registrations/${b.body.registrationId}/reject`);
      assert.equal(no.body.data.status, 'cancelled');
    });
  });

  describe('paid events', () => {
    it('step 1 files a pending registration with answers intact and returns the gateway order', async () => {
      const id = await event({ price: 499.5, customFields: [{ name: 'company', required: true }] });
      const s1 = await paidStep1(id, { customFields: { company: 'Acme' } });
      assert.match(s1.orderId, /^order_/);
      assert.equal(s1.amount, 49950);
      assert.ok(Number.isInteger(s1.amount));
      assert.equal(s1.currency, 'INR');
      assert.equal(s1.key, 'rzp_test_sandbox');
      const reg = await registration(id, s1.registrationId);
      assert.equal(reg.status, 'pending');
      assert.equal(reg.pendingReason, 'payment');
      assert.deepEqual(reg.customFields, { company: 'Acme' });
      assert.equal(reg.amount, 499.5);
      assert.equal((await availability(id)).taken, 0, 'seats are claimed at confirmation');
    });

    it('step 2 verifies the payment and confirms; a repeat answers the same and issues nothing twice', async () => {
      const id = await event({ price: 100, capacity: 3 });
      const s1 = await paidStep1(id);
      const paymentId = await pay(s1.orderId);
      const body = { registrationId: s1.registrationId, orderId: s1.orderId, paymentId };
      const r = await register(id, body);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body, {
        success: true,
        registrationId: s1.registrationId,
        status: 'confirmed',
        orderId: s1.orderId,
        paymentId,
      });
      const again = await register(id, body);
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, r.body);
      assert.equal((await availability(id)).taken, 1);
      const jobs = await jobsWith(server, { attendeeId: s1.registrationId });
      assert.equal(jobs.length, 1, 'one ticket mail queued');
      const reg = await registration(id, s1.registrationId);
      assert.equal(reg.status, 'confirmed');
      assert.deepEqual([reg.platformFee, reg.gatewayFee], [0, 0], 'test mode charges no fee');
    });

    it('refuses a signature field, extra or missing step-2 fields with 400', async () => {
      const id = await event({ price: 100 });
      const s1 = await paidStep1(id);
      const paymentId = await pay(s1.orderId);
      for (const body of [
        { registrationId: s1.registrationId, orderId: s1.orderId, paymentId, signature: 'abc' },
        { registrationId: s1.registrationId, orderId: s1.orderId, paymentId, name: 'x' },
        { registrationId: s1.registrationId, orderId: s1.orderId },
      ]) {
        const r = await register(id, body);
        assert.equal(r.status, 400, JSON.stringify(body));
      }
      assert.equal((await registration(id, s1.registrationId)).status, 'pending');
    });

    it('answers 402 for forged, failed, foreign or already-bound payments and leaves the registration pending', async () => {
      const id = await event({ price: 100 });
      const a = await paidStep1(id);
      const b = await paidStep1(id);
      const failed = await pay(a.orderId, 'failure');
      const paidForB = await pay(b.orderId);
      const cases = [
        { registrationId: a.registrationId, orderId: a.orderId, paymentId: 'pay_forged0000000' },
        { registrationId: a.registrationId, orderId: a.orderId, paymentId: failed },
        { registrationId: a.registrationId, orderId: a.orderId, paymentId: paidForB },
        { registrationId: a.registrationId, orderId: b.orderId, paymentId: paidForB },
      ];
      for (const body of cases) {
        const r = await register(id, body);
        assert.equal(r.status, 402, `${JSON.stringify(body)} ${r.text}`);
        assert.equal(r.body.code, 'payment_not_verified');
      }
      assert.equal((await registration(id, a.registrationId)).status, 'pending');
      assert.equal(
        (await register(id, { registrationId: b.registrationId, orderId: b.orderId, paymentId: paidForB }))
          .status,
        200,
      );
      const payA = await pay(a.orderId);
      // B's payment is now bound to B: A cannot use it.
      const stolen = await register(id, {
        registrationId: a.registrationId,
        orderId: a.orderId,
        paymentId: paidForB,
      });
      assert.equal(stolen.status, 402);
      assert.equal(
        (await register(id, { registrationId: a.registrationId, orderId: a.orderId, paymentId: payA }))
          .status,
        200,
      );
    });

    it('loses the race for the last seat with 409: cancelled, and the payment refunded', async () => {
      const id = await event({ price: 250, capacity: 1 });
      const a = await paidStep1(id);
      const b = await paidStep1(id);
      const pa = await pay(a.orderId);
      const pb = await pay(b.orderId);
      assert.equal(
        (await register(id, { registrationId: a.registrationId, orderId: a.orderId, paymentId: pa })).status,
        200,
      );
      const lost = await register(id, {
        registrationId: b.registrationId,
        orderId: b.orderId,
        paymentId: pb,
      });
      assert.equal(lost.status, 409);
      assert.equal(lost.body.code, 'sold_out');
      assert.equal((await registration(id, b.registrationId)).status, 'cancelled');
      assert.equal((await availability(id)).taken, 1);
      await drainJobs(server, async () => (await sandboxPaymentRow(server, pb)).status === 'refunded');
      const payment = await sandboxPaymentRow(server, pb);
      assert.equal(payment.status, 'refunded');
      assert.equal(Number(payment.amount_refunded), 25000);
      const again = await register(id, {
        registrationId: b.registrationId,
        orderId: b.orderId,
        paymentId: pb,
      });
      assert.equal(again.status, 409, 'a repeat answers the same');
    });

    it('refunds a payment that arrives after the organiser cancelled the booking', async () => {
      const id = await event({ price: 120 });
      const s1 = await paidStep1(id);
      assert.equal(
        (await api('POST', `/api/v1/events/${id}/registrations/${s1.registrationId}/cancel`)).status,
        200,
      );
      const paymentId = await pay(s1.orderId);
      const late = await register(id, { registrationId: s1.registrationId, orderId: s1.orderId, paymentId });
      assert.equal(late.status, 409);
      assert.match(late.body.error, /refunded/);
      await drainJobs(server, async () => (await sandboxPaymentRow(server, paymentId)).status === 'refunded');
      assert.equal((await registration(id, s1.registrationId)).status, 'cancelled');
      // The notification for the same payment changes nothing more.
      assert.equal((await api('POST', `/api/v1/sandbox/orders/${s1.orderId}/paid`)).body.result, 'ignored');
    });

    it('is confirmed exactly once by the gateway’s paid notification, however often it arrives', async () => {
      const id = await event({ price: 300, capacity: 10 });
      const s1 = await paidStep1(id);
      const first = await api('POST', `/api/v1/sandbox/orders/${s1.orderId}/paid`);
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.result, 'confirmed');
      const again = await Promise.all(
        [1, 2, 3].map(() => api('POST', `/api/v1/sandbox/orders/${s1.orderId}/paid`)),
      );
      assert.deepEqual(
        again.map((a) => a.body.result),
        ['ignored', 'ignored', 'ignored'],
      );
      assert.equal((await availability(id)).taken, 1);
      const reg = await registration(id, s1.registrationId);
      assert.equal(reg.status, 'confirmed');
      // The browser comes back later with step 2: same truth.
      const s2 = await register(id, {
        registrationId: s1.registrationId,
        orderId: s1.orderId,
        paymentId: first.body.paymentId,
      });
      assert.equal(s2.status, 200);
    });

    it('refuses live registrations with 409 payments_not_configured when the gateway is not configured, storing nothing and naming no setting', async () => {
      const account = await signup(server.url, { email: uniqueEmail('live') });
      const live = await createKey(server.url, account.token, { mode: 'live' });
      const staff = await signup(server.url, { email: staffEmail }).catch(async () => {
        const r = await call(server.url, 'POST', '/auth/login', {
          body: { email: staffEmail, password: 'correct horse battery' },
        });
        return { token: r.body.idToken } as Account;
      });
      await call(server.url, 'POST', `/admin/api/accounts/${account.userId}/organiser-access`, {
        token: staff.token,
        body: { canPublish: true },
      });
      const id = await event({ price: 100 }, live.key);
      const draft = await register(id, person(), live.key);
      assert.equal(draft.status, 409, 'a live draft takes no registrations');
      const publish = await api('PATCH', `/api/v1/events/${id}`, { status: 'published' }, live.key);
      assert.equal(
        publish.status,
        409,
        'a paid live event is not published while the service takes no live payments',
      );
      assert.equal(publish.body.code, 'payments_not_configured');
      // As if the keys were taken away after it was published.
      await forcePublished(server, id);
      const r = await register(id, person(), live.key);
      assert.equal(r.status, 409);
      assert.equal(r.body.code, 'payments_not_configured');
      assert.doesNotMatch(
        r.body.error,
        /RAZORPAY|KEY_ID|KEY_SECRET|configured/i,
        'a buyer may read it: no setting is named',
      );
      assert.equal(
        (await api('GET', `/api/v1/events/${id}/registrations`, undefined, live.key)).body.count,
        0,
      );
    });
  });

  describe('tiers, tracks, promo codes, questions and teams', () => {
    it('charges the tier price and enforces the tier capacity', async () => {
      const id = await event({
        price: 100,
        capacity: 10,
        specialPrices: [
          { name: 'Free pass', price: 0, capacity: 1 },
          { name: 'VIP', price: 900 },
        ],
      });
      const vip = await paidStep1(id, { ticketType: 'VIP' });
      assert.equal(vip.amount, 90000);
      const free = await register(id, { ...person(), ticketType: 'Free pass' });
      assert.equal(free.status, 201);
      assert.equal(free.body.status, 'confirmed');
      assert.equal((await registration(id, free.body.registrationId)).ticketType, 'Free pass');
      const full = await register(id, { ...person(), ticketType: 'Free pass' });
      assert.equal(full.status, 409);
      const unknown = await register(id, { ...person(), ticketType: 'Backstage' });
      assert.equal(unknown.status, 400);
      const a = await availability(id);
      assert.deepEqual([a.taken, a.tiers[0].taken, a.tiers[0].soldOut], [1, 1, true]);
    });

    it('refuses a members-only tier to an email without a membership in good standing (403)', async () => {
      const id = await event({ specialPrices: [{ name: 'Members', price: 0, membersOnly: true }] });
      const r = await register(id, { ...person(), ticketType: 'Members' });
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'members_only');
    });

    it('books a track at its price and capacity with subEventId', async () => {
      const id = await event({
        price: 500,
        tracks: [
          { title: 'Morning', price: 0, capacity: 1 },
          { title: 'Evening', price: 200 },
        ],
      });
      const morning = await register(id, { ...person(), subEventId: '0' });
      assert.equal(morning.status, 201);
      assert.equal(morning.body.status, 'confirmed', 'the track is free');
      assert.equal((await registration(id, morning.body.registrationId)).subEventId, '0');
      assert.equal((await register(id, { ...person(), subEventId: '0' })).status, 409);
      const evening = await paidStep1(id, { subEventId: '1' });
      assert.equal(evening.amount, 20000);
      assert.equal((await register(id, { ...person(), subEventId: '5' })).status, 404);
      assert.equal((await register(id, { ...person(), subEventId: 'one' })).status, 400);
      assert.equal((await availability(id, '?subEventId=0')).remaining, 0);
    });

    it('applies promo codes server-side and refuses unknown, out-of-date and used-up codes with 400', async () => {
      const id = await event({ price: 1000 });
      const mk = (body: Record<string, unknown>) => api('POST', `/api/v1/events/${id}/promo-codes`, body);
      assert.equal((await mk({ code: 'TENOFF', discountPercent: 10 })).status, 201);
      assert.equal((await mk({ code: 'FLAT', discountAmount: 250.5 })).status, 201);
      assert.equal((await mk({ code: 'ALL', discountPercent: 100, maxUses: 1 })).status, 201);
      assert.equal((await mk({ code: 'LATER', discountPercent: 50, validFrom: '2099-01-01' })).status, 201);
      assert.equal(
        (await mk({ code: 'tenoff', discountPercent: 5 })).status,
        409,
        'codes are case-insensitive',
      );
      assert.equal((await mk({ code: 'BOTH', discountPercent: 5, discountAmount: 5 })).status, 400);

      assert.equal((await paidStep1(id, { promoCode: 'tenoff' })).amount, 90000);
      assert.equal((await paidStep1(id, { promoCode: 'FLAT' })).amount, 74950);
      const free = await register(id, { ...person(), promoCode: 'ALL' });
      assert.equal(free.status, 201);
      assert.equal(free.body.status, 'confirmed', 'a discount to 0 confirms like a free event');
      for (const code of ['NOPE', 'LATER', 'ALL']) {
        const r = await register(id, { ...person(), promoCode: code });
        assert.equal(r.status, 400, code);
      }
      const list = await api('GET', `/api/v1/events/${id}/promo-codes`);
      assert.equal(list.body.data.find((p: any) => p.code === 'ALL').uses, 1);
    });

    it('validates answers to the event’s questions', async () => {
      const id = await event({
        customFields: [
          { name: 'company', required: true },
          { name: 'size', type: 'select', options: ['S', 'M'] },
          { name: 'age', type: 'number' },
        ],
      });
      const bad = [
        { company: 'A', colour: 'red' },
        { size: 'M' },
        { company: 'A', size: 'XL' },
        { company: 'A', age: 'ten' },
      ];
      for (const customFields of bad)
        assert.equal(
          (await register(id, { ...person(), customFields })).status,
          400,
          JSON.stringify(customFields),
        );
      const ok = await register(id, { ...person(), customFields: { company: 'A', size: 'S', age: 30 } });
      assert.equal(ok.status, 201);
      assert.deepEqual((await registration(id, ok.body.registrationId)).customFields, {
        company: 'A',
        size: 'S',
        age: 30,
      });
      assert.equal((await api('GET', `/api/v1/events/${id}/registrations`)).body.count, 1);
    });

    it('gives each team member an own ticket id and holds 1 + members seats', async () => {
      const id = await event({ maxTeamSize: 3, capacity: 4 });
      const r = await register(id, { ...person(), teamMembers: [person('m1'), person('m2')] });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.ticketIds.length, 3);
      assert.equal(new Set(r.body.ticketIds).size, 3);
      const reg = await registration(id, r.body.registrationId);
      assert.equal(reg.quantity, 3);
      assert.deepEqual(
        reg.teamMembers.map((m: any) => m.id),
        r.body.ticketIds.slice(1),
      );
      assert.ok(
        reg.teamMembers.every((m: any) => /^tkt_[A-Za-z0-9_-]{22}$/.test(m.id) && m.checkedIn === false),
      );
      assert.equal((await availability(id)).taken, 3);
      assert.equal(
        (await register(id, { ...person(), teamMembers: [person()] })).status,
        409,
        'two seats do not fit in one',
      );
      assert.equal(
        (await register(id, { ...person(), teamMembers: [person(), person(), person()] })).status,
        400,
        'team too large',
      );
      assert.equal(
        (await register(id, { ...person(), teamMembers: [{ name: 'X', email: 'not-an-email' }] })).status,
        400,
      );
      const solo = await event();
      assert.equal(
        (await register(solo, { ...person(), teamMembers: [person()] })).status,
        400,
        'not a team event',
      );
    });

    it('refuses an email that cannot receive mail with 400', async () => {
      const id = await event();
      for (const email of [
        'nobody',
        'a@b',
        'x@example.invalid',
        'x@host.test',
        'x@foo.localhost',
        'x@site.example',
      ]) {
        const r = await register(id, { name: 'X', email });
        assert.equal(r.status, 400, email);
      }
    });
  });

  describe('after confirmation', () => {
    it('cancels and frees the seat; a paid booking is refunded in full', async () => {
      const id = await event({ price: 150, capacity: 1 });
      const s1 = await paidStep1(id);
      const paymentId = await pay(s1.orderId);
      await register(id, { registrationId: s1.registrationId, orderId: s1.orderId, paymentId });
      assert.equal((await availability(id)).remaining, 0);
      const c = await api('POST', `/api/v1/events/${id}/registrations/${s1.registrationId}/cancel`);
      assert.equal(c.status, 200, c.text);
      assert.equal(c.body.data.status, 'cancelled');
      assert.equal((await availability(id)).remaining, 1);
      assert.equal((await sandboxPaymentRow(server, paymentId)).status, 'refunded');
      assert.equal(
        (await api('POST', `/api/v1/events/${id}/registrations/${s1.registrationId}/cancel`)).status,
        409,
      );
    });

    it('refunds a paid booking: refunded, seats freed; a free one has nothing to refund', async () => {
      const id = await event({ price: 150 });
      const s1 = await paidStep1(id);
      const paymentId = await pay(s1.orderId);
      await register(id, { registrationId: s1.registrationId, orderId: s1.orderId, paymentId });
      const r = await api('POST', `/api/v1/events/${id}/registrations/${s1.registrationId}/refund`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.data.status, 'refunded');
      assert.equal((await availability(id)).taken, 0);
      const freeEvent = await event();
      const f = await register(freeEvent, person());
      assert.equal(
        (await api('POST', `/api/v1/events/${freeEvent}/registrations/${f.body.registrationId}/refund`))
          .status,
        409,
      );
    });

    it('transfers a ticket: a new ticketCode and the new holder', async () => {
      const id = await event();
      const r = await register(id, person());
      const newHolder = { name: 'Ravi Kumar', email: uniqueEmail('ravi') };
      const t = await api(
        'POST',
        `/api/v1/events/${id}/registrations/${r.body.registrationId}/transfer`,
        newHolder,
      );
      assert.equal(t.status, 200, t.text);
      assert.match(t.body.data.ticketCode, /^tkt_[A-Za-z0-9_-]{22}$/);
      assert.equal(t.body.data.name, 'Ravi Kumar');
      assert.equal(t.body.data.email, newHolder.email);
      const t2 = await api(
        'POST',
        `/api/v1/events/${id}/registrations/${r.body.registrationId}/transfer`,
        person(),
      );
      assert.notEqual(t2.body.data.ticketCode, t.body.data.ticketCode);
    });

    it('keeps attendee data from checkout keys; a checkout key may register', async () => {
      const id = await event();
      const checkout = await createKey(server.url, org.token, { class: 'checkout' });
      const r = await register(id, person(), checkout.key);
      assert.equal(r.status, 201);
      for (const path of [
        `/api/v1/events/${id}/registrations`,
        `/api/v1/events/${id}/registrations/${r.body.registrationId}`,
      ]) {
        const denied = await api('GET', path, undefined, checkout.key);
        assert.equal(denied.status, 403);
        assert.equal(denied.body.code, 'checkout_key_not_allowed');
      }
      assert.equal(
        (
          await api(
            'POST',
            `/api/v1/events/${id}/registrations/${r.body.registrationId}/cancel`,
            undefined,
            checkout.key,
          )
        ).status,
        403,
      );
    });
  });
});
