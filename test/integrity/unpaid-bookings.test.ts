// Unpaid bookings hold nothing for long (docs/decisions/14-trust-and-safety-second-round.md): a paid booking is payable
// for CHECKOUT_WINDOW_MINUTES, then cancelled with its promo use released; at most 3 per
// email and 20 per client address wait for payment at once per event; unknown, expired and
// used-up promo codes answer alike.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sweep } from '../../src/modules/reconciliation/reconcile.service.js';
import { call, createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

const MINUTE = 60_000;

describe('unpaid bookings hold nothing for long', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let pk: string;

  before(async () => {
    server = await startServer({ isolatedDatabase: true });
    org = await organiser(server.url, 'test');
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
  });
  after(async () => {
    await server.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  async function paidEvent(fields: Record<string, unknown> = {}) {
    const id = await createEvent(api, { title: 'Gig', description: 'Music', price: 1000, ...fields });
    return { id, slug: (await api('GET', `/api/v1/events/${id}`)).body.data.slug as string };
  }
  /** The hosted page's own call, as the page (served from the service) makes it. */
  const fromPage = (slug: string, body: Record<string, unknown>, key = pk) =>
    call(server.url, 'POST', `/e/${slug}/register`, {
      body: { key, ...body },
      headers: { origin: server.url },
    });
  const codeState = async (eventId: string, code: string) => {
    const p = (await api('GET', `/api/v1/events/${eventId}/promo-codes`)).body.data.find(
      (x: any) => x.code === code,
    );
    return { uses: p.uses, usesReserved: p.usesReserved };
  };

  it('three unpaid bookings that used up a maxUses:3 code give it back once the window passes; a 4th for the email is 429', async () => {
    const ev = await paidEvent();
    assert.equal(
      (
        await api('POST', `/api/v1/events/${ev.id}/promo-codes`, {
          code: 'SQUAT',
          discountPercent: 50,
          maxUses: 3,
        })
      ).status,
      201,
    );
    const squatter = uniqueEmail('squatter');
    for (let i = 0; i < 3; i++) {
      const r = await fromPage(ev.slug, { name: 'Squatter', email: squatter, promoCode: 'SQUAT' });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.status, 'payment_required');
    }
    assert.deepEqual(await codeState(ev.id, 'SQUAT'), { uses: 0, usesReserved: 3 });

    // The 4th unpaid booking for the same email, with or without a code.
    const fourth = await fromPage(ev.slug, { name: 'Squatter', email: squatter.toUpperCase() });
    assert.equal(fourth.status, 429, fourth.text);
    assert.equal(fourth.body.code, 'too_many_pending');
    const viaApi = await api(
      'POST',
      `/api/v1/events/${ev.id}/register`,
      { name: 'Squatter', email: squatter },
      pk,
    );
    assert.deepEqual([viaApi.status, viaApi.body.code], [429, 'too_many_pending']);

    // A real buyer meanwhile: the code is used up, said like any invalid code.
    const buyer = await fromPage(ev.slug, { name: 'Buyer', email: uniqueEmail('buyer'), promoCode: 'SQUAT' });
    assert.deepEqual([buyer.status, buyer.body.code], [400, 'promo_code_invalid']);

    // Within the window nothing lapses.
    server.clock.advance(29 * MINUTE);
    await sweep(server.deps);
    assert.deepEqual(await codeState(ev.id, 'SQUAT'), { uses: 0, usesReserved: 3 });

    // Past CHECKOUT_WINDOW_MINUTES (30) the sweep cancels them and the uses come back.
    server.clock.advance(2 * MINUTE);
    const summary = await sweep(server.deps);
    assert.ok(summary.expired >= 3, JSON.stringify(summary));
    assert.deepEqual(await codeState(ev.id, 'SQUAT'), { uses: 0, usesReserved: 0 });
    const regs = (await api('GET', `/api/v1/events/${ev.id}/registrations`)).body.data.filter(
      (r: any) => r.email === squatter,
    );
    assert.deepEqual(
      regs.map((r: any) => r.status),
      ['cancelled', 'cancelled', 'cancelled'],
    );

    const again = await fromPage(ev.slug, { name: 'Buyer', email: uniqueEmail('buyer'), promoCode: 'SQUAT' });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.amount, 50000, 'the code applies again');
    assert.equal(
      (await fromPage(ev.slug, { name: 'Squatter', email: squatter })).status,
      201,
      'the email may book again',
    );
  });

  it('holds at most 20 unpaid bookings per client address per event from browsers; a full key is not limited by address', async () => {
    const ev = await paidEvent();
    for (let i = 0; i < 20; i++) {
      const r = await fromPage(ev.slug, { name: 'Bot', email: uniqueEmail(`bot${i}`) });
      assert.equal(r.status, 201, r.text);
    }
    const over = await fromPage(ev.slug, { name: 'Bot', email: uniqueEmail('bot') });
    assert.deepEqual([over.status, over.body.code], [429, 'too_many_pending']);
    const overApi = await api(
      'POST',
      `/api/v1/events/${ev.id}/register`,
      { name: 'Bot', email: uniqueEmail('bot') },
      pk,
    );
    assert.deepEqual(
      [overApi.status, overApi.body.code],
      [429, 'too_many_pending'],
      'a checkout key on the API alike',
    );
    const server2server = await api('POST', `/api/v1/events/${ev.id}/register`, {
      name: 'Guest',
      email: uniqueEmail('guest'),
    });
    assert.equal(server2server.status, 201, 'the organiser’s server books for many buyers from one address');
    // Another event is counted on its own.
    const other = await paidEvent();
    assert.equal((await fromPage(other.slug, { name: 'Bot', email: uniqueEmail('bot') })).status, 201);
  });

  it('lets no burst of parallel step 1s for one email past the cap', async () => {
    const ev = await paidEvent();
    const email = uniqueEmail('burst');
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => fromPage(ev.slug, { name: 'Burst', email })),
    );
    assert.equal(replies.filter((r) => r.status === 201).length, 3, replies.map((r) => r.status).join(','));
    for (const r of replies.filter((x) => x.status !== 201))
      assert.deepEqual([r.status, r.body.code], [429, 'too_many_pending']);
    const waiting = (await api('GET', `/api/v1/events/${ev.id}/registrations`)).body.data.filter(
      (r: any) => r.email === email && r.status === 'pending',
    );
    assert.equal(waiting.length, 3, 'no booking was written past the cap');
  });

  it('answers unknown, expired and used-up codes with the same 400 promo_code_invalid and sentence', async () => {
    const ev = await paidEvent();
    await api('POST', `/api/v1/events/${ev.id}/promo-codes`, {
      code: 'OLD',
      discountPercent: 10,
      validUntil: '2020-01-01T00:00:00Z',
    });
    await api('POST', `/api/v1/events/${ev.id}/promo-codes`, {
      code: 'LATER',
      discountPercent: 10,
      validFrom: '2099-01-01T00:00:00Z',
    });
    await api('POST', `/api/v1/events/${ev.id}/promo-codes`, {
      code: 'ONE',
      discountPercent: 10,
      maxUses: 1,
    });
    assert.equal(
      (await fromPage(ev.slug, { name: 'A', email: uniqueEmail(), promoCode: 'ONE' })).status,
      201,
    );
    const answers = [];
    for (const promoCode of ['NOPE', 'OLD', 'LATER', 'ONE']) {
      for (const key of [pk, org.key]) {
        const r = await api(
          'POST',
          `/api/v1/events/${ev.id}/register`,
          { name: 'B', email: uniqueEmail(), promoCode },
          key,
        );
        answers.push({ status: r.status, body: r.body });
      }
      const page = await fromPage(ev.slug, { name: 'B', email: uniqueEmail(), promoCode });
      answers.push({ status: page.status, body: page.body });
    }
    for (const a of answers) assert.deepEqual(a, answers[0]);
    assert.equal(answers[0]!.status, 400);
    assert.equal(answers[0]!.body.code, 'promo_code_invalid');
    assert.doesNotMatch(
      answers[0]!.body.error,
      /NOPE|used up|expired|unknown/i,
      'the sentence names no reason and echoes no code',
    );
  });
});
