// Promo codes never exceed maxUses (docs/decisions/12-money-integrity.md): a use is reserved with the
// booking's order at step 1, becomes a use at confirmation, and goes back when the
// booking ends unpaid (cancelled, rejected, expired by reconciliation).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sweep } from '../../src/modules/reconciliation/reconcile.service.js';
import { organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi, payInSandbox } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('promo code limits', () => {
  let server: TestServer;
  let org: Account & KeyInfo;

  before(async () => {
    server = await startServer({ isolatedDatabase: true });
    org = await organiser(server.url);
  });
  after(async () => {
    await server.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const event = (fields: Record<string, unknown> = {}) =>
    createEvent(api, { title: 'Gig', description: 'Music', price: 1000, ...fields });
  const promo = async (eventId: string, body: Record<string, unknown>) =>
    assert.equal((await api('POST', `/api/v1/events/${eventId}/promo-codes`, body)).status, 201);
  const register = (eventId: string, extra: Record<string, unknown> = {}) =>
    api('POST', `/api/v1/events/${eventId}/register`, {
      name: 'Asha Rao',
      email: uniqueEmail('promo'),
      ...extra,
    });
  const pay = (orderId: string) => payInSandbox(api, orderId);
  const codeState = async (eventId: string, code: string) => {
    const p = (await api('GET', `/api/v1/events/${eventId}/promo-codes`)).body.data.find(
      (x: any) => x.code === code,
    );
    return { uses: p.uses, usesReserved: p.usesReserved };
  };

  it('gives a one-use code to one paid booking only, and confirms the one that paid', async () => {
    const id = await event();
    await promo(id, { code: 'ONCE', discountPercent: 50, maxUses: 1 });
    const first = await register(id, { promoCode: 'ONCE' });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.amount, 50000);
    for (let i = 0; i < 2; i++) {
      const again = await register(id, { promoCode: 'ONCE' });
      assert.equal(again.status, 400, 'the reserved use is not handed out twice');
      assert.equal(again.body.code, 'promo_code_invalid');
    }
    assert.deepEqual(await codeState(id, 'ONCE'), { uses: 0, usesReserved: 1 });
    const paymentId = await pay(first.body.orderId);
    const step2 = await api('POST', `/api/v1/events/${id}/register`, {
      registrationId: first.body.registrationId,
      orderId: first.body.orderId,
      paymentId,
    });
    assert.equal(step2.status, 200, step2.text);
    assert.deepEqual(await codeState(id, 'ONCE'), { uses: 1, usesReserved: 0 });
  });

  it('never exceeds maxUses under a burst of concurrent paid and free bookings', async () => {
    const id = await event();
    await promo(id, { code: 'THREE', discountPercent: 10, maxUses: 3 });
    const paid = await Promise.all(Array.from({ length: 10 }, () => register(id, { promoCode: 'THREE' })));
    assert.equal(paid.filter((r) => r.status === 201).length, 3);
    assert.ok(paid.filter((r) => r.status !== 201).every((r) => r.body.code === 'promo_code_invalid'));
    for (const r of paid.filter((x) => x.status === 201)) {
      const paymentId = await pay(r.body.orderId);
      const s2 = await api('POST', `/api/v1/events/${id}/register`, {
        registrationId: r.body.registrationId,
        orderId: r.body.orderId,
        paymentId,
      });
      assert.equal(s2.status, 200, 'nobody who paid the discounted price is refused');
    }
    assert.deepEqual(await codeState(id, 'THREE'), { uses: 3, usesReserved: 0 });

    await promo(id, { code: 'FREE2', discountPercent: 100, maxUses: 2 });
    const free = await Promise.all(Array.from({ length: 6 }, () => register(id, { promoCode: 'FREE2' })));
    assert.equal(free.filter((r) => r.status === 201 && r.body.status === 'confirmed').length, 2);
    assert.deepEqual(await codeState(id, 'FREE2'), { uses: 2, usesReserved: 0 });
  });

  it('releases the reservation of a booking cancelled, rejected or expired unpaid', async () => {
    const id = await event();
    await promo(id, { code: 'BACK', discountPercent: 20, maxUses: 1 });
    const a = await register(id, { promoCode: 'BACK' });
    assert.equal(a.status, 201);
    assert.equal((await register(id, { promoCode: 'BACK' })).status, 400);
    assert.equal(
      (await api('POST', `/api/v1/events/${id}/registrations/${a.body.registrationId}/cancel`)).status,
      200,
    );
    assert.deepEqual(await codeState(id, 'BACK'), { uses: 0, usesReserved: 0 });

    // Expired unpaid by the reconciliation sweep a day after step 1.
    const b = await register(id, { promoCode: 'BACK' });
    assert.equal(b.status, 201, 'the cancelled booking gave its use back');
    server.clock.advance(25 * 3_600_000);
    await sweep(server.deps);
    const reg = (await api('GET', `/api/v1/events/${id}/registrations/${b.body.registrationId}`)).body.data;
    assert.equal(reg.status, 'cancelled');
    assert.deepEqual(await codeState(id, 'BACK'), { uses: 0, usesReserved: 0 });

    // A free booking awaiting approval holds its use until approved or rejected.
    const approval = await event({ price: 0, requiresApproval: true });
    await promo(approval, { code: 'VIP', discountPercent: 100, maxUses: 1 });
    const c = await register(approval, { promoCode: 'VIP' });
    assert.equal(c.body.status, 'pending');
    assert.equal((await register(approval, { promoCode: 'VIP' })).status, 400);
    assert.equal(
      (await api('POST', `/api/v1/events/${approval}/registrations/${c.body.registrationId}/reject`)).status,
      200,
    );
    const d = await register(approval, { promoCode: 'VIP' });
    assert.equal(d.status, 201);
    assert.equal(
      (await api('POST', `/api/v1/events/${approval}/registrations/${d.body.registrationId}/approve`)).status,
      200,
    );
    assert.deepEqual(await codeState(approval, 'VIP'), { uses: 1, usesReserved: 0 });
  });
});
