// The in-memory door roster's own rules (src/modules/checkin/roster.ts): what a QR value
// names, which bookings a cursor has not seen, and that a read older than this instance's
// own write never undoes it; a whole read taken page by page.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  EventRoster,
  parseSnapshot,
  RosterBuild,
  sha256,
  visibleIn,
} from '../../src/modules/checkin/roster.js';
import type { RosterHead, RosterPersonRow, RosterReadRow } from '../../src/modules/checkin/roster.repo.js';
import { TextArena } from '../../src/modules/checkin/roster-columns.js';
import { storeFrom, storeParts } from '../../src/modules/checkin/roster-parts.js';

const base = {
  cursor: '',
  version: 0,
  ev_account_id: 'usr_1',
  ev_mode: 'test',
  ev_title: 'Gig',
  ev_tracks: [{ title: 'Main hall' }],
} as const;

function row(reg: string, idx: number, over: Partial<RosterPersonRow> = {}): RosterReadRow & RosterPersonRow {
  return {
    ...base,
    ev_tracks: base.ev_tracks as never,
    registration_id: reg,
    status: 'confirmed',
    ticket_type: 'General',
    sub_event_id: null,
    ticket_code: null,
    previous_ticket_codes: [],
    r_xid: 100,
    attendee_id: idx === 0 ? reg : `${reg}_m${idx}`,
    idx,
    name: `${reg} ${idx}`,
    email: `${reg}${idx}@example.in`,
    checked_in_at: null,
    checked_in_by: null,
    a_xid: 100,
    seat: null,
    ...over,
  };
}

