// Check-in lists (docs/decisions/28-a-persons-day.md), through HTTP: a door pass for one day or one track admits
// that session's tickets once per list, refuses another session's with `wrong_session`
// naming the session it is valid for, admits a whole-event ticket on each day, and shows
// the old QR of a transferred ticket as transferred (the roster carries its hash).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { call, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { passApi } from '../helpers/callers.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { confirmedBookingsOf } from '../helpers/rows.js';
import { startServer, type TestServer } from '../helpers/server.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('check-in lists: a door for one day or one session', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let eventId: string;

  before(async () => {
    server = await startServer();
    org = await organiser(server.url);
    eventId = await createEvent(api, {
      title: 'Two-day festival',
      startDate: '2026-12-20',
      endDate: '2026-12-21',
      tracks: [
        {
          title: 'Day 1',
          date: '2026-12-20T18:30:00+05:30',
          endDate: '2026-12-20T21:00:00+05:30',
          capacity: 50,
        },
        {
          title: 'Day 2',
          date: '2026-12-21T18:30:00+05:30',
          endDate: '2026-12-21T21:00:00+05:30',
          capacity: 50,
        },
      ],
    });
  });
  after(async () => {
    await server.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const asPass = passApi(() => server.url);

  /** A free booking of one track (or the whole event), confirmed at once. */
  async function book(track: number | null, name = 'Guest'): Promise<string> {
    const r = await api('POST', `/api/v1/events/${eventId}/register`, {
      name,
      email: uniqueEmail('list'),
      ...(track === null ? {} : { subEventId: String(track) }),
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.status, 'confirmed', r.text);
    return r.body.registrationId;
  }
  async function pass(
    label: string,
    scope?: unknown,
  ): Promise<{ id: string; token: string; scope: unknown }> {
    const r = await api('POST', `/api/v1/events/${eventId}/door-passes`, {
      label,
      ...(scope === undefined ? {} : { scope }),
    });
    assert.equal(r.status, 201, r.text);
    return {
      id: r.body.data.id,
      token: new URL(r.body.data.url).pathname.split('/')[2]!,
      scope: r.body.data.scope,
    };
  }
  let seq = 0;
  async function scan(
    token: string,
    ticketId: string,
    action: 'admit' | 'undo' = 'admit',
    deviceId = 'phone-1',
  ) {
    const r = await asPass('POST', `/api/v1/events/${eventId}/door/sync`, token, {
      deviceId,
      scans: [{ seq: ++seq, ticketId, action }],
    });
    assert.equal(r.status, 200, r.text);
    return { ...r.body.data.results[0], counts: r.body.data.counts };
  }

  it('a Day 2 ticket is refused at Day 1’s list, naming its session, and admitted at Day 2’s', async () => {
    const day1 = await pass('Day 1 gate', { date: '2026-12-20' });
    const day2 = await pass('Day 2 gate', { date: '2026-12-21' });
    assert.deepEqual([day1.scope, day2.scope], [{ date: '2026-12-20' }, { date: '2026-12-21' }]);
    const ticket = await book(1, 'Dia Second');

    const refused = await scan(day1.token, ticket);
    assert.equal(refused.status, 'refused');
    assert.equal(refused.reason, 'wrong_session');
    assert.equal(refused.session, 'Day 2 · Mon 21 Dec 2026, 6:30 pm – 9:00 pm IST');
    assert.match(refused.message, /another session: Day 2/);
    const admitted = await scan(day2.token, ticket);
    assert.equal(admitted.status, 'admitted');
    // Once per list: the same list again says who and when.
    const again = await scan(day2.token, ticket, 'admit', 'phone-2');
    assert.equal(again.status, 'already_admitted');
    assert.match(again.by, /^Day 2 gate/);
    // Still refused at Day 1 after being admitted on Day 2.
    assert.equal((await scan(day1.token, ticket)).reason, 'wrong_session');

    // A track's list: its own tickets only.
    const track2 = await pass('Session 2 door', { trackIndex: 1 });
    assert.equal((await scan(track2.token, ticket)).status, 'admitted', 'a list of its own');
    const day1Ticket = await book(0, 'Dev First');
    const other = await scan(track2.token, day1Ticket);
    assert.deepEqual([other.status, other.reason], ['refused', 'wrong_session']);
    assert.match(other.session, /^Day 1 · Sun 20 Dec 2026/);

    // The whole event's list (the API's check-in) is its own: nobody is in there yet.
    const look = await api('GET', `/api/v1/events/${eventId}/check-in?registrationId=${ticket}`);
    assert.equal(look.body.data.checkedIn, false);
    assert.equal(
      (await api('POST', `/api/v1/events/${eventId}/check-in`, { registrationId: ticket })).status,
      201,
    );
  });

  it('a whole-event ticket is admitted once on each day; undo on one day leaves the other', async () => {
    const day1 = await pass('D1', { date: '2026-12-20' });
    const day2 = await pass('D2', { date: '2026-12-21' });
    const ticket = await book(null, 'Wes Whole');
    assert.equal((await scan(day1.token, ticket)).status, 'admitted');
    assert.equal((await scan(day1.token, ticket)).status, 'already_admitted');
    assert.equal((await scan(day2.token, ticket)).status, 'admitted');
    assert.equal((await scan(day1.token, ticket, 'undo')).status, 'undone');
    assert.equal((await scan(day2.token, ticket)).status, 'already_admitted');
    assert.equal((await scan(day1.token, ticket)).status, 'admitted');
    const log = await server.deps.db
      .selectFrom('checkin_log')
      .select(['action', 'list'])
      .where('attendee_id', '=', ticket)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      log.map((l) => `${l.action} ${l.list}`),
      ['admit date:2026-12-20', 'admit date:2026-12-21', 'undo date:2026-12-20', 'admit date:2026-12-20'],
    );
  });

  it('two devices admitting one ticket on one list at once: exactly one admits', async () => {
    const day2 = await pass('Race', { date: '2026-12-21' });
    const ticket = await book(1, 'Rae Race');
    const [a, b] = await Promise.all([
      scan(day2.token, ticket, 'admit', 'race-a'),
      scan(day2.token, ticket, 'admit', 'race-b'),
    ]);
    assert.deepEqual([a.status, b.status].sort(), ['admitted', 'already_admitted']);
  });

  it('the roster of a day’s list: other sessions refused with their session, counts and state of that list', async () => {
    const day1 = await pass('Roster D1', { date: '2026-12-20' });
    const d1 = await book(0, 'Ana One');
    const d2 = await book(1, 'Ben Two');
    const whole = await book(null, 'Cy Whole');
    assert.equal((await scan(day1.token, d1)).status, 'admitted');
    const r = await asPass('GET', `/api/v1/events/${eventId}/door/roster`, day1.token);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.data.list, { scope: { date: '2026-12-20' }, label: 'Sun 20 Dec 2026' });
    const entry = (id: string) => r.body.data.entries.find((e: any) => e.key === sha256(id));
    assert.deepEqual([entry(d1).refusal, entry(d1).members[0].checkedIn], [null, true]);
    assert.deepEqual(
      [entry(d2).refusal, entry(d2).session],
      ['wrong_session', 'Day 2 · Mon 21 Dec 2026, 6:30 pm – 9:00 pm IST'],
    );
    assert.deepEqual(
      [entry(whole).refusal, entry(whole).session, entry(whole).members[0].checkedIn],
      [null, null, false],
    );
    // Day 1's list expects Day 1 and whole-event tickets; its arrivals are its own.
    const day1People = (await confirmedBookingsOf(server, eventId)).filter(
      (x) => x.sub_event_id !== 1,
    ).length;
    const arrivedOnDay1 = await server.deps.db
      .selectFrom('door_list_admissions')
      .select('attendee_id')
      .where('list', '=', 'date:2026-12-20')
      .where('checked_in_at', 'is not', null)
      .execute();
    assert.deepEqual(r.body.data.counts, { expected: day1People, arrived: arrivedOnDay1.length });
    // Changes since a cursor include an admission on this list.
    const cursor = r.body.data.cursor;
    assert.equal((await scan(day1.token, whole)).status, 'admitted');
    const since = await asPass('GET', `/api/v1/events/${eventId}/door/roster?since=${cursor}`, day1.token);
    const changed = since.body.data.entries.map((e: any) => e.key);
    assert.ok(changed.includes(sha256(whole)), 'the admitted booking');
    assert.ok(!changed.includes(sha256(d2)), 'not an unchanged one');
    assert.equal(
      since.body.data.entries.find((e: any) => e.key === sha256(whole)).members[0].checkedIn,
      true,
    );
    // The door page says which list it admits for.
    const page = await call(server.url, 'GET', `/door/${day1.token}`);
    assert.match(page.text, /Admits for: <strong>Sun 20 Dec 2026<\/strong>/);
    const wholePass = await pass('Main gate');
    assert.equal(wholePass.scope, null);
    assert.match(
      (await call(server.url, 'GET', `/door/${wholePass.token}`)).text,
      /Admits for: <strong>Whole event<\/strong>/,
    );
  });

  it('a transferred ticket’s old QR is refused as transferred, and the roster carries its hash only', async () => {
    const day2 = await pass('T D2', { date: '2026-12-21' });
    const main = await pass('T main');
    const id = await book(1, 'Old Holder');
    const t = await api('POST', `/api/v1/events/${eventId}/registrations/${id}/transfer`, {
      name: 'New Holder',
      email: uniqueEmail('new'),
    });
    assert.equal(t.status, 200, t.text);
    const code: string = t.body.data.ticketCode;
    for (const p of [day2, main]) {
      const old = await scan(p.token, id);
      assert.deepEqual([old.status, old.reason], ['refused', 'transferred']);
      const roster = await asPass('GET', `/api/v1/events/${eventId}/door/roster`, p.token);
      const entry = roster.body.data.entries.find((e: any) => e.key === sha256(code));
      assert.deepEqual(entry.retired, [sha256(id)]);
      assert.ok(
        !roster.body.data.entries.some((e: any) => e.key === sha256(id)),
        'no entry under the old QR',
      );
      assert.ok(!roster.text.includes(id) && !roster.text.includes(code), 'hashes only');
    }
    // A second transfer retires the first code too.
    const t2 = await api('POST', `/api/v1/events/${eventId}/registrations/${id}/transfer`, {
      name: 'Third Holder',
      email: uniqueEmail('third'),
    });
    const roster = await asPass('GET', `/api/v1/events/${eventId}/door/roster`, main.token);
    const entry = roster.body.data.entries.find((e: any) => e.key === sha256(t2.body.data.ticketCode));
    assert.deepEqual(new Set(entry.retired), new Set([sha256(id), sha256(code)]));
    assert.equal((await scan(day2.token, t2.body.data.ticketCode)).status, 'admitted');
  });

  it('checks the scope when a pass is made', async () => {
    const bad = async (scope: unknown) =>
      api('POST', `/api/v1/events/${eventId}/door-passes`, { label: 'x', scope });
    assert.deepEqual(
      [(await bad({ trackIndex: 5 })).status, (await bad({ trackIndex: 5 })).body.code],
      [404, 'track_not_found'],
    );
    assert.equal((await bad({ date: '2026-02-30' })).status, 400);
    assert.equal((await bad({ date: 'tomorrow' })).status, 400);
    assert.equal((await bad({ date: '2026-12-20', trackIndex: 0 })).status, 400);
    const list = await api('GET', `/api/v1/events/${eventId}/door-passes`);
    assert.ok(list.body.data.some((p: any) => p.label === 'Session 2 door' && p.scope?.trackIndex === 1));
  });
});
