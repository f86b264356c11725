// An event's per-buyer limit (`onSale.perBuyerLimit`, docs/decisions/26-a-fair-waiting-room.md):
// the tickets one buyer holds on the event — by email and by phone, across the bookings that still
// hold seats — and this booking's may not exceed it, whichever way it is booked; and while the
// waiting room is on a checkout key's call of register needs the admission token (a full key and a
// waitlist offer's holder are not asked).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEventData, keyApi, type Api } from '../helpers/factories.js';
import { call, createKey, organiser, type Account, type KeyInfo } from '../helpers/http.js';
import { place, queueStatus } from '../helpers/queue.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { offerMailTo } from '../helpers/waitlist.js';

describe('the per-buyer limit and checkout-key admission', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let api: Api;
  let pk: string;
  before(async () => {
    server = await startServer({ isolatedDatabase: true });
    org = await organiser(server.url, 'test');
    api = keyApi(server.url, org.key);
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
  });
  after(async () => server.close());

  const limited = (limit: number, fields: Record<string, unknown> = {}) =>
    createEventData(
      api,
      { capacity: 50, maxTeamSize: 5, ...fields, onSale: { perBuyerLimit: limit } },
      { publish: true },
    );
  const team = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ name: `M${i}`, email: `m${i}@example.in` }));
  const book = (eventId: string, body: Record<string, unknown>, key = org.key) =>
    call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
      body: { name: 'Asha Rao', ...body },
      key,
    });
  const refused = (r: { status: number; body: any; text: string }, limit: number) => {
    assert.equal(r.status, 409, r.text);
    assert.equal(r.body.code, 'per_buyer_limit_reached');
    assert.equal(r.body.limit, limit);
    assert.match(r.body.error, new RegExp(`at most ${limit} ticket`));
  };

  it('counts the tickets of every order of one email, however it is written', async () => {
    const ev = await limited(4);
    assert.equal((await book(ev.id, { email: 'asha@example.in', teamMembers: team(1) })).status, 201);
    refused(await book(ev.id, { email: ' ASHA@Example.in ', teamMembers: team(2) }), 4);
    const more = await book(ev.id, { email: 'Asha@example.in', teamMembers: team(1) });
    assert.equal(more.status, 201, more.text);
    refused(await book(ev.id, { email: 'asha@example.in' }), 4);
    // Another buyer is not counted with her.
    assert.equal((await book(ev.id, { email: 'ravi@example.in', teamMembers: team(3) })).status, 201);
    // A single ticket over the limit at once is refused too.
    refused(await book(ev.id, { email: 'kiran@example.in', teamMembers: team(4) }), 4);
  });

  it('counts by phone across different emails', async () => {
    const ev = await limited(2);
    const phone = '+919812345678';
    assert.equal((await book(ev.id, { email: 'a1@example.in', phone, teamMembers: team(1) })).status, 201);
    // The same number written another way is the same phone.
    refused(await book(ev.id, { email: 'a2@example.in', phone: '98123 45678' }), 2);
    const other = await book(ev.id, { email: 'a2@example.in', phone: '+919800000000' });
    assert.equal(other.status, 201, other.text);
  });

  it('counts pending orders, awaiting payment or approval', async () => {
    const paid = await limited(1, { price: 100 });
    const order = await book(paid.id, { email: 'pay@example.in' });
    assert.equal(order.status, 201, order.text);
    assert.ok(order.body.orderId, 'pending at the gateway');
    refused(await book(paid.id, { email: 'pay@example.in' }), 1);
    const offline = await limited(1, {
      price: 100,
      offlinePayment: { enabled: true, methods: ['bank_transfer'] },
    });
    const transfer = await book(offline.id, { email: 'bank@example.in', paymentMethod: 'bank_transfer' });
    assert.equal(transfer.body.status, 'pending', transfer.text);
    refused(await book(offline.id, { email: 'bank@example.in', paymentMethod: 'bank_transfer' }), 1);
    refused(await book(offline.id, { email: 'bank@example.in' }), 1);
    const approval = await limited(1, { requiresApproval: true });
    const waiting = await book(approval.id, { email: 'ask@example.in' });
    assert.equal(waiting.body.status, 'pending', waiting.text);
    refused(await book(approval.id, { email: 'ask@example.in' }, pk), 1);
  });

  it('does not count a cancelled booking', async () => {
    const ev = await limited(2);
    const first = await book(ev.id, { email: 'c@example.in', teamMembers: team(1) });
    assert.equal(first.status, 201, first.text);
    refused(await book(ev.id, { email: 'c@example.in' }), 2);
    const cancel = await api(
      'POST',
      `/api/v1/events/${ev.id}/registrations/${first.body.registrationId}/cancel`,
      {},
    );
    assert.equal(cancel.status, 200, cancel.text);
    const again = await book(ev.id, { email: 'c@example.in', teamMembers: team(1) });
    assert.equal(again.status, 201, again.text);
  });

  it('asks a checkout key for the admission token while the room is on, not a full key', async () => {
    const ev = await createEventData(
      api,
      { capacity: 10, onSale: { waitingRoom: { enabled: true, admitPerMinute: 60 } } },
      { publish: true },
    );
    const none = await book(ev.id, { email: 'q@example.in' }, pk);
    assert.equal(none.status, 403, none.text);
    assert.equal(none.body.code, 'admission_required');
    assert.equal(none.body.field, 'admissionToken');
    const q = await place(server.url, ev.slug, 'q@example.in');
    await queueStatus(server.url, ev.slug, q.statusToken);
    server.clock.advance(1_000);
    const token = (await queueStatus(server.url, ev.slug, q.statusToken)).admissionToken!;
    assert.ok(token);
    const wrong = await book(ev.id, { email: 'other@example.in', admissionToken: token }, pk);
    assert.equal(wrong.body.code, 'admission_required');
    const ok = await book(ev.id, { email: 'q@example.in', admissionToken: token }, pk);
    assert.equal(ok.status, 201, ok.text);
    const full = await book(ev.id, { email: 'direct@example.in' });
    assert.equal(full.status, 201, full.text);
  });

  it('lets a waitlist offer holder book without a token, on the page and by a checkout key', async () => {
    const ev = await createEventData(
      api,
      {
        capacity: 2,
        waitlist: { enabled: true, offerMinutes: 30 },
        onSale: { waitingRoom: { enabled: true }, perBuyerLimit: 1 },
      },
      { publish: true },
    );
    const ids: string[] = [];
    for (const email of ['s1@example.in', 's2@example.in']) {
      const r = await book(ev.id, { email });
      assert.equal(r.status, 201, r.text);
      ids.push(r.body.registrationId);
    }
    for (const email of ['w1@example.in', 'w2@example.in']) {
      const joined = await api('POST', `/api/v1/events/${ev.id}/waitlist`, { name: 'Wen', email });
      assert.equal(joined.status, 201, joined.text);
    }
    for (const id of ids) {
      const c = await api('POST', `/api/v1/events/${ev.id}/registrations/${id}/cancel`, {});
      assert.equal(c.status, 200, c.text);
    }
    const w1 = (await offerMailTo(server, api, 'w1@example.in')).token;
    const paged = await call(server.url, 'POST', `/e/${ev.slug}/register`, {
      body: { key: pk, name: 'Wen', email: 'w1@example.in', offer: w1 },
      headers: { origin: server.url },
    });
    assert.equal(paged.status, 201, paged.text);
    const w2 = (await offerMailTo(server, api, 'w2@example.in')).token;
    const keyed = await book(ev.id, { email: 'w2@example.in', waitlistOffer: w2 }, pk);
    assert.equal(keyed.status, 201, keyed.text);
  });
});
