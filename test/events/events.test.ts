import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addRegistration } from '../helpers/factories.js';
import {
  call,
  createKey,
  organiser,
  signup,
  uniqueEmail,
  type Account,
  type KeyInfo,
} from '../helpers/http.js';
import { registrationsOf } from '../helpers/rows.js';
import { startServer, type TestServer } from '../helpers/server.js';

const base = { title: 'Bengaluru JS Meetup', description: 'Talks and chai', startDate: '2026-12-05' };

describe('events', () => {
  let server: TestServer;
  let staff: Account;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    server = await startServer({ env: { STAFF_EMAILS: staffEmail } });
    staff = await signup(server.url, { email: staffEmail });
  });
  after(async () => {
    await server.close();
  });

  const post = (key: string, body: unknown) => call(server.url, 'POST', '/api/v1/events', { key, body });
  const grant = (userId: string, canPublish: boolean) =>
    call(server.url, 'POST', `/admin/api/accounts/${userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish },
    });

  describe('POST /api/v1/events', () => {
    let org: Account & KeyInfo;
    before(async () => {
      org = await organiser(server.url);
    });

    it('creates a draft in the key’s mode with every field of docs/decisions/04-events.md', async () => {
      const r = await post(org.key, {
        ...base,
        endDate: '2026-12-06',
        location: 'Koramangala',
        capacity: 120,
        price: 499.5,
        sendTicketEmails: false,
        status: 'published',
        maxTeamSize: 4,
        requiresApproval: true,
        customFields: [{ name: 'company', label: 'Company', type: 'text', required: true }],
        specialPrices: [{ name: 'Early bird', price: 299, capacity: 20, membersOnly: false }],
      });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.success, true);
      const e = r.body.data;
      assert.match(e.id, /^ev_/);
      assert.equal(e.status, 'draft');
      assert.equal(e.mode, 'test');
      assert.equal(e.startDate, '2026-12-05');
      assert.equal(e.date, '2026-12-05');
      assert.equal(e.endDate, '2026-12-06');
      // On a shared PostgreSQL database an earlier run may hold the bare slug.
      assert.match(e.slug, /^bengaluru-js-meetup(-[a-z0-9]{6})?$/);
      assert.equal(e.capacity, 120);
      assert.equal(e.taken, 0);
      assert.equal(e.remaining, 120);
      assert.equal(e.price, 499.5);
      assert.equal(e.currency, 'INR');
      assert.equal(e.maxTeamSize, 4);
      assert.equal(e.requiresApproval, true);
      assert.equal(e.ticketEmailsEnabled, true, 'sendTicketEmails is accepted and not written');
      assert.equal('sendTicketEmails' in e, false);
      assert.deepEqual(e.tracks, []);
      assert.deepEqual(e.customFields, [
        { name: 'company', label: 'Company', type: 'text', required: true, options: null },
      ]);
      assert.deepEqual(e.specialPrices, [
        {
          name: 'Early bird',
          price: 299,
          capacity: 20,
          membersOnly: false,
          availableFrom: null,
          availableUntil: null,
          sac: null,
        },
      ]);
      // GST (docs/decisions/17-the-organisers-office.md): standard 18 % unless the organiser says otherwise; the rest unset.
      assert.deepEqual([e.taxCategory, e.supplierGstin, e.sac, e.venueState], ['standard', null, null, null]);
      assert.ok(Date.parse(e.createdAt) > 0 && Date.parse(e.updatedAt) > 0);
    });

    it('derives a unique readable slug from the title', async () => {
      const a = await post(org.key, { ...base, title: 'Café Night — Pune!' });
      const b = await post(org.key, { ...base, title: 'Café Night — Pune!' });
      assert.equal(a.status, 201);
      assert.match(a.body.data.slug, /^cafe-night-pune(-[a-z0-9]{6})?$/);
      assert.match(b.body.data.slug, /^cafe-night-pune-[a-z0-9]{6}$/);
      assert.notEqual(a.body.data.slug, b.body.data.slug);
    });

    it('accepts an ISO 8601 date-time with offset', async () => {
      const r = await post(org.key, {
        ...base,
        startDate: '2026-12-05T18:30:00+05:30',
        endDate: '2026-12-05T21:00:00+05:30',
      });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.data.startDate, '2026-12-05T18:30:00+05:30');
      assert.equal(r.body.data.date, '2026-12-05T18:30:00+05:30');
    });

    const refusals: [string, Record<string, unknown>, RegExp][] = [
      ['date instead of startDate', { title: 'x', description: 'y', date: '2026-12-05' }, /startDate/],
      ['date beside startDate', { ...base, date: '2026-12-05' }, /startDate/],
      ['no startDate', { title: 'x', description: 'y' }, /startDate/],
      ['no title', { description: 'y', startDate: '2026-12-05' }, /title/],
      ['no description', { title: 'x', startDate: '2026-12-05' }, /description/],
      ['empty title', { ...base, title: '   ' }, /title/],
      ['a date in another format', { ...base, startDate: '05/12/2026' }, /startDate/],
      ['a date that does not exist', { ...base, startDate: '2026-02-30' }, /startDate/],
      ['a date-time without offset', { ...base, startDate: '2026-12-05T18:30:00' }, /startDate/],
      ['endDate before startDate', { ...base, endDate: '2026-12-04' }, /endDate/],
      [
        'endDate instant before start',
        { ...base, startDate: '2026-12-05T18:00:00+05:30', endDate: '2026-12-05T17:00:00+05:30' },
        /endDate/,
      ],
      ['negative capacity', { ...base, capacity: -1 }, /capacity/],
      ['fractional capacity', { ...base, capacity: 1.5 }, /capacity/],
      ['capacity as a string', { ...base, capacity: '10' }, /capacity/],
      ['negative price', { ...base, price: -1 }, /price/],
      ['price with three decimals', { ...base, price: 10.005 }, /price/],
      ['an unknown field', { ...base, venue: 'x' }, /venue/],
      ['a tier without a price', { ...base, specialPrices: [{ name: 'VIP' }] }, /price/],
      [
        'a tier named twice',
        {
          ...base,
          specialPrices: [
            { name: 'VIP', price: 1 },
            { name: 'vip', price: 2 },
          ],
        },
        /twice/,
      ],
      [
        'a select field without options',
        { ...base, customFields: [{ name: 'size', type: 'select' }] },
        /options/,
      ],
    ];
    for (const [what, body, pattern] of refusals) {
      it(`refuses ${what} with 400 naming the field`, async () => {
        const before = (await call(server.url, 'GET', '/api/v1/events', { key: org.key })).body.data.length;
        const r = await post(org.key, body);
        assert.equal(r.status, 400, r.text);
        assert.equal(typeof r.body.code, 'string');
        assert.match(r.body.error, pattern);
        const afterCount = (await call(server.url, 'GET', '/api/v1/events', { key: org.key })).body.data
          .length;
        assert.equal(afterCount, before, 'nothing stored');
      });
    }
  });

  it('lists only the caller’s account and mode, newest start first, undated last', async () => {
    const org = await organiser(server.url);
    const other = await organiser(server.url);
    const live = await createKey(server.url, org.token, { mode: 'live' });
    for (const d of ['2026-03-01', '2027-01-15', '2026-12-31T23:00:00+05:30']) {
      assert.equal((await post(org.key, { ...base, startDate: d })).status, 201);
    }
    await post(other.key, base);
    await post(live.key, base);
    const undated = await post(org.key, { ...base, startDate: '2030-01-01' });
    await server.deps.db
      .updateTable('events')
      .set({ start_date: null, start_at: null })
      .where('id', '=', undated.body.data.id)
      .execute();

    const r = await call(server.url, 'GET', '/api/v1/events', { key: org.key });
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.data.map((e: any) => e.startDate),
      ['2027-01-15', '2026-12-31T23:00:00+05:30', '2026-03-01', null],
    );
    assert.ok(r.body.data.every((e: any) => e.mode === 'test'));
    const liveList = await call(server.url, 'GET', '/api/v1/events', { key: live.key });
    assert.equal(liveList.body.data.length, 1);
    assert.equal(liveList.body.data[0].mode, 'live');
  });

  describe('scoping and keys', () => {
    let org: Account & KeyInfo;
    let eventId: string;
    before(async () => {
      org = await organiser(server.url);
      eventId = (await post(org.key, base)).body.data.id;
    });

    it('answers 403 for another account’s event in the same mode', async () => {
      const other = await organiser(server.url);
      for (const [method, path, body] of [
        ['GET', `/api/v1/events/${eventId}`, undefined],
        ['PATCH', `/api/v1/events/${eventId}`, { title: 'mine now' }],
        ['GET', `/api/v1/events/${eventId}/tracks`, undefined],
        ['POST', `/api/v1/events/${eventId}/tracks`, { title: 'x' }],
        ['GET', `/api/v1/events/${eventId}/availability`, undefined],
        ['GET', `/api/v1/events/${eventId}/analytics`, undefined],
        ['GET', `/api/v1/events/${eventId}/registrations`, undefined],
      ] as const) {
        const r = await call(server.url, method, path, { key: other.key, body });
        assert.equal(r.status, 403, `${method} ${path}: ${r.text}`);
        assert.equal(r.body.code, 'not_your_object');
      }
      assert.equal(
        (await call(server.url, 'GET', `/api/v1/events/${eventId}`, { key: org.key })).body.data.title,
        base.title,
      );
    });

    it('answers 404 for the same account’s event in another mode, and for an unknown id', async () => {
      const live = await createKey(server.url, org.token, { mode: 'live' });
      const r = await call(server.url, 'GET', `/api/v1/events/${eventId}`, { key: live.key });
      assert.equal(r.status, 404);
      assert.equal(r.body.code, 'event_not_found');
      const p = await call(server.url, 'PATCH', `/api/v1/events/${eventId}`, {
        key: live.key,
        body: { title: 'x' },
      });
      assert.equal(p.status, 404);
      assert.equal((await call(server.url, 'GET', '/api/v1/events/ev_nope', { key: org.key })).status, 404);
    });

    it('lets a checkout key read events, tracks and seats but not create, change, publish or read attendees', async () => {
      const checkout = await createKey(server.url, org.token, { class: 'checkout' });
      assert.equal(
        (await call(server.url, 'GET', `/api/v1/events/${eventId}`, { key: checkout.key })).status,
        200,
      );
      assert.equal((await call(server.url, 'GET', '/api/v1/events', { key: checkout.key })).status, 200);
      assert.equal(
        (await call(server.url, 'GET', `/api/v1/events/${eventId}/tracks`, { key: checkout.key })).status,
        200,
      );
      assert.equal(
        (await call(server.url, 'GET', `/api/v1/events/${eventId}/availability`, { key: checkout.key }))
          .status,
        200,
      );
      for (const [method, path, body] of [
        ['POST', '/api/v1/events', base],
        ['PATCH', `/api/v1/events/${eventId}`, { title: 'x' }],
        ['PATCH', `/api/v1/events/${eventId}`, { status: 'published' }],
        ['POST', `/api/v1/events/${eventId}/tracks`, { title: 'x' }],
        ['PATCH', `/api/v1/events/${eventId}/tracks/0`, { title: 'x' }],
        ['GET', `/api/v1/events/${eventId}/analytics`, undefined],
        ['GET', `/api/v1/events/${eventId}/registrations`, undefined],
      ] as const) {
        const r = await call(server.url, method, path, { key: checkout.key, body });
        assert.equal(r.status, 403, `${method} ${path}`);
        assert.equal(r.body.code, 'checkout_key_not_allowed');
      }
      assert.equal(
        (await call(server.url, 'GET', `/api/v1/events/${eventId}`, { key: org.key })).body.data.title,
        base.title,
      );
    });
  });

  describe('PATCH and publishing', () => {
    it('changes every creation field, keeps the slug, and refuses `date`', async () => {
      const org = await organiser(server.url);
      const created = (await post(org.key, base)).body.data;
      const id = created.id;
      const r = await call(server.url, 'PATCH', `/api/v1/events/${id}`, {
        key: org.key,
        body: {
          title: 'Renamed',
          description: 'New',
          startDate: '2027-01-01',
          endDate: '2027-01-02',
          location: 'Indiranagar',
          capacity: 10,
          price: 100,
          maxTeamSize: 3,
          requiresApproval: true,
          specialPrices: [{ name: 'VIP', price: 900 }],
          customFields: [{ name: 'tshirt', type: 'select', options: ['S', 'M'] }],
        },
      });
      assert.equal(r.status, 200, r.text);
      const e = r.body.data;
      assert.equal(e.title, 'Renamed');
      assert.equal(e.slug, created.slug, 'the slug stays when the title changes');
      assert.equal(e.startDate, '2027-01-01');
      assert.equal(e.date, '2027-01-01');
      assert.equal(e.capacity, 10);
      assert.equal(e.price, 100);
      assert.equal(e.specialPrices[0].name, 'VIP');
      assert.deepEqual(e.customFields[0].options, ['S', 'M']);
      const cleared = await call(server.url, 'PATCH', `/api/v1/events/${id}`, {
        key: org.key,
        body: { endDate: null, location: null },
      });
      assert.equal(cleared.body.data.endDate, null);
      assert.equal(cleared.body.data.location, null);
      const bad = await call(server.url, 'PATCH', `/api/v1/events/${id}`, {
        key: org.key,
        body: { date: '2027-02-01' },
      });
      assert.equal(bad.status, 400);
      assert.match(bad.body.error, /startDate/);
      const badEnd = await call(server.url, 'PATCH', `/api/v1/events/${id}`, {
        key: org.key,
        body: { endDate: '2026-01-01' },
      });
      assert.equal(badEnd.status, 400);
      assert.equal(
        (await call(server.url, 'GET', `/api/v1/events/${id}`, { key: org.key })).body.data.endDate,
        null,
        'refused patch wrote nothing',
      );
    });

    it('publishes a test event without the grant; a paid live event is refused while the service takes no live payments', async () => {
      const org = await organiser(server.url, 'test');
      const id = (await post(org.key, { ...base, price: 499 })).body.data.id;
      const published = await call(server.url, 'PATCH', `/api/v1/events/${id}`, {
        key: org.key,
        body: { status: 'published' },
      });
      assert.equal(published.status, 200, published.text);
      assert.equal(published.body.data.status, 'published');
      assert.equal(
        (await call(server.url, 'GET', '/api/v1/me', { key: org.key })).body.canPublish,
        false,
        'no grant was needed, none was given',
      );

      const live = await organiser(server.url, 'live');
      assert.equal((await grant(live.userId, true)).status, 200);
      for (const paid of [
        { price: 499 },
        { specialPrices: [{ name: 'VIP', price: 900 }] },
        { tracks: [{ title: 'Workshop', price: 200 }] },
      ]) {
        const lid = (await post(live.key, { ...base, ...paid })).body.data.id;
        const refused = await call(server.url, 'PATCH', `/api/v1/events/${lid}`, {
          key: live.key,
          body: { status: 'published' },
        });
        assert.equal(refused.status, 409, JSON.stringify(paid));
        assert.equal(refused.body.code, 'payments_not_configured');
        assert.doesNotMatch(refused.body.error, /RAZORPAY|KEY_ID|SECRET/);
        assert.equal(
          (await call(server.url, 'GET', `/api/v1/events/${lid}`, { key: live.key })).body.data.status,
          'draft',
        );
      }
      // A free live event publishes; making it paid while published is refused too.
      const free = (await post(live.key, base)).body.data.id;
      assert.equal(
        (
          await call(server.url, 'PATCH', `/api/v1/events/${free}`, {
            key: live.key,
            body: { status: 'published' },
          })
        ).status,
        200,
      );
      const priced = await call(server.url, 'PATCH', `/api/v1/events/${free}`, {
        key: live.key,
        body: { price: 100 },
      });
      assert.equal(priced.status, 409);
      assert.equal(priced.body.code, 'payments_not_configured');
      assert.equal(
        (await call(server.url, 'GET', `/api/v1/events/${free}`, { key: live.key })).body.data.price,
        0,
      );
    });

    it('publishes a live event only with canPublish, and unpublishing is never blocked', async () => {
      const org = await organiser(server.url, 'live');
      const id = (await post(org.key, base)).body.data.id;
      const refused = await call(server.url, 'PATCH', `/api/v1/events/${id}`, {
        key: org.key,
        body: { status: 'published', title: 'Sneaky' },
      });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'organiser_access_required');
      const still = (await call(server.url, 'GET', `/api/v1/events/${id}`, { key: org.key })).body.data;
      assert.equal(still.status, 'draft');
      assert.equal(still.title, base.title, 'a refused publish changes nothing else either');

      assert.equal((await grant(org.userId, true)).status, 200);
      const published = await call(server.url, 'PATCH', `/api/v1/events/${id}`, {
        key: org.key,
        body: { status: 'published' },
      });
      assert.equal(published.status, 200);
      assert.equal(published.body.data.status, 'published');
      const me = await call(server.url, 'GET', '/api/v1/me', { key: org.key });
      assert.deepEqual(me.body.events, { total: 1, draft: 0, published: 1 });

      assert.equal((await grant(org.userId, false)).status, 200);
      const down = await call(server.url, 'PATCH', `/api/v1/events/${id}`, {
        key: org.key,
        body: { status: 'draft' },
      });
      assert.equal(down.status, 200);
      assert.equal(down.body.data.status, 'draft');
    });
  });

  describe('DELETE /api/v1/events/{id}', () => {
    it('needs a session token: a key alone is 401 with the spec message', async () => {
      const org = await organiser(server.url);
      const id = (await post(org.key, base)).body.data.id;
      const r = await call(server.url, 'DELETE', `/api/v1/events/${id}`, { key: org.key });
      assert.equal(r.status, 401);
      assert.equal(r.body.error, 'Missing Authorization Bearer token');
      assert.equal((await call(server.url, 'GET', `/api/v1/events/${id}`, { key: org.key })).status, 200);
    });

    it('removes the event and its registrations', async () => {
      const org = await organiser(server.url);
      const id = (await post(org.key, base)).body.data.id;
      await addRegistration(server, id, { amountPaise: 50000 }); // test mode skips the paid check
      const r = await call(server.url, 'DELETE', `/api/v1/events/${id}`, { token: org.token });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body, { success: true, deleted: true, id });
      assert.equal((await call(server.url, 'GET', `/api/v1/events/${id}`, { key: org.key })).status, 404);
      const left = await registrationsOf(server, id);
      assert.equal(left.length, 0);
    });

    it('refuses another account’s session with 403', async () => {
      const org = await organiser(server.url);
      const other = await signup(server.url);
      const id = (await post(org.key, base)).body.data.id;
      const r = await call(server.url, 'DELETE', `/api/v1/events/${id}`, { token: other.token });
      assert.equal(r.status, 403);
    });

    it('answers 409 for a live event holding paid registrations; force only for staff', async () => {
      const org = await organiser(server.url, 'live');
      const id = (await post(org.key, base)).body.data.id;
      await addRegistration(server, id, { amountPaise: 49900 });
      const r = await call(server.url, 'DELETE', `/api/v1/events/${id}`, { token: org.token });
      assert.equal(r.status, 409);
      assert.equal(r.body.code, 'has_payments_in_flight');
      const forcedByOwner = await call(server.url, 'DELETE', `/api/v1/events/${id}?force=true`, {
        token: org.token,
      });
      assert.equal(forcedByOwner.status, 409, 'force is not honoured for a non-staff user');
      assert.equal((await call(server.url, 'GET', `/api/v1/events/${id}`, { key: org.key })).status, 200);
      const forced = await call(server.url, 'DELETE', `/api/v1/events/${id}?force=true`, {
        token: staff.token,
      });
      assert.equal(forced.status, 200);
      assert.equal((await call(server.url, 'GET', `/api/v1/events/${id}`, { key: org.key })).status, 404);
    });

    it('deletes a live event whose paid registrations were refunded or cancelled', async () => {
      const org = await organiser(server.url, 'live');
      const id = (await post(org.key, base)).body.data.id;
      await addRegistration(server, id, { amountPaise: 49900, status: 'refunded' });
      await addRegistration(server, id, { amountPaise: 0 });
      assert.equal(
        (await call(server.url, 'DELETE', `/api/v1/events/${id}`, { token: org.token })).status,
        200,
      );
    });
  });

  describe('tracks', () => {
    it('appends with an index, lists in order, patches by index, and 404s out of range', async () => {
      const org = await organiser(server.url);
      const id = (await post(org.key, { ...base, capacity: 100 })).body.data.id;
      const a = await call(server.url, 'POST', `/api/v1/events/${id}/tracks`, {
        key: org.key,
        body: { title: 'Workshop A', price: 200, capacity: 30 },
      });
      assert.equal(a.status, 201, a.text);
      assert.equal(a.body.data.index, 0);
      assert.equal(a.body.data.date, '2026-12-05', 'date defaults to the event’s');
      const b = await call(server.url, 'POST', `/api/v1/events/${id}/tracks`, {
        key: org.key,
        body: { title: 'Workshop B', date: '2026-12-06' },
      });
      assert.equal(b.body.data.index, 1);
      assert.equal(b.body.data.price, 0);
      assert.equal(b.body.data.capacity, 0);

      const list = await call(server.url, 'GET', `/api/v1/events/${id}/tracks`, { key: org.key });
      assert.equal(list.status, 200);
      assert.equal(list.body.count, 2);
      assert.deepEqual(
        list.body.data.map((t: any) => [t.index, t.title, t.date]),
        [
          [0, 'Workshop A', '2026-12-05'],
          [1, 'Workshop B', '2026-12-06'],
        ],
      );

      const p = await call(server.url, 'PATCH', `/api/v1/events/${id}/tracks/1`, {
        key: org.key,
        body: { capacity: 12, price: 50.25 },
      });
      assert.equal(p.status, 200, p.text);
      assert.deepEqual(
        [p.body.data.index, p.body.data.title, p.body.data.capacity, p.body.data.price],
        [1, 'Workshop B', 12, 50.25],
      );

      const out = await call(server.url, 'PATCH', `/api/v1/events/${id}/tracks/2`, {
        key: org.key,
        body: { title: 'Ghost' },
      });
      assert.equal(out.status, 404);
      assert.equal(out.body.code, 'track_not_found');
      const bad = await call(server.url, 'PATCH', `/api/v1/events/${id}/tracks/-1`, {
        key: org.key,
        body: { title: 'Ghost' },
      });
      assert.equal(bad.status, 400);
      const after = await call(server.url, 'GET', `/api/v1/events/${id}/tracks`, { key: org.key });
      assert.equal(after.body.count, 2, 'nothing created');
      const event = await call(server.url, 'GET', `/api/v1/events/${id}`, { key: org.key });
      assert.equal(event.body.data.tracks.length, 2);

      const noTitle = await call(server.url, 'POST', `/api/v1/events/${id}/tracks`, {
        key: org.key,
        body: { price: 1 },
      });
      assert.equal(noTitle.status, 400);
      assert.match(noTitle.body.error, /title/);
    });

    it('keeps a track’s end time, which may not come before its start', async () => {
      const org = await organiser(server.url);
      const id = (await post(org.key, base)).body.data.id;
      const t = await call(server.url, 'POST', `/api/v1/events/${id}/tracks`, {
        key: org.key,
        body: { title: 'Talks', date: '2026-12-05T10:00:00+05:30', endDate: '2026-12-05T12:30:00+05:30' },
      });
      assert.equal(t.status, 201, t.text);
      assert.equal(t.body.data.endDate, '2026-12-05T12:30:00+05:30');
      const early = await call(server.url, 'PATCH', `/api/v1/events/${id}/tracks/0`, {
        key: org.key,
        body: { endDate: '2026-12-05T09:00:00+05:30' },
      });
      assert.equal(early.status, 400);
      assert.match(early.body.error, /endDate must be on or after/);
      const cleared = await call(server.url, 'PATCH', `/api/v1/events/${id}/tracks/0`, {
        key: org.key,
        body: { endDate: null },
      });
      assert.equal(cleared.body.data.endDate, null);
      const plain = await call(server.url, 'POST', `/api/v1/events/${id}/tracks`, {
        key: org.key,
        body: { title: 'Lunch' },
      });
      assert.equal(plain.body.data.endDate, null);
    });

    it('removes a track nobody booked (later ones move down) and refuses one that is booked or precedes a booked one', async () => {
      const org = await organiser(server.url);
      const id = (
        await post(org.key, {
          ...base,
          tracks: [{ title: 'A' }, { title: 'B' }, { title: 'C' }, { title: 'D' }],
        })
      ).body.data.id;
      const titles = async () =>
        (await call(server.url, 'GET', `/api/v1/events/${id}/tracks`, { key: org.key })).body.data.map(
          (t: any) => `${t.index}:${t.title}`,
        );
      const booked = await call(server.url, 'POST', `/api/v1/events/${id}/register`, {
        key: org.key,
        body: { name: 'Booked on C', email: 'c@example.in', subEventId: '2' },
      });
      assert.equal(booked.status, 201, booked.text);

      for (const index of [2, 1, 0]) {
        const r = await call(server.url, 'DELETE', `/api/v1/events/${id}/tracks/${index}`, { key: org.key });
        assert.equal(r.status, 409, `track ${index}`);
        assert.equal(r.body.code, 'track_in_use');
        assert.doesNotMatch(r.body.error, /track \d/i, 'names no 0-based number');
      }
      assert.deepEqual(await titles(), ['0:A', '1:B', '2:C', '3:D']);

      const last = await call(server.url, 'DELETE', `/api/v1/events/${id}/tracks/3`, { key: org.key });
      assert.equal(last.status, 200, last.text);
      assert.deepEqual(
        last.body.data.map((t: any) => t.title),
        ['A', 'B', 'C'],
      );
      assert.equal(
        (await call(server.url, 'DELETE', `/api/v1/events/${id}/tracks/3`, { key: org.key })).status,
        404,
      );
      const removal = await call(
        server.url,
        'GET',
        `/api/v1/audit-log?action=track.delete&targetId=${encodeURIComponent(`${id}/3`)}`,
        { key: org.key },
      );
      assert.deepEqual(
        removal.body.data.map((e: any) => [e.action, e.actor.kind, e.before.title]),
        [['track.delete', 'key', 'D']],
        'the removal is in the audit log, with the track as it was',
      );

      // The booking on C is cancelled: it still names C, so C stays.
      assert.equal(
        (
          await call(
            server.url,
            'POST',
            `/api/v1/events/${id}/registrations/${booked.body.registrationId}/cancel`,
            { key: org.key },
          )
        ).status,
        200,
      );
      assert.equal(
        (await call(server.url, 'DELETE', `/api/v1/events/${id}/tracks/2`, { key: org.key })).body.code,
        'track_in_use',
      );

      // Without bookings on or after it, a middle track goes and the later ones move down, their seats with them.
      const other = (
        await post(org.key, {
          ...base,
          tracks: [{ title: 'A' }, { title: 'B', capacity: 5 }, { title: 'C', capacity: 1 }],
        })
      ).body.data.id;
      const mid = await call(server.url, 'DELETE', `/api/v1/events/${other}/tracks/1`, { key: org.key });
      assert.equal(mid.status, 200, mid.text);
      assert.deepEqual(
        mid.body.data.map((t: any) => [t.index, t.title, t.capacity]),
        [
          [0, 'A', 0],
          [1, 'C', 1],
        ],
      );
      const onC = await call(server.url, 'POST', `/api/v1/events/${other}/register`, {
        key: org.key,
        body: { name: 'On C', email: 'onc@example.in', subEventId: '1' },
      });
      assert.equal(onC.status, 201, onC.text);
      const full = await call(server.url, 'POST', `/api/v1/events/${other}/register`, {
        key: org.key,
        body: { name: 'Second on C', email: 'onc2@example.in', subEventId: '1' },
      });
      assert.equal(full.status, 409, 'C kept its capacity of 1 at its new index');
      assert.equal(
        (
          await call(server.url, 'POST', `/api/v1/events/${other}/register`, {
            key: org.key,
            body: { name: 'Nowhere', email: 'x@example.in', subEventId: '2' },
          })
        ).status,
        404,
      );
    });

    it('gives concurrent appends distinct indexes', async () => {
      const org = await organiser(server.url);
      const id = (await post(org.key, base)).body.data.id;
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          call(server.url, 'POST', `/api/v1/events/${id}/tracks`, { key: org.key, body: { title: `T${i}` } }),
        ),
      );
      assert.deepEqual(
        answers.map((a) => a.body.data.index).sort((x: number, y: number) => x - y),
        [0, 1, 2, 3, 4, 5, 6, 7],
      );
    });
  });

  describe('availability and analytics', () => {
    it('counts confirmed seats for the event, tiers and tracks, the numbers registration will enforce', async () => {
      const org = await organiser(server.url);
      const id = (
        await post(org.key, {
          ...base,
          capacity: 10,
          specialPrices: [
            { name: 'VIP', price: 999, capacity: 3 },
            { name: 'Members', price: 0, membersOnly: true, availableFrom: '2099-01-01T00:00:00+05:30' },
          ],
        })
      ).body.data.id;
      await call(server.url, 'POST', `/api/v1/events/${id}/tracks`, {
        key: org.key,
        body: { title: 'Track', capacity: 4 },
      });

      await addRegistration(server, id, { quantity: 3 }); // a team of three
      await addRegistration(server, id, { ticketType: 'VIP', quantity: 2 });
      await addRegistration(server, id, { subEventId: 0, quantity: 1 });
      await addRegistration(server, id, { status: 'pending', quantity: 5 });
      await addRegistration(server, id, { status: 'cancelled', quantity: 5 });

      const r = await call(server.url, 'GET', `/api/v1/events/${id}/availability`, { key: org.key });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.data, {
        capacity: 10,
        taken: 6,
        remaining: 4,
        soldOut: false,
        tiers: [
          {
            name: 'VIP',
            price: 999,
            capacity: 3,
            taken: 2,
            remaining: 1,
            soldOut: false,
            membersOnly: false,
            onSale: true,
          },
          {
            name: 'Members',
            price: 0,
            capacity: 0,
            taken: 0,
            remaining: 4,
            soldOut: false,
            membersOnly: true,
            onSale: false,
          },
        ],
        waitlist: { enabled: false, offerMinutes: 60, waiting: 0 },
      });

      const track = await call(server.url, 'GET', `/api/v1/events/${id}/availability?subEventId=0`, {
        key: org.key,
      });
      assert.equal(track.body.data.capacity, 4);
      assert.equal(track.body.data.taken, 1);
      assert.equal(track.body.data.remaining, 3);
      assert.equal(
        (await call(server.url, 'GET', `/api/v1/events/${id}/availability?subEventId=7`, { key: org.key }))
          .status,
        404,
      );
      assert.equal(
        (await call(server.url, 'GET', `/api/v1/events/${id}/availability?subEventId=x`, { key: org.key }))
          .status,
        400,
      );

      await addRegistration(server, id, { quantity: 4 });
      const full = await call(server.url, 'GET', `/api/v1/events/${id}/availability`, { key: org.key });
      assert.equal(full.body.data.remaining, 0);
      assert.equal(full.body.data.soldOut, true);
      assert.equal(full.body.data.tiers[0].remaining, 0, 'a tier cannot outsell the event');
      const ev = await call(server.url, 'GET', `/api/v1/events/${id}`, { key: org.key });
      assert.deepEqual([ev.body.data.taken, ev.body.data.remaining], [10, 0]);
    });

    it('reports unlimited capacity as remaining null and fillRate null', async () => {
      const org = await organiser(server.url);
      const id = (await post(org.key, base)).body.data.id;
      await addRegistration(server, id);
      const a = await call(server.url, 'GET', `/api/v1/events/${id}/availability`, { key: org.key });
      assert.deepEqual(
        [a.body.data.capacity, a.body.data.taken, a.body.data.remaining, a.body.data.soldOut],
        [0, 1, null, false],
      );
      const an = await call(server.url, 'GET', `/api/v1/events/${id}/analytics`, { key: org.key });
      assert.equal(an.body.fillRate, null);
    });

    it('answers analytics distinguishing confirmed, pending, cancelled and checked-in', async () => {
      const org = await organiser(server.url);
      const id = (await post(org.key, { ...base, title: 'Paid gig', capacity: 20, price: 500 })).body.data.id;
      await addRegistration(server, id, { amountPaise: 50000, checkedIn: true });
      await addRegistration(server, id, { amountPaise: 100000, quantity: 2 });
      await addRegistration(server, id, { status: 'pending', amountPaise: 50000 });
      await addRegistration(server, id, { status: 'cancelled', amountPaise: 50000 });
      await addRegistration(server, id, { status: 'refunded', amountPaise: 50000 });
      // Someone was in before their booking was cancelled: the booking is not counted as checked in.
      await addRegistration(server, id, { status: 'cancelled', amountPaise: 50000, checkedIn: true });
      const r = await call(server.url, 'GET', `/api/v1/events/${id}/analytics`, { key: org.key });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, {
        eventId: id,
        eventTitle: 'Paid gig',
        totalRegistrations: 6,
        confirmedCount: 2,
        pendingCount: 1,
        cancelledCount: 2,
        refundedCount: 1,
        checkedInCount: 1,
        totalRevenue: 1500,
        capacity: 20,
        seatsTaken: 3,
        fillRate: 0.15,
      });
    });
  });
});
