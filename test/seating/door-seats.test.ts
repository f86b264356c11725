// Seats at the door (docs/decisions/23-reserved-seating.md, "At the door"): a seated booking's scan
// answers each person's seat ("Stalls · Row A, seat 1") for the scanned person and every member,
// whichever path answers it — the database's one statement, the warm in-memory roster, the
// grouped admit, an undo, a transferred ticket's new code — and the door's offline roster carries
// the seats too. An event without a plan answers `seat: null` everywhere, the same shape.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { seatWords } from '../../src/modules/seat-holds/booked-seats.service.js';
import { passApi } from '../helpers/callers.js';
import { createEventData, keyApi, type Api } from '../helpers/factories.js';
import { organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const grid = { sections: [{ name: 'Stalls', rows: 2, seatsPerRow: 6, category: 'Gold' }] };

interface Booking {
  id: string;
  ticketIds: string[];
}

describe('seats at the door', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let api: Api;
  let seated: string;
  let plain: string;
  /** Three people on seats, A-3 (the n-th seat of the hold to the n-th person). */
  let team: Booking;
  let single: Booking;
  let unseated: Booking;
  /** Each person's seat in words, by their id, as the registration answers it. */
  const seatOf = new Map<string, string>();

  const asPass = passApi(() => server.url);
  const rosters = () => server.deps.door.rosters;
  async function lookups(from: 'roster' | 'database'): Promise<number> {
    const values = (await rosters().metrics.lookups.get()).values;
    return values.find((v) => v.labels.from === from)?.value ?? 0;
  }
  const look = (eventId: string, value: string) =>
    api('GET', `/api/v1/events/${eventId}/check-in?registrationId=${encodeURIComponent(value)}`);
  const checkIn = (eventId: string, body: Record<string, unknown>) =>
    api('POST', `/api/v1/events/${eventId}/check-in`, body);

  /** The event's roster dropped: the next read is the database's (and starts a build). */
  async function cold(eventId: string): Promise<void> {
    await rosters().settled();
    rosters().deleted(eventId);
  }
  /** The event's roster built and current: the next read is the roster's. */
  async function warm(eventId: string, value: string): Promise<void> {
    await rosters().whenListening();
    if (!rosters().held().includes(eventId)) assert.equal((await look(eventId, value)).status, 200);
    await rosters().settled();
  }
  /** A lookup, asserting which path answered it. */
  async function lookFrom(from: 'roster' | 'database', eventId: string, value: string) {
    if (from === 'database') await cold(eventId);
    else await warm(eventId, value);
    const before = await lookups(from);
    const r = await look(eventId, value);
    assert.equal(r.status, 200, r.text);
    assert.equal(await lookups(from), before + 1, `answered by the ${from}`);
    return r.body.data;
  }

  async function book(eventId: string, seats: string[] | null, members: number): Promise<Booking> {
    let holdToken: string | undefined;
    if (seats) {
      const h = await api('POST', `/api/v1/events/${eventId}/seats/hold`, { seats });
      assert.equal(h.status, 201, h.text);
      holdToken = h.body.data.holdToken;
    }
    const r = await api('POST', `/api/v1/events/${eventId}/register`, {
      name: 'Asha Lead',
      email: uniqueEmail('lead'),
      ...(holdToken ? { holdToken } : {}),
      ...(members > 0
        ? {
            teamMembers: Array.from({ length: members }, (_, i) => ({
              name: `Member ${i + 1}`,
              email: uniqueEmail(`m${i}`),
            })),
          }
        : {}),
    });
    assert.equal(r.status, 201, r.text);
    const id = r.body.registrationId as string;
    if (seats) {
      const reg = await api('GET', `/api/v1/events/${eventId}/registrations/${id}`);
      for (const s of reg.body.data.seats) seatOf.set(s.attendeeId, seatWords(s));
    }
    return { id, ticketIds: r.body.ticketIds };
  }

  before(async () => {
    server = await startServer({ env: { BASE_URL: 'https://tickets.example.in' } });
    org = await organiser(server.url);
    api = keyApi(server.url, org.key);
    const plan = await api('POST', '/api/v1/seating-plans', { name: 'Hall', grid });
    assert.equal(plan.status, 201, plan.text);
    seated = (
      await createEventData(api, {
        title: 'Hamlet at the door',
        seatingPlanId: plan.body.data.id,
        specialPrices: [{ name: 'Gold', price: 0 }],
        maxTeamSize: 4,
      })
    ).id;
    plain = (await createEventData(api, { title: 'Open seating', maxTeamSize: 4 })).id;
    team = await book(seated, ['Stalls-A-1', 'Stalls-A-2', 'Stalls-A-3'], 2);
    single = await book(seated, ['Stalls-B-4'], 0);
    unseated = await book(plain, null, 1);
  });
  after(async () => server.close());

  const seatsOfMembers = (data: { members: { seat: string | null }[] }) => data.members.map((m) => m.seat);

  it('a team booking’s scan answers each person’s seat, the same from the database and from the warm roster', async () => {
    const everyone = ['Stalls · Row A, seat 1', 'Stalls · Row A, seat 2', 'Stalls · Row A, seat 3'];
    assert.deepEqual(
      [team.id, ...team.ticketIds.slice(1)].map((id) => seatOf.get(id)),
      everyone,
      'the registration’s seats, one per person in order',
    );
    for (const [value, shown, memberIndex] of [
      [team.id, everyone[0], null],
      [team.ticketIds[2]!, everyone[2], 2],
      [team.ticketIds[1]!, everyone[1], 1],
    ] as const) {
      const db = await lookFrom('database', seated, value);
      assert.equal(db.seat, shown, `the scanned person’s seat (${value})`);
      assert.equal(db.memberIndex, memberIndex);
      assert.deepEqual(seatsOfMembers(db), everyone, 'every member’s seat');
      const memory = await lookFrom('roster', seated, value);
      assert.deepEqual(memory, db, 'the roster answers as the database does');
    }
    const one = await lookFrom('database', seated, single.id);
    assert.deepEqual([one.seat, seatsOfMembers(one)], ['Stalls · Row B, seat 4', ['Stalls · Row B, seat 4']]);
    assert.deepEqual(await lookFrom('roster', seated, single.id), one);
  });

  it('admits and undos answer the seats too: the grouped admit, the undo, a transferred ticket by its new code', async () => {
    const b = await book(seated, ['Stalls-B-1', 'Stalls-B-2'], 1);
    const seats = ['Stalls · Row B, seat 1', 'Stalls · Row B, seat 2'];
    const member = await checkIn(seated, { registrationId: b.ticketIds[1] });
    assert.equal(member.status, 201, member.text);
    assert.deepEqual([member.body.data.seat, seatsOfMembers(member.body.data)], [seats[1], seats]);
    const rest = await checkIn(seated, { registrationId: b.id });
    assert.equal(rest.status, 201, rest.text);
    assert.deepEqual([rest.body.data.seat, seatsOfMembers(rest.body.data)], [seats[0], seats]);
    const again = await checkIn(seated, { registrationId: b.id });
    assert.deepEqual([again.status, again.body.data.seat], [200, seats[0]], 'already in, still seated');
    const undo = await checkIn(seated, { registrationId: b.ticketIds[1], undo: true });
    assert.equal(undo.status, 201, undo.text);
    assert.deepEqual([undo.body.data.seat, seatsOfMembers(undo.body.data)], [seats[1], seats]);

    const t = await api('POST', `/api/v1/events/${seated}/registrations/${b.id}/transfer`, {
      name: 'New Holder',
      email: uniqueEmail('new'),
    });
    assert.equal(t.status, 200, t.text);
    const code = t.body.data.ticketCode as string;
    for (const from of ['database', 'roster'] as const) {
      const byCode = await lookFrom(from, seated, code);
      assert.deepEqual(
        [byCode.name, byCode.seat, seatsOfMembers(byCode)],
        ['New Holder', seats[0], seats],
        `the new holder keeps the seat (${from})`,
      );
    }
    const byCode = await checkIn(seated, { registrationId: code });
    assert.deepEqual(
      [byCode.status, byCode.body.data.seat, seatsOfMembers(byCode.body.data)],
      [201, seats[0], seats],
      'admitted by the new code',
    );
  });

  it('an event without a plan answers seat null for the person and every member, on every path', async () => {
    for (const from of ['database', 'roster'] as const) {
      for (const value of [unseated.id, unseated.ticketIds[1]!]) {
        const data = await lookFrom(from, plain, value);
        assert.equal(data.seat, null, `${from} ${value}`);
        assert.deepEqual(seatsOfMembers(data), [null, null]);
        assert.ok(Object.hasOwn(data, 'seat') && data.members.every((m: object) => Object.hasOwn(m, 'seat')));
      }
    }
    const admitted = await checkIn(plain, { registrationId: unseated.id });
    assert.equal(admitted.status, 201, admitted.text);
    assert.deepEqual([admitted.body.data.seat, seatsOfMembers(admitted.body.data)], [null, [null, null]]);
  });

  it('the door’s roster carries each person’s seat, from the database and from memory; null without a plan', async () => {
    const pass = async (eventId: string) => {
      const r = await api('POST', `/api/v1/events/${eventId}/door-passes`, { label: 'Gate A' });
      assert.equal(r.status, 201, r.text);
      return new URL(r.body.data.url).pathname.split('/')[2]!;
    };
    const roster = async (eventId: string, token: string, from: 'roster' | 'database') => {
      if (from === 'database') await cold(eventId);
      else await warm(eventId, eventId === seated ? team.id : unseated.id);
      const before = await lookups(from);
      const r = await asPass('GET', `/api/v1/events/${eventId}/door/roster`, token);
      assert.equal(r.status, 200, r.text);
      assert.equal(await lookups(from), before + 1, `the roster answered by the ${from}`);
      return r.body.data.entries as { key: string; members: { key: string; seat: string | null }[] }[];
    };
    const token = await pass(seated);
    const fromDb = await roster(seated, token, 'database');
    const entry = fromDb.find((e) => e.key === sha256(team.id))!;
    assert.deepEqual(
      entry.members.map((m) => [m.key, m.seat]),
      [
        [sha256(team.id), 'Stalls · Row A, seat 1'],
        [sha256(team.ticketIds[1]!), 'Stalls · Row A, seat 2'],
        [sha256(team.ticketIds[2]!), 'Stalls · Row A, seat 3'],
      ],
    );
    const fromMemory = await roster(seated, token, 'roster');
    const byKey = (entries: typeof fromDb) => new Map(entries.map((e) => [e.key, e.members]));
    assert.deepEqual(byKey(fromMemory), byKey(fromDb), 'the same seats from memory');

    const plainToken = await pass(plain);
    for (const from of ['database', 'roster'] as const) {
      const members = (await roster(plain, plainToken, from)).find(
        (e) => e.key === sha256(unseated.id),
      )!.members;
      assert.deepEqual(
        members.map((m) => m.seat),
        [null, null],
        from,
      );
    }
  });

  it('a booking moved to other seats shows them at once, from a warm roster too', async () => {
    const moving = await book(seated, ['Stalls-B-5'], 0);
    /** The roster read again after a change it heard of (the first lookup after it is the database's). */
    const current = async () => {
      assert.equal((await look(seated, moving.id)).status, 200);
      await rosters().settled();
    };
    await current();
    assert.equal((await lookFrom('roster', seated, moving.id)).seat, 'Stalls · Row B, seat 5');
    const moved = await api('POST', `/api/v1/events/${seated}/registrations/${moving.id}/seats`, {
      seats: ['Stalls-B-6'],
    });
    assert.equal(moved.status, 200, moved.text);
    await current();
    assert.equal(
      (await lookFrom('roster', seated, moving.id)).seat,
      'Stalls · Row B, seat 6',
      'the move raised the door version: the roster read the booking again',
    );
  });
});
