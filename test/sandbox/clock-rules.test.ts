// Test mode's clock drives every time rule of test mode (docs/decisions/20-booking-lifecycle.md, docs/decisions/03-modes-and-the-sandbox.md): moving an
// account's test clock with POST /api/v1/sandbox/clock lapses its waitlist offers (the seat
// passes to the next in line), expires its unpaid bookings past CHECKOUT_WINDOW_MINUTES, and
// closes its attendees' self-service past the cutoff, with the service clock standing still.
// Times recorded under a clock already moved are on that clock: nothing lapses at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sweep } from '../../src/modules/reconciliation/reconcile.service.js';
import { attendeeToken } from '../../src/lib/attendee-token.js';
import { formToken } from '../../src/modules/attendee/attendee.service.js';
import { organiser, uniqueEmail } from '../helpers/http.js';
import { createEvent, keyApi, type Api } from '../helpers/factories.js';
import { runJobs } from '../helpers/rows.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('the sandbox clock drives test mode’s time rules', () => {
  let server: TestServer;

  before(async () => {
    // The sweep sees only this server's orders.
    server = await startServer({ isolatedDatabase: true, env: { WORKERS: 'false' } });
  });
  after(async () => server.close());

  /** A fresh test-mode organiser: each test moves its own account's clock. */
  const testOrganiser = async () => keyApi(server.url, (await organiser(server.url, 'test')).key);
  const advanceDays = async (api: Api, days: number) => {
    const r = await api('POST', '/api/v1/sandbox/clock', { advanceDays: days });
    assert.equal(r.status, 200, r.text);
  };

  it('lapses a waitlist offer by the account’s clock and passes the seat to the next in line; an offer made on the moved clock holds', async () => {
    const api = await testOrganiser();
    const id = await createEvent(api, { capacity: 1, waitlist: { enabled: true, offerMinutes: 1 } });
    const holder = (
      await api('POST', `/api/v1/events/${id}/register`, { name: 'Holder', email: uniqueEmail('holder') })
    ).body.registrationId as string;
    const people = [0, 1, 2].map((i) => ({ name: `W${i}`, email: uniqueEmail(`w${i}`) }));
    for (const p of people) assert.equal((await api('POST', `/api/v1/events/${id}/waitlist`, p)).status, 201);
    assert.equal((await api('POST', `/api/v1/events/${id}/registrations/${holder}/cancel`)).status, 200);
    await runJobs(server, { due: true });
    const mails = async (email: string) =>
      ((await api('GET', '/api/v1/sandbox/emails?limit=1000')).body.data as any[]).filter(
        (m) => m.to.includes(email) && /held for you/.test(m.subject),
      );
    const token = (mail: any) => /\?offer=([A-Za-z0-9_.-]+)/.exec(mail.text)![1]!;
    const statuses = async () =>
      ((await api('GET', `/api/v1/events/${id}/waitlist`)).body.data as any[]).map((e) => e.status);
    assert.deepEqual(await statuses(), ['offered', 'waiting', 'waiting']);
    const [mail0] = await mails(people[0]!.email);
    assert.ok(mail0, 'W0 got the offer');

    // A day on the account's clock; the service clock has not moved.
    await advanceDays(api, 1);
    const late = await api('POST', `/api/v1/events/${id}/register`, {
      name: 'W0',
      email: people[0]!.email,
      waitlistOffer: token(mail0),
    });
    assert.deepEqual(
      [late.status, late.body.code],
      [409, 'offer_not_valid'],
      'the offer lapsed on the account’s clock',
    );
    // The lapse sweep (the safety net under each offer's own lapse job) passes the seat on.
    assert.ok((await server.deps.jobs.maintainIfDue()).includes('lapse waitlist offers'));
    await runJobs(server, { due: true });
    assert.deepEqual(
      await statuses(),
      ['lapsed', 'offered', 'waiting'],
      'the seat passed to the next in line',
    );
    const [mail1] = await mails(people[1]!.email);
    assert.ok(mail1, 'W1 got the offer');

    // W1's offer was made on the moved clock: it runs a minute from then, so it still holds.
    await runJobs(server, { due: true });
    const booked = await api('POST', `/api/v1/events/${id}/register`, {
      name: 'W1',
      email: people[1]!.email,
      waitlistOffer: token(mail1),
    });
    assert.equal(booked.status, 201, booked.text);
    assert.deepEqual(await statuses(), ['lapsed', 'booked', 'waiting']);
  });

  it('expires an unpaid test booking once the account’s clock passes its checkout window; a booking made on the moved clock waits its own window', async () => {
    const api = await testOrganiser();
    const id = await createEvent(api, { title: 'Paid', price: 500 });
    const step1 = async (name: string) => {
      const r = await api('POST', `/api/v1/events/${id}/register`, { name, email: uniqueEmail(name) });
      assert.equal(r.status, 201, r.text);
      assert.ok(r.body.orderId, 'a paid booking waits for its payment');
      return r.body.registrationId as string;
    };
    const status = async (regId: string) =>
      (await api('GET', `/api/v1/events/${id}/registrations/${regId}`)).body.data.status as string;

    const first = await step1('first');
    await sweep(server.deps);
    assert.equal(await status(first), 'pending', 'within its window');
    await advanceDays(api, 1);
    const summary = await sweep(server.deps);
    assert.equal(
      await status(first),
      'cancelled',
      `past CHECKOUT_WINDOW_MINUTES on the account’s clock: ${JSON.stringify(summary)}`,
    );
    assert.ok(summary.expired >= 1);

    const second = await step1('second');
    await sweep(server.deps);
    assert.equal(await status(second), 'pending', 'made a day on, it is not a day old');
    await advanceDays(api, 1);
    await sweep(server.deps);
    assert.equal(await status(second), 'cancelled');
  });

  it('closes transfer and cancellation on the attendee page when the account’s clock passes the cutoff', async () => {
    const api = await testOrganiser();
    const startAt = new Date(server.clock.now().getTime() + 10 * 86_400_000);
    const id = await createEvent(api, {
      startDate: startAt.toISOString(),
      selfService: { transfer: true, cancel: true, cutoffHours: 48 },
    });
    const book = async (name: string) => {
      const r = await api('POST', `/api/v1/events/${id}/register`, { name, email: uniqueEmail(name) });
      assert.equal(r.status, 201, r.text);
      return attendeeToken(server.deps.config.secretsKey, r.body.registrationId, r.body.registrationId);
    };
    const page = async (token: string) => (await fetch(`${server.url}/t/${token}`)).text();
    const post = (token: string, action: 'cancel' | 'transfer', fields: Record<string, string>) =>
      fetch(`${server.url}/t/${token}/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
        body: new URLSearchParams({
          csrf: formToken(server.deps.config.secretsKey, token, action),
          ...fields,
        }).toString(),
      }).then(async (r) => ({ status: r.status, html: await r.text() }));

    const [a, b] = [await book('asha'), await book('bala')];
    const open = await page(a);
    assert.ok(
      open.includes('Transfer ticket') && open.includes('Cancel booking'),
      'ten days before the start, both are offered',
    );

    // Nine days on the account's clock: 24 hours before the start, past the 48-hour cutoff.
    await advanceDays(api, 9);
    const closed = await page(a);
    assert.ok(!closed.includes('Transfer ticket') && !closed.includes('Cancel booking'));
    assert.match(closed, /Changes from this page closed at .*48 hours before the event/);
    const cancel = await post(a, 'cancel', { confirm: 'yes' });
    assert.equal(cancel.status, 409);
    assert.match(cancel.html, /cancellations closed 48 hours before the event/);
    const transfer = await post(b, 'transfer', { name: 'Dev', email: uniqueEmail('dev') });
    assert.equal(transfer.status, 409);
    assert.match(transfer.html, /transfers closed 48 hours before the event/);
  });
});
