// A door roster's memory given back when it is dropped or replaced (src/modules/checkin/
// roster-store.ts `release`, roster.ts, rosters.ts): the columns' buffers are freed at once, not
// at the collection that would find them unused, and the store left behind is a valid empty one
// (a read still under way for a dropped roster fills it without harm).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { EventRoster } from '../../src/modules/checkin/roster.js';
import type { RosterHead, RosterPersonRow } from '../../src/modules/checkin/roster.repo.js';
import { RosterBuild } from '../../src/modules/checkin/roster-build.js';
import { Store, type RosterBooking } from '../../src/modules/checkin/roster-store.js';

const booking = (id: string, members: number, name = 'Asha'): RosterBooking => ({
  id,
  status: 'confirmed',
  ticketType: 'General',
  subEventId: null,
  ticketCode: null,
  previousCodes: [],
  xid: 7,
  v: 1,
  people: Array.from({ length: members + 1 }, (_, idx) => ({
    id: idx === 0 ? id : `${id}_m${idx}`,
    idx,
    name: `${name} ${idx}`,
    email: `${id}.${idx}@example.in`,
    checkedInAt: null,
    checkedInBy: null,
    seat: null,
    xid: 7,
  })),
});

/** Every buffer the store's memory is in. */
function buffers(s: Store): ArrayBufferLike[] {
  const views = Object.values(s).filter((v): v is ArrayBufferView => ArrayBuffer.isView(v));
  return [...views, s.byId.parts().places, s.byKey.parts().places, s.text.parts().bytes].map((v) => v.buffer);
}

const bookingsArb = fc.uniqueArray(
  fc.record({ id: fc.stringMatching(/^reg_[a-z0-9]{1,12}$/), members: fc.nat(3) }),
  { selector: (b) => b.id, maxLength: 40 },
);

describe('door roster memory given back', () => {
  it('a released store frees its buffers, is empty, and holds what is added afterwards', () => {
    fc.assert(
      fc.property(bookingsArb, bookingsArb, (before, after) => {
        const s = new Store(2, 2);
        for (const b of before) s.add(booking(b.id, b.members));
        const held = buffers(s);
        s.release();
        assert.ok(
          held.every((b) => b.byteLength === 0),
          'every buffer it held is detached',
        );
        assert.deepEqual([s.bookings, s.people, s.bookingSlots, s.personSlots], [0, 0, 0, 0]);
        for (const b of before) assert.equal(s.slotOf(b.id), -1);
        for (const b of after) s.add(booking(b.id, b.members, 'Ravi'));
        for (const b of after) {
          const slot = s.slotOf(b.id);
          assert.ok(slot >= 0, `${b.id} is found after the release`);
          assert.deepEqual(s.read(slot), booking(b.id, b.members, 'Ravi'));
        }
        assert.equal(
          s.people,
          after.reduce((n, b) => n + b.members + 1, 0),
        );
      }),
      { numRuns: 60 },
    );
  });

  it('a whole read gives back the store it replaces; a released roster is empty and never current', () => {
    const head: RosterHead = {
      cursor: '1:1:',
      version: 3,
      ev_account_id: 'usr_1',
      ev_mode: 'test',
      ev_title: 'Gig',
      ev_tracks: null,
      bookings: 1,
      people: 1,
    };
    const row = (reg: string): RosterPersonRow => ({
      registration_id: reg,
      status: 'confirmed',
      ticket_type: 'General',
      sub_event_id: null,
      ticket_code: null,
      previous_ticket_codes: null,
      r_xid: 1,
      attendee_id: null,
      idx: 0,
      name: 'Asha',
      email: 'asha@example.in',
      checked_in_at: null,
      checked_in_by: null,
      a_xid: 1,
      seat: null,
    });
    const whole = (regs: string[], version: number) => {
      const b = new RosterBuild({ ...head, version, bookings: regs.length, people: regs.length });
      b.add(regs.map(row));
      return b.done();
    };
    const r = new EventRoster('ev_1');
    const first = whole(['reg_a'], 3);
    const firstBuffers = buffers(first.store);
    r.finishWhole(first);
    assert.equal(r.current, true);
    assert.ok(r.hit('reg_a'));
    r.finishWhole(whole(['reg_b', 'reg_d'], 4));
    assert.ok(
      firstBuffers.every((b) => b.byteLength === 0),
      'the replaced store was given back',
    );
    assert.equal(r.hit('reg_a'), undefined);
    assert.ok(r.hit('reg_b'));

    const reading = r.bookings()[Symbol.iterator]();
    assert.equal(reading.next().value?.id, 'reg_b');
    r.release();
    assert.equal(r.current, false);
    assert.equal(r.size, 0);
    assert.equal(r.hit('reg_b'), undefined);
    assert.throws(() => reading.next(), /changed while its bookings were read/);
    // A read that was under way lands on the released roster without harm.
    r.applyRead(
      [{ ...row('reg_c'), ...head, ev_account_id: 'usr_1', version: 5, cursor: '2:2:' }],
      5,
      '2:2:',
      false,
    );
    assert.equal(r.size, 1);
  });
});