describe('door roster', () => {
  it('reads pg snapshots and decides visibility as PostgreSQL does', () => {
    const s = parseSnapshot('100:110:102,105')!;
    assert.deepEqual(
      [
        visibleIn(99, s),
        visibleIn(101, s),
        visibleIn(102, s),
        visibleIn(105, s),
        visibleIn(110, s),
        visibleIn(120, s),
      ],
      [true, true, false, false, false, false],
    );
    assert.equal(parseSnapshot('110:100:'), undefined);
    assert.equal(parseSnapshot('x'), undefined);
    assert.deepEqual([...parseSnapshot('5:5:')!.running], []);
  });

  it('finds a booking by its id, a member by theirs, a transferred ticket by its new and old codes', () => {
    const r = new EventRoster('ev_1');
    r.applyRead(
      [
        row('reg_a', 0),
        row('reg_a', 1),
        row('reg_b', 0, { ticket_code: 'tkt_new', previous_ticket_codes: ['tkt_old'] }),
      ],
      3,
      '1:1:',
      true,
    );
    assert.deepEqual([r.hit('reg_a')!.only, r.hit('reg_a')!.transferred], [undefined, false]);
    assert.equal(r.hit('reg_a_m1')!.only, 1);
    assert.equal(r.hit('reg_b')!.transferred, true, 'the booking id stops being a ticket after a transfer');
    assert.equal(r.hit('tkt_new')!.transferred, false);
    assert.equal(r.hit('tkt_old')!.transferred, true);
    assert.equal(r.hit('nope'), undefined);
    assert.equal(r.valueOfKey(sha256('tkt_new')), 'tkt_new');
    assert.equal(r.valueOfKey(sha256('reg_a_m1')), 'reg_a_m1');
    assert.deepEqual(r.counts(), { arrived: 0, expected: 3 });
    assert.equal(r.version, 3);
  });

  it('a later read replaces a booking and its codes; a whole read drops what is gone', () => {
    const r = new EventRoster('ev_1');
    r.applyRead([row('reg_a', 0), row('reg_b', 0)], 1, '1:1:', true);
    r.applyRead(
      [row('reg_a', 0, { status: 'refunded', ticket_code: 'tkt_2', previous_ticket_codes: [] })],
      2,
      '2:2:',
      false,
    );
    assert.equal(r.hit('reg_a')!.booking.status, 'refunded');
    assert.ok(r.hit('tkt_2'));
    assert.deepEqual(r.counts(), { arrived: 0, expected: 1 });
    r.applyRead([row('reg_b', 0)], 3, '3:3:', true);
    assert.equal(r.hit('reg_a'), undefined);
    assert.equal(r.hit('tkt_2'), undefined);
  });

  it('this instance’s own admit stays when an older read lands after it, and moves the version on only from the one before', () => {
    const r = new EventRoster('ev_1');
    r.applyRead([row('reg_a', 0), row('reg_b', 0)], 4, '1:1:', true);
    const at = new Date('2026-12-20T10:00:00Z');
    r.applyCheckIns(5, 200, [{ registrationId: 'reg_a', idx: 0, at, by: 'key:k1' }]);
    assert.equal(r.version, 5);
    assert.equal(r.current, true);
    // A read made before the admit committed (version 4) arrives late: reg_a stays admitted.
    r.applyRead([row('reg_a', 0), row('reg_b', 0, { name: 'Renamed' })], 4, '2:2:', false);
    assert.deepEqual(r.hit('reg_a')!.booking.people[0]!.checkedInAt, at);
    assert.equal(r.hit('reg_b')!.booking.people[0]!.name, 'Renamed');
    // An admit at 7 while the roster stands at 5: 6 is unknown, so it is not current.
    r.applyCheckIns(7, 210, [{ registrationId: 'reg_b', idx: 0, at, by: 'key:k1' }]);
    assert.deepEqual([r.version, r.wanted, r.current], [5, 7, false]);
  });

  it('moves over its own writes taken in out of order, or ahead of a read, and stops at a version that is not its own', () => {
    const r = new EventRoster('ev_1');
    r.applyRead([row('reg_a', 0), row('reg_b', 0), row('reg_c', 0)], 4, '1:1:', true);
    const at = new Date('2026-12-20T10:00:00Z');
    // Two of this instance's statements answered in the other order: 6 waits for 5.
    r.applyCheckIns(6, 202, [{ registrationId: 'reg_b', idx: 0, at, by: 'key:k1' }]);
    assert.deepEqual([r.version, r.current], [4, false]);
    r.applyCheckIns(5, 201, [{ registrationId: 'reg_a', idx: 0, at, by: 'key:k1' }]);
    assert.deepEqual([r.version, r.wanted, r.current], [6, 6, true]);
    // 7 is another instance's change; this instance's 8 is taken in but the version stops at 6.
    r.wanted = 7;
    r.applyCheckIns(8, 204, [{ registrationId: 'reg_c', idx: 0, at, by: 'key:k1' }]);
    assert.deepEqual([r.version, r.wanted, r.current], [6, 8, false]);
    // The read that brings 7 (made before 8 committed) moves the version over 8 too, and keeps 8's admit.
    r.applyRead(
      [row('reg_a', 0, { checked_in_at: at }), row('reg_c', 0, { name: 'Seven' })],
      7,
      '3:3:',
      false,
    );
    assert.deepEqual([r.version, r.current], [8, true]);
    assert.equal(r.hit('reg_c')!.booking.people[0]!.checkedInAt?.getTime(), at.getTime());
  });

  it('lists the bookings a cursor has not seen: written after it or still running then', () => {
    const r = new EventRoster('ev_1');
    r.applyRead(
      [
        row('reg_old', 0, { r_xid: 90, a_xid: 90 }),
        row('reg_running', 0, { r_xid: 95, a_xid: 95 }),
        row('reg_person', 0, { r_xid: 90, a_xid: 130 }),
        row('reg_new', 0, { r_xid: 120, a_xid: 120 }),
      ],
      1,
      '1:1:',
      true,
    );
    const since = parseSnapshot('92:110:95')!;
    assert.deepEqual(
      [...r.bookings(since)].map((b) => b.id),
      ['reg_running', 'reg_person', 'reg_new'],
    );
    assert.equal([...r.bookings()].length, 4);
  });

  const head = (version: number, bookings: number, people: number): RosterHead => ({
    ...base,
    ev_tracks: null,
    cursor: `${version}:${version}:`,
    version,
    bookings,
    people,
  });
  const everything = (r: EventRoster) =>
    [...r.bookings()].map((b) => [
      b.id,
      b.status,
      b.ticketCode,
      b.people.map((p) => [p.id, p.idx, p.name, p.checkedInAt?.toISOString() ?? null, p.checkedInBy]),
    ]);

  it('a whole read taken page by page (a booking split between pages) holds what one read holds', () => {
    const rows = [
      row('reg_a', 0),
      row('reg_a', 1),
      row('reg_a', 2),
      row('reg_b', 0, { ticket_code: 'tkt_b', previous_ticket_codes: ['tkt_b0'] }),
      row('reg_c', 0, { status: 'cancelled' }),
    ];
    const whole = new EventRoster('ev_1');
    whole.applyRead(rows, 2, '2:2:', true);
    const sliced = new EventRoster('ev_1');
    const build = new RosterBuild(head(2, 3, 5));
    build.add(rows.slice(0, 2));
    build.add(rows.slice(2, 4));
    assert.equal(sliced.version, -1, 'nothing is taken in before the build is complete');
    build.add(rows.slice(4));
    sliced.finishWhole(build.done());
    assert.deepEqual(everything(sliced), everything(whole));
    assert.deepEqual(
      [sliced.version, sliced.cursor, sliced.size, sliced.people, sliced.accountId],
      [2, '2:2:', 3, 5, 'usr_1'],
    );
    assert.equal(sliced.hit('reg_a_m2')!.only, 2);
    assert.equal(sliced.hit('tkt_b0')!.transferred, true);
    assert.equal(sliced.valueOfKey(sha256('tkt_b')), 'tkt_b');
    assert.equal(sliced.valueOfKey(sha256('reg_b')), undefined, 'the retired QR is no roster key');
    assert.equal(sliced.valueOfKey('not a key'), undefined);
  });

  it('a whole read replacing a roster keeps this instance’s newer writes and drops what it did not see', () => {
    const r = new EventRoster('ev_1');
    r.applyRead([row('reg_a', 0), row('reg_b', 0), row('reg_gone', 0)], 4, '1:1:', true);
    const at = new Date('2026-12-20T10:00:00Z');
    r.applyCheckIns(5, 200, [{ registrationId: 'reg_b', idx: 0, at, by: 'pass:p1' }]);
    // Read at version 4, before the admit committed; reg_gone was deleted meanwhile.
    const build = new RosterBuild(head(4, 2, 2));
    build.add([row('reg_a', 0, { name: 'Renamed' }), row('reg_b', 0)]);
    r.finishWhole(build.done());
    assert.equal(r.hit('reg_gone'), undefined);
    assert.equal(r.hit('reg_a')!.booking.people[0]!.name, 'Renamed');
    assert.deepEqual(r.hit('reg_b')!.booking.people[0]!.checkedInAt, at, 'the newer admit stays');
    assert.equal(r.hit('reg_b')!.booking.people[0]!.checkedInBy, 'pass:p1');
    assert.deepEqual([r.version, r.size, r.people], [5, 2, 2]);
    assert.deepEqual(r.counts(), { arrived: 1, expected: 2 });
  });

  it('a delta changes a booking where it stands, or anew when its QR values or people change', () => {
    const r = new EventRoster('ev_1');
    r.applyRead([row('reg_a', 0), row('reg_b', 0), row('reg_b', 1)], 1, '1:1:', true);
    const at = new Date('2026-12-20T11:00:00Z');
    r.applyRead(
      [row('reg_a', 0, { checked_in_at: at, checked_in_by: 'key:k1', r_xid: 150, a_xid: 150 })],
      2,
      '2:2:',
      false,
    );
    assert.deepEqual(
      [...r.bookings()].map((b) => b.id),
      ['reg_a', 'reg_b'],
      'an admit changes the booking where it stands',
    );
    assert.deepEqual(r.hit('reg_a')!.booking.people[0]!.checkedInAt, at);
    // A transfer: the primary's QR becomes the new code; a member leaves the booking.
    r.applyRead([row('reg_b', 0, { ticket_code: 'tkt_t', previous_ticket_codes: [] })], 3, '3:3:', false);
    assert.equal(r.hit('reg_b_m1'), undefined);
    assert.equal(r.hit('reg_b')!.transferred, true);
    assert.equal(r.hit('tkt_t')!.booking.people.length, 1);
    assert.equal(r.valueOfKey(sha256('reg_b')), undefined);
    assert.equal(r.valueOfKey(sha256('tkt_t')), 'tkt_t');
    assert.deepEqual([r.size, r.people], [2, 2]);
    assert.deepEqual(r.counts(), { arrived: 1, expected: 2 });
    // A whole read without reg_b forgets its codes too.
    r.applyRead([row('reg_a', 0)], 4, '4:4:', true);
    assert.equal(r.hit('tkt_t'), undefined);
    assert.deepEqual([r.size, r.people], [1, 1]);
  });

  it('keeps each person’s seat: read back, changed by a delta, handed over by a worker; an unseated person costs no byte more', () => {
    const seats = (r: EventRoster, value: string) => r.hit(value)!.booking.people.map((p) => p.seat);
    const rows = [
      row('reg_a', 0, { seat: 'Stalls · Row A, seat 1' }),
      row('reg_a', 1, { seat: 'Stalls · Row A, seat 2' }),
      row('reg_b', 0),
    ];
    const r = new EventRoster('ev_1');
    r.applyRead(rows, 1, '1:1:', true);
    assert.deepEqual(seats(r, 'reg_a_m1'), ['Stalls · Row A, seat 1', 'Stalls · Row A, seat 2']);
    assert.deepEqual(seats(r, 'reg_b'), [null]);
    // Moved to another seat: the booking's text changes, so it is taken in anew.
    r.applyRead(
      [
        row('reg_a', 0, { seat: 'Stalls · Row A, seat 1' }),
        row('reg_a', 1, { seat: 'Balcony · Row C, seat 12' }),
      ],
      2,
      '2:2:',
      false,
    );
    assert.deepEqual(seats(r, 'reg_a'), ['Stalls · Row A, seat 1', 'Balcony · Row C, seat 12']);
    r.applyRead([row('reg_a', 0), row('reg_a', 1)], 3, '3:3:', false);
    assert.deepEqual(seats(r, 'reg_a'), [null, null], 'seats freed (a cancelled booking)');

    // A whole read in a worker thread hands its store over as parts.
    const build = new RosterBuild(head(1, 2, 3));
    build.add(rows);
    const store = storeFrom(storeParts(build.done().store).parts);
    assert.deepEqual(
      [0, 1].map((slot) => store.read(slot).people.map((p) => p.seat)),
      [['Stalls · Row A, seat 1', 'Stalls · Row A, seat 2'], [null]],
    );

    // An unseated booking's text is its records as they were before seats: nothing more.
    const unseated = new RosterBuild(head(1, 1, 2));
    unseated.add([row('reg_c', 0), row('reg_c', 1)]);
    const bare = new TextArena();
    bare.add(['reg_c', null]);
    bare.add([null, 'reg_c 0', 'reg_c0@example.in']);
    bare.add(['reg_c_m1', 'reg_c 1', 'reg_c1@example.in']);
    assert.equal(unseated.done().store.text.bytes, bare.bytes);
  });
});
