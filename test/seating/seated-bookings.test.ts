// Booking a seated event through the API: the booking takes the seats of the buyer's hold (one
// per person, their category its tier), a pending paid booking keeps them past the hold's own
// lapse, confirmation sells them, and ending the booking frees them; a booking without a fitting,
// live hold is refused and writes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEventData, keyApi, payInSandbox, type Api } from '../helpers/factories.js';
import { call, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { attendeeToken } from '../../src/lib/attendee-token.js';
import { DashboardClient } from '../helpers/dashboard.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';
import { offerMailTo } from '../helpers/waitlist.js';

const grid = {
  sections: [{ name: 'Stalls', rows: 2, seatsPerRow: 6, category: ['Gold', 'Silver'], aisleAfter: [3] }],
};

describe('booking a seated event', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let api: Api;
  let planId: string;

  before(async () => {
    server = await startServer();
    org = await organiser(server.url);
    api = keyApi(server.url, org.key);
    const plan = await api('POST', '/api/v1/seating-plans', { name: 'Hall', grid });
    assert.equal(plan.status, 201, plan.text);
    planId = plan.body.data.id;
  });
  after(async () => server.close());

  const seatedEvent = (gold = 0, fields: Record<string, unknown> = {}) =>
    createEventData(api, {
      seatingPlanId: planId,
      specialPrices: [
        { name: 'Gold', price: gold },
        { name: 'Silver', price: 0 },
      ],
      maxTeamSize: 4,
      ...fields,
    });
  const hold = async (eventId: string, body: Record<string, unknown>) => {
    const r = await api('POST', `/api/v1/events/${eventId}/seats/hold`, body);
    assert.equal(r.status, 201, r.text);
    return r.body.data.holdToken as string;
  };
  const seatStatus = async (eventId: string) => {
    const r = await api('GET', `/api/v1/events/${eventId}/seats?only=unavailable`);
    assert.equal(r.status, 200, r.text);
    return Object.fromEntries(
      (r.body.data.seats as { id: string; status: string; registrationId: string | null }[]).map((s) => [
        s.id,
        `${s.status} ${s.registrationId ?? '-'}`,
      ]),
    );
  };
  const book = (eventId: string, body: Record<string, unknown>) =>
    api('POST', `/api/v1/events/${eventId}/register`, { name: 'Asha', email: uniqueEmail('asha'), ...body });
  const registration = async (eventId: string, id: string) => {
    const r = await api('GET', `/api/v1/events/${eventId}/registrations/${id}`);
    assert.equal(r.status, 200, r.text);
    return r.body.data;
  };

  it('a free booking takes its hold’s seats, one per person, sold at once; the token books once', async () => {
    const event = await seatedEvent();
    const holdToken = await hold(event.id, { seats: ['Stalls-B-2', 'Stalls-B-1'] });
    const r = await book(event.id, {
      holdToken,
      teamMembers: [{ name: 'Ravi', email: uniqueEmail('ravi') }],
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.status, 'confirmed');
    const [primary, member] = r.body.ticketIds as string[];
    const reg = await registration(event.id, r.body.registrationId);
    assert.equal(reg.ticketType, 'Silver', 'the seats’ category (row B) is the tier');
    assert.deepEqual(
      reg.seats.map((s: { label: string; attendeeId: string }) => [s.label, s.attendeeId]),
      [
        ['Row B, seat 1', primary],
        ['Row B, seat 2', member],
      ],
      'seat order, the primary first',
    );
    assert.deepEqual(await seatStatus(event.id), {
      'Stalls-B-1': `sold ${reg.id}`,
      'Stalls-B-2': `sold ${reg.id}`,
    });
    const again = await book(event.id, { holdToken });
    assert.deepEqual([again.status, again.body.code], [409, 'seat_hold_lapsed']);
    const listed = await api('GET', `/api/v1/events/${event.id}/registrations`);
    assert.deepEqual(
      listed.body.data[0].seats.map((s: { id: string }) => s.id),
      ['Stalls-B-1', 'Stalls-B-2'],
      'the list shows the seats too',
    );
  });

  it('refuses a booking without a fitting live hold, and writes nothing', async () => {
    const event = await seatedEvent();
    const none = await book(event.id, {});
    assert.deepEqual(
      [none.status, none.body.code, none.body.field],
      [400, 'seat_hold_required', 'holdToken'],
    );
    const two = await hold(event.id, { seats: ['Stalls-A-1', 'Stalls-A-2'] });
    const alone = await book(event.id, { holdToken: two });
    assert.deepEqual([alone.status, alone.body.code], [400, 'seat_hold_mismatch'], 'two seats, one person');
    const silver = await book(event.id, {
      holdToken: two,
      ticketType: 'Silver',
      teamMembers: [{ name: 'Ravi', email: uniqueEmail('ravi') }],
    });
    assert.deepEqual(
      [silver.status, silver.body.code],
      [400, 'seat_hold_mismatch'],
      'Gold seats, not Silver',
    );
    const mixed = await hold(event.id, { seats: ['Stalls-A-3', 'Stalls-B-3'] });
    const both = await book(event.id, {
      holdToken: mixed,
      teamMembers: [{ name: 'Ravi', email: uniqueEmail('ravi') }],
    });
    assert.deepEqual([both.status, both.body.code], [400, 'seat_hold_mismatch'], 'a Gold and a Silver seat');
    const unknown = await book(event.id, { holdToken: 'hold_nothing' });
    assert.deepEqual([unknown.status, unknown.body.code], [409, 'seat_hold_lapsed']);
    const plain = await createEventData(api);
    const unseated = await book(plain.id, { holdToken: two });
    assert.deepEqual([unseated.status, unseated.body.code], [409, 'event_not_seated']);
    const listed = await api('GET', `/api/v1/events/${event.id}/registrations`);
    assert.equal(listed.body.data.length, 0, 'no booking was written');
    const seats = await seatStatus(event.id);
    assert.equal(Object.keys(seats).length, 4);
    assert.ok(
      Object.values(seats).every((s) => s === 'held -'),
      'the holds are still the buyer’s to use',
    );
  });

  it('a hold that lapsed books nothing (the sandbox clock)', async () => {
    const event = await seatedEvent();
    const holdToken = await hold(event.id, { category: 'Silver', quantity: 1 });
    await api('POST', '/api/v1/sandbox/clock', { advanceDays: 11 / (24 * 60) });
    try {
      const r = await book(event.id, { holdToken });
      assert.deepEqual([r.status, r.body.code], [409, 'seat_hold_lapsed']);
    } finally {
      await api('DELETE', '/api/v1/sandbox/clock');
    }
  });

  it('a paid booking keeps its seats while it waits for payment, sells them when paid, frees them when refunded', async () => {
    const event = await seatedEvent(1500);
    const holdToken = await hold(event.id, { seats: ['Stalls-A-2'] });
    const step1 = await book(event.id, { holdToken });
    assert.equal(step1.status, 201, step1.text);
    assert.equal(step1.body.amount, 150000, 'Gold’s price');
    const id = step1.body.registrationId as string;
    assert.deepEqual(await seatStatus(event.id), { 'Stalls-A-2': `held ${id}` });
    assert.deepEqual(
      (await registration(event.id, id)).seats.map((s: { id: string }) => s.id),
      ['Stalls-A-2'],
    );
    // Past the hold's own ten minutes, inside the checkout window: the seat is still the booking's.
    await api('POST', '/api/v1/sandbox/clock', { advanceDays: 15 / (24 * 60) });
    try {
      assert.deepEqual(await seatStatus(event.id), { 'Stalls-A-2': `held ${id}` });
      const taken = await api('POST', `/api/v1/events/${event.id}/seats/hold`, { seats: ['Stalls-A-2'] });
      assert.deepEqual([taken.status, taken.body.code], [409, 'seats_unavailable']);
    } finally {
      await api('DELETE', '/api/v1/sandbox/clock');
    }
    const paymentId = await payInSandbox(api, step1.body.orderId);
    const step2 = await api('POST', `/api/v1/events/${event.id}/register`, {
      registrationId: id,
      orderId: step1.body.orderId,
      paymentId,
    });
    assert.equal(step2.status, 200, step2.text);
    assert.deepEqual(await seatStatus(event.id), { 'Stalls-A-2': `sold ${id}` });
    const refund = await api('POST', `/api/v1/events/${event.id}/registrations/${id}/refund`, {});
    assert.equal(refund.status, 200, refund.text);
    assert.deepEqual(await seatStatus(event.id), {}, 'the seat is available again');
    assert.deepEqual((await registration(event.id, id)).seats, []);
    const retake = await api('POST', `/api/v1/events/${event.id}/seats/hold`, { seats: ['Stalls-A-2'] });
    assert.equal(retake.status, 201, retake.text);
  });

  it('cancelling a free booking frees its seats', async () => {
    const event = await seatedEvent();
    const holdToken = await hold(event.id, { seats: ['Stalls-A-5'] });
    const r = await book(event.id, { holdToken });
    assert.equal(r.status, 201, r.text);
    const cancel = await api(
      'POST',
      `/api/v1/events/${event.id}/registrations/${r.body.registrationId}/cancel`,
      {},
    );
    assert.equal(cancel.status, 200, cancel.text);
    assert.deepEqual(await seatStatus(event.id), {});
    const e = await api('GET', `/api/v1/events/${event.id}`);
    assert.deepEqual([e.body.data.taken, e.body.data.remaining], [0, 12], 'the seat counters are freed too');
  });

  it('shows each person’s seat on the ticket mail and its calendar entry, the ticket pages and the export', async () => {
    const event = await seatedEvent(0, { title: 'Hamlet', startDate: '2026-12-20T19:00+05:30' });
    const holdToken = await hold(event.id, { seats: ['Stalls-B-5', 'Stalls-B-6'] });
    const ravi = uniqueEmail('ravi');
    const r = await book(event.id, { holdToken, teamMembers: [{ name: 'Ravi', email: ravi }] });
    assert.equal(r.status, 201, r.text);
    const id = r.body.registrationId as string;
    type Mail = { to: string[]; text: string };
    const ticketMails = async () =>
      ((await api('GET', '/api/v1/sandbox/emails?limit=1000')).body.data as Mail[]).filter((m) =>
        /Ticket id/.test(m.text),
      );
    let mails: Mail[] = [];
    // On a shared database another server's worker may send them: wait for the mails, not the queue.
    const both = (all: Mail[]) =>
      all.some((m) => m.text.includes(id)) && all.some((m) => m.to.some((t) => t.includes(ravi)));
    await drainJobs(server, async () => both((mails = await ticketMails())));
    const mailTo = (email: string) =>
      mails.find((m) => m.to.some((t) => t.includes(email)) && /Ticket id/.test(m.text));
    const primaryMail = mails.find((m) => m.text.includes(id) && /Ticket id/.test(m.text))!;
    assert.ok(primaryMail, 'the primary’s ticket mail');
    assert.match(primaryMail.text, /Seat: Stalls · Row B, seat 5\n/);
    assert.match(mailTo(ravi)!.text, /Seat: Stalls · Row B, seat 6\n/, 'the member’s own seat');
    const token = attendeeToken(server.deps.config.secretsKey, id, id);
    const page = await call(server.url, 'GET', `/t/${token}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /Seats<\/(th|dt)>\s*<(td|dd)>Stalls · Row B, seat 5; Stalls · Row B, seat 6</);
    // fixture-exception: the hosted page's ticket view, read as the confirmation screen reads it
    const view = await call(server.url, 'GET', `/e/${event.slug}/tickets/${token}`);
    assert.equal(view.status, 200, view.text);
    assert.deepEqual(view.body.ticket.seats, ['Stalls · Row B, seat 5', 'Stalls · Row B, seat 6']);
    // fixture-exception: the hosted page's calendar file, whose description is the subject
    const ics = await call(server.url, 'GET', `/e/${event.slug}/tickets/${token}/calendar.ics`);
    assert.match(
      ics.text.replace(/\r\n[ \t]/g, ''),
      /Seat: Stalls · Row B\\, seat 5\\; Stalls · Row B\\, seat 6/,
    );
    const dash = new DashboardClient(server.url);
    await dash.login(org.email);
    // The booking is a test-mode one: the dashboard shows that mode's events.
    await dash.post('/dashboard/mode', {
      _csrf: DashboardClient.csrf((await dash.get('/dashboard/events')).text),
      mode: 'test',
    });
    const shown = await dash.get(`/dashboard/events/${event.id}/registrations/${id}`);
    assert.match(shown.text, /<dt>Seats<\/dt><dd>Stalls · Row B, seat 5; Stalls · Row B, seat 6<\/dd>/);
    const csv = await api('GET', `/api/v1/events/${event.id}/registrations/export`);
    assert.equal(csv.status, 200);
    const [header, row] = csv.text.trim().split(/\r?\n/);
    const cells = header!.split(',');
    assert.ok(cells.includes('seats'), header);
    assert.match(row!, /Stalls · Row B, seat 5; Stalls · Row B, seat 6/);
  });

  it('a freed seat goes to the waitlist of its category, whose offer names it and books a seat of it', async () => {
    const event = await seatedEvent(0, {
      title: 'Waitlisted hall',
      waitlist: { enabled: true, offerMinutes: 30 },
    });
    const gold = ['Stalls-A-1', 'Stalls-A-2', 'Stalls-A-3', 'Stalls-A-4', 'Stalls-A-5', 'Stalls-A-6'];
    const ids: string[] = [];
    for (const seat of gold) {
      const r = await book(event.id, { holdToken: await hold(event.id, { seats: [seat] }) });
      assert.equal(r.status, 201, r.text);
      ids.push(r.body.registrationId);
    }
    const email = uniqueEmail('wait');
    const joined = await api('POST', `/api/v1/events/${event.id}/waitlist`, {
      name: 'Waiting Wen',
      email,
      ticketType: 'Gold',
    });
    assert.equal(joined.status, 201, joined.text);
    const cancel = await api('POST', `/api/v1/events/${event.id}/registrations/${ids[2]}/cancel`, {});
    assert.equal(cancel.status, 200, cancel.text);
    const { mail: offer, token } = await offerMailTo(server, api, email);
    assert.match(
      offer.text,
      /A seat at Waitlisted hall \(Gold\) has come free/,
      'the offer names the category',
    );
    const seat = await hold(event.id, { category: 'Gold', quantity: 1 });
    const booked = await api('POST', `/api/v1/events/${event.id}/register`, {
      name: 'Waiting Wen',
      email,
      waitlistOffer: token,
      holdToken: seat,
    });
    assert.equal(booked.status, 201, booked.text);
    const reg = await registration(event.id, booked.body.registrationId);
    assert.deepEqual(
      reg.seats.map((s: { id: string }) => s.id),
      ['Stalls-A-3'],
      'the seat the cancellation freed',
    );
  });
});
