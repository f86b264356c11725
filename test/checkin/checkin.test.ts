import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi, payInSandbox } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('door check-in', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let teamEvent: string;

  before(async () => {
    server = await startServer();
    org = await organiser(server.url);
    teamEvent = await event({ maxTeamSize: 4 });
  });
  after(async () => {
    await server.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const event = (fields: Record<string, unknown> = {}) => createEvent(api, { title: 'Door', ...fields });
  const person = (tag = 'p') => ({ name: `Guest ${tag}`, email: uniqueEmail(tag) });
  async function book(eventId: string, members = 0): Promise<{ id: string; ticketIds: string[] }> {
    const r = await api('POST', `/api/v1/events/${eventId}/register`, {
      ...person('primary'),
      ...(members > 0 ? { teamMembers: Array.from({ length: members }, (_, i) => person(`m${i}`)) } : {}),
    });
    assert.equal(r.status, 201, r.text);
    return { id: r.body.registrationId, ticketIds: r.body.ticketIds };
  }
  const look = (eventId: string, value: string) =>
    api('GET', `/api/v1/events/${eventId}/check-in?registrationId=${encodeURIComponent(value)}`);
  const admit = (eventId: string, body: Record<string, unknown>) =>
    api('POST', `/api/v1/events/${eventId}/check-in`, body);

  it('looks up without admitting', async () => {
    const { id } = await book(teamEvent);
    const r = await look(teamEvent, id);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.success, true);
    assert.equal(r.body.data.name, 'Guest primary');
    assert.equal(r.body.data.ticketType, 'General');
    assert.equal(r.body.data.admissible, true);
    assert.equal(r.body.data.checkedIn, false);
    assert.deepEqual([r.body.data.arrived, r.body.data.expected], [0, 1]);
    assert.equal('refusalReason' in r.body.data, false);
    assert.equal((await look(teamEvent, id)).body.data.checkedIn, false, 'still not admitted');
  });

  it('admits once: 201 changed, then 200 alreadyCheckedIn with the timestamp kept; undo reverses', async () => {
    const { id } = await book(teamEvent);
    const first = await admit(teamEvent, { registrationId: id });
    assert.equal(first.status, 201, first.text);
    assert.deepEqual(
      [first.body.changed, first.body.alreadyCheckedIn, first.body.data.checkedIn],
      [true, false, true],
    );
    const at = first.body.data.members[0].checkedInAt;
    assert.ok(at);
    server.clock.advance(60_000);
    const second = await admit(teamEvent, { qr: id });
    assert.equal(second.status, 200);
    assert.deepEqual([second.body.changed, second.body.alreadyCheckedIn], [false, true]);
    assert.equal(second.body.data.members[0].checkedInAt, at, 'timestamp not moved');
    const undo = await admit(teamEvent, { registrationId: id, undo: true });
    assert.equal(undo.status, 201);
    assert.deepEqual([undo.body.changed, undo.body.data.checkedIn], [true, false]);
    const undoAgain = await admit(teamEvent, { registrationId: id, undo: true });
    assert.deepEqual([undoAgain.status, undoAgain.body.changed], [200, false]);
    const again = await admit(teamEvent, { registrationId: id });
    assert.deepEqual([again.status, again.body.changed], [201, true]);
  });

  it('admits team members by index and by their own id; the booking QR admits everyone left', async () => {
    const { id, ticketIds } = await book(teamEvent, 2);
    const look0 = await look(teamEvent, id);
    assert.deepEqual(
      look0.body.data.members.map((m: any) => [m.index, m.id]),
      [
        [0, id],
        [1, ticketIds[1]],
        [2, ticketIds[2]],
      ],
    );
    assert.equal(look0.body.data.expected, 3);

    const one = await admit(teamEvent, { registrationId: id, memberIndex: 1 });
    assert.equal(one.status, 201);
    assert.deepEqual(
      one.body.data.members.map((m: any) => m.checkedIn),
      [false, true, false],
    );
    assert.equal(one.body.data.arrived, 1);

    const own = await admit(teamEvent, { registrationId: ticketIds[2] });
    assert.equal(own.status, 201);
    assert.equal(own.body.data.name, 'Guest m1');
    assert.deepEqual(
      own.body.data.members.map((m: any) => m.checkedIn),
      [false, true, true],
    );
    const ownAgain = await admit(teamEvent, { registrationId: ticketIds[2] });
    assert.deepEqual([ownAgain.status, ownAgain.body.alreadyCheckedIn], [200, true]);

    const rest = await admit(teamEvent, { registrationId: id });
    assert.equal(rest.status, 201);
    assert.equal(rest.body.alreadyCheckedIn, false);
    assert.deepEqual(
      [rest.body.data.arrived, rest.body.data.expected, rest.body.data.checkedIn],
      [3, 3, true],
    );
    assert.equal((await admit(teamEvent, { registrationId: id, memberIndex: 7 })).status, 404);
    assert.equal((await admit(teamEvent, { registrationId: ticketIds[1], memberIndex: 2 })).status, 400);
    const reg = await api('GET', `/api/v1/events/${teamEvent}/registrations/${id}`);
    assert.deepEqual(
      reg.body.data.teamMembers.map((m: any) => m.checkedIn),
      [true, true],
    );
  });

  it('accepts a JSON payload as the QR value', async () => {
    const { id } = await book(teamEvent);
    const payload = JSON.stringify({ registrationId: id });
    assert.equal((await look(teamEvent, payload)).body.data.registrationId, id);
    const r = await admit(teamEvent, { registrationId: payload });
    assert.equal(r.status, 201);
    assert.equal((await admit(teamEvent, { registrationId: '{not json' })).status, 400);
  });

  it('refuses cancelled, refunded and pending bookings with 409 and a refusalReason', async () => {
    const cancelled = await book(teamEvent);
    await api('POST', `/api/v1/events/${teamEvent}/registrations/${cancelled.id}/cancel`);
    const paidEvent = await event({ price: 100 });
    const s1 = (await api('POST', `/api/v1/events/${paidEvent}/register`, person())).body;
    await payInSandbox(api, s1.orderId);
    const refunded = (await api('POST', `/api/v1/events/${paidEvent}/register`, person())).body;
    const pay2 = await payInSandbox(api, refunded.orderId);
    await api('POST', `/api/v1/events/${paidEvent}/register`, {
      registrationId: refunded.registrationId,
      orderId: refunded.orderId,
      paymentId: pay2,
    });
    assert.equal(
      (await api('POST', `/api/v1/events/${paidEvent}/registrations/${refunded.registrationId}/refund`))
        .status,
      200,
    );

    for (const [eventId, id, reason] of [
      [teamEvent, cancelled.id, 'cancelled'],
      [paidEvent, refunded.registrationId, 'refunded'],
      [paidEvent, s1.registrationId, 'not_confirmed'],
    ] as const) {
      const r = await admit(eventId, { registrationId: id });
      assert.equal(r.status, 409, `${reason}: ${r.text}`);
      assert.equal(r.body.refusalReason, reason);
      assert.equal(typeof r.body.error, 'string');
      const l = await look(eventId, id);
      assert.equal(l.status, 200);
      assert.deepEqual([l.body.data.admissible, l.body.data.refusalReason], [false, reason]);
    }
  });

  it('refuses the old QR of a transferred ticket with reason transferred and admits the new one', async () => {
    const { id } = await book(teamEvent);
    const t = await api('POST', `/api/v1/events/${teamEvent}/registrations/${id}/transfer`, {
      name: 'New Holder',
      email: uniqueEmail('new'),
    });
    const code = t.body.data.ticketCode;
    const old = await admit(teamEvent, { registrationId: id });
    assert.equal(old.status, 409);
    assert.equal(old.body.reason, 'transferred');
    const fresh = await admit(teamEvent, { registrationId: code });
    assert.equal(fresh.status, 201);
    assert.equal(fresh.body.data.name, 'New Holder');
    // A second transfer makes the first code an old QR too.
    const t2 = await api('POST', `/api/v1/events/${teamEvent}/registrations/${id}/transfer`, {
      name: 'Third',
      email: uniqueEmail('third'),
    });
    assert.equal((await admit(teamEvent, { registrationId: code })).body.reason, 'transferred');
    assert.equal((await look(teamEvent, t2.body.data.ticketCode)).body.data.name, 'Third');
  });

  it('answers 404 for an id of another event or an unknown id', async () => {
    const other = await event();
    const { id } = await book(other);
    assert.equal((await admit(teamEvent, { registrationId: id })).status, 404);
    assert.equal((await look(teamEvent, id)).status, 404);
    assert.equal((await look(teamEvent, 'reg_doesnotexist')).status, 404);
  });

  it('admits a ticket scanned by two devices at the same moment exactly once', async () => {
    for (let round = 0; round < 5; round++) {
      const { id } = await book(teamEvent, 1);
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => admit(teamEvent, { registrationId: id })),
      );
      assert.equal(answers.filter((a) => a.body.changed === true).length, 1);
      assert.equal(answers.filter((a) => a.status === 201).length, 1);
      assert.ok(answers.every((a) => a.status === 201 || (a.status === 200 && a.body.alreadyCheckedIn)));
    }
  });

  it('is for full keys only, and feeds analytics checkedInCount', async () => {
    const eventId = await event({ maxTeamSize: 3 });
    const a = await book(eventId);
    await book(eventId);
    const checkout = await createKey(server.url, org.token, { class: 'checkout' });
    assert.equal(
      (
        await call(server.url, 'GET', `/api/v1/events/${eventId}/check-in?registrationId=${a.id}`, {
          key: checkout.key,
        })
      ).status,
      403,
    );
    assert.equal(
      (
        await call(server.url, 'POST', `/api/v1/events/${eventId}/check-in`, {
          key: checkout.key,
          body: { registrationId: a.id },
        })
      ).status,
      403,
    );
    await admit(eventId, { registrationId: a.id });
    assert.equal((await api('GET', `/api/v1/events/${eventId}/analytics`)).body.checkedInCount, 1);
    await admit(eventId, { registrationId: a.id, undo: true });
    assert.equal((await api('GET', `/api/v1/events/${eventId}/analytics`)).body.checkedInCount, 0);
    // A booking counts once however many of its people are in, and while any one of them is.
    const team = await book(eventId, 2);
    await admit(eventId, { registrationId: team.id });
    assert.equal((await api('GET', `/api/v1/events/${eventId}/analytics`)).body.checkedInCount, 1);
    await admit(eventId, { registrationId: team.id, memberIndex: 0, undo: true });
    assert.equal((await api('GET', `/api/v1/events/${eventId}/analytics`)).body.checkedInCount, 1);
  });
});
