// The hosted page's order summary and confirmation calls: the quote prices a choice like a
// booking and names the field it refuses; the ticket token shows the buyer's own ticket
// and nothing else — not another event's, not a made-up or transferred one, no personal data.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import ICAL from 'ical.js';
import { call, createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEventData, keyApi } from '../helpers/factories.js';
import { decodeQr } from '../helpers/qr.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('hosted page: quote and ticket', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let pk: string;
  let ev: { id: string; slug: string };

  before(async () => {
    server = await startServer();
    org = await organiser(server.url, 'test');
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
    ev = await createEventData(keyApi(server.url, org.key), {
      title: 'Quote fest',
      startDate: '2026-12-12T10:00+05:30',
      endDate: '2026-12-12T17:30+05:30',
      location: 'Pune',
      price: 100,
      maxTeamSize: 4,
      tracks: [{ title: 'Masterclass', price: 499 }],
      specialPrices: [{ name: 'Student', price: 50 }],
    });
    await call(server.url, 'POST', `/api/v1/events/${ev.id}/promo-codes`, {
      key: org.key,
      body: { code: 'TENOFF', discountPercent: 10 },
    });
  });
  after(async () => server.close());

  // fixture-exception: the hosted page's own calls (the checkout key in the body), this file's subject
  const page = (method: string, path: string, body?: Record<string, unknown>) =>
    call(server.url, method, `/e/${ev.slug}${path}`, { body: body && { key: pk, ...body } });

  it('prices a choice as a booking would: tier over track over event, times the people, less the code', async () => {
    assert.deepEqual((await page('POST', '/quote', { quantity: 1 })).body, {
      currency: 'INR',
      quantity: 1,
      unitPrice: 10000,
      subtotal: 10000,
      discount: 0,
      total: 10000,
    });
    assert.equal((await page('POST', '/quote', { quantity: 2, subEventId: '0' })).body.total, 99800);
    assert.equal(
      (await page('POST', '/quote', { quantity: 2, subEventId: '0', ticketType: 'Student' })).body.total,
      10000,
    );
    assert.deepEqual(
      (await page('POST', '/quote', { quantity: 3, subEventId: '0', promoCode: 'tenoff' })).body,
      { currency: 'INR', quantity: 3, unitPrice: 49900, subtotal: 149700, discount: 14970, total: 134730 },
    );
  });

  it('refuses naming the field: a bad code, an unknown tier or track, too many people', async () => {
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ quantity: 1, promoCode: 'NOPE' }, 400, 'promo_code_invalid', 'promoCode'],
      [{ quantity: 1, ticketType: 'VIP' }, 400, 'unknown_ticket_type', 'ticketType'],
      [{ quantity: 1, subEventId: '7' }, 404, 'track_not_found', 'subEventId'],
      [{ quantity: 5 }, 400, 'team_too_large', 'teamMembers'],
    ];
    for (const [body, status, code, field] of cases) {
      const r = await page('POST', '/quote', body);
      assert.deepEqual([r.status, r.body.code, r.body.field], [status, code, field], JSON.stringify(body));
    }
    const reg = await page('POST', '/register', { name: 'A', email: 'a@example.invalid' });
    assert.deepEqual([reg.status, reg.body.field], [400, 'email'], 'register names the field too');
  });

  it('shows the buyer’s own confirmed ticket by its token: QR, what was booked, the .ics; never personal data', async () => {
    const email = uniqueEmail('buyer');
    const r = await page('POST', '/register', {
      name: 'Asha',
      email,
      ticketType: 'Student',
      subEventId: '0',
      teamMembers: [{ name: 'Ravi', email: uniqueEmail('ravi') }],
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.status, 'payment_required');
    const token = r.body.ticket as string;
    assert.deepEqual(
      (await page('GET', `/tickets/${token}`)).body,
      { status: 'pending' },
      'no ticket before payment',
    );
    assert.equal((await page('GET', `/tickets/${token}/calendar.ics`)).status, 404);
    const paid = await page('POST', '/sandbox-checkout', { orderId: r.body.orderId, outcome: 'success' });
    assert.equal((await page('POST', '/payment', paid.body)).status, 200);

    const view = await page('GET', `/tickets/${token}`);
    assert.equal(view.status, 200, view.text);
    const t = view.body.ticket;
    const regId = token.split('.')[0];
    assert.equal(t.ticketId, regId);
    assert.equal(decodeQr(Buffer.from(t.qr.split(',')[1], 'base64')), regId);
    assert.deepEqual(
      [t.event, t.session, t.ticketType, t.quantity, t.amount, t.wallet],
      [
        { title: 'Quote fest', when: 'Sat 12 Dec 2026, 10:00 am – 5:30 pm IST', location: 'Pune' },
        'Masterclass',
        'Student',
        2,
        10000,
        [],
      ],
    );
    assert.doesNotMatch(view.text, /Asha|Ravi|@/, 'no name or email');
    const ics = await call(server.url, 'GET', t.calendarUrl);
    assert.equal(ics.status, 200);
    assert.match(ics.headers.get('content-type')!, /^text\/calendar/);
    assert.match(ics.headers.get('content-disposition')!, /^attachment; filename="quote-fest.*\.ics"$/);
    assert.equal(
      new ICAL.Event(new ICAL.Component(ICAL.parse(ics.text)).getFirstSubcomponent('vevent')!).uid,
      regId,
    );
  });

  it('answers 404 for a made-up token, another event’s token, and a token retired by a transfer', async () => {
    const other = await createEventData(keyApi(server.url, org.key), { title: 'Other' });
    const booked = await call(server.url, 'POST', `/e/${other.slug}/register`, {
      body: { key: pk, name: 'B', email: uniqueEmail('b') },
    });
    const token = booked.body.ticket as string;
    assert.equal((await call(server.url, 'GET', `/e/${other.slug}/tickets/${token}`)).status, 200);
    assert.equal(
      (await call(server.url, 'GET', `/e/${ev.slug}/tickets/${token}`)).status,
      404,
      'another event’s slug',
    );
    const [regId, mac] = token.split('.') as [string, string];
    const forged = `${regId}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    assert.equal((await call(server.url, 'GET', `/e/${other.slug}/tickets/${forged}`)).status, 404);
    assert.equal(
      (await call(server.url, 'GET', `/e/${other.slug}/tickets/${regId}`)).status,
      404,
      'the ticket id alone is no token',
    );
    const moved = await call(
      server.url,
      'POST',
      `/api/v1/events/${other.id}/registrations/${regId}/transfer`,
      { key: org.key, body: { name: 'C', email: uniqueEmail('c') } },
    );
    assert.equal(moved.status, 200, moved.text);
    assert.equal(
      (await call(server.url, 'GET', `/e/${other.slug}/tickets/${token}`)).status,
      404,
      'a transfer retires the token',
    );
  });
});
