// A booking's session (its track's own times, the event's without a track) and the one
// formatting module that says them: human dates in the event's zone, the same answers
// whatever zone the machine runs in, and in another event zone (America/New_York).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sessionCoversDay, sessionDates, sessionOf } from '../../src/modules/events/sessions.js';
import {
  eventSpan,
  formatInstant,
  formatSpan,
  offsetMinutes,
  startOfDay,
  walletTimes,
  zonedIso,
} from '../../src/lib/event-time.js';
import { googleCalendarUrl } from '../../src/modules/tickets/calendar.js';

const IST = 'Asia/Kolkata';
const NY = 'America/New_York';

/** A two-day event: Day 1 on 20 Dec and Day 2 on 21 Dec, 6:30 to 9:00 pm IST each. */
const twoDays = {
  start_date: '2026-12-20T18:30+05:30',
  end_date: '2026-12-21T21:00+05:30',
  tracks: [
    { title: 'Day 1', date: '2026-12-20T18:30+05:30', endDate: '2026-12-20T21:00+05:30' },
    { title: 'Day 2', date: '2026-12-21T18:30+05:30', endDate: '2026-12-21T21:00+05:30' },
    { title: 'Workshop', date: '2026-12-21', endDate: null },
    { title: 'Same as the event', date: null, endDate: null },
  ],
};

describe('sessionOf', () => {
  it('a track’s own start and end, in words, across the calendar and wallets', () => {
    const s = sessionOf(twoDays, 1, IST);
    assert.equal(s.title, 'Day 2');
    assert.equal(s.trackIndex, 1);
    assert.equal(formatSpan(s.span, IST), 'Mon 21 Dec 2026, 6:30 pm – 9:00 pm IST');
    assert.equal(s.startsAt!.toISOString(), '2026-12-21T13:00:00.000Z');
    assert.deepEqual([s.firstDay, s.lastDay], ['2026-12-21', '2026-12-21']);
    const google = new URL(
      googleCalendarUrl({ title: 'Fest', span: s.span, location: null, description: '' }, IST)!,
    );
    assert.equal(
      google.searchParams.get('dates'),
      '20261221T130000Z/20261221T153000Z',
      'the track’s end, not an hour',
    );
    assert.deepEqual(walletTimes(s.span, IST), {
      start: '2026-12-21T18:30:00+05:30',
      end: '2026-12-21T21:00:00+05:30',
      dateOnly: false,
      label: 'Mon 21 Dec 2026, 6:30 pm – 9:00 pm IST',
    });
  });

  it('the whole event without a track, or for an index the event no longer has', () => {
    for (const index of [null, 9]) {
      const s = sessionOf(twoDays, index, IST);
      assert.equal(s.trackIndex, null);
      assert.equal(s.title, null);
      assert.equal(formatSpan(s.span, IST), 'Sun 20 Dec 2026, 6:30 pm – Mon 21 Dec 2026, 9:00 pm IST');
      assert.deepEqual([s.firstDay, s.lastDay], ['2026-12-20', '2026-12-21']);
    }
  });

  it('a track on a bare day is that whole day; one without a date runs as the event does', () => {
    const day = sessionOf(twoDays, 2, IST);
    assert.equal(formatSpan(day.span, IST), 'Mon 21 Dec 2026');
    assert.equal(day.startsAt!.toISOString(), '2026-12-20T18:30:00.000Z', 'midnight in India');
    assert.equal(
      sessionOf(twoDays, 2, NY).startsAt!.toISOString(),
      '2026-12-21T05:00:00.000Z',
      'midnight in New York',
    );
    assert.deepEqual(walletTimes(day.span, IST), {
      start: '2026-12-21T00:00:00+05:30',
      end: '2026-12-21T23:59:59+05:30',
      dateOnly: true,
      label: 'Mon 21 Dec 2026',
    });
    assert.deepEqual(sessionDates(twoDays, twoDays.tracks[3]), {
      start: twoDays.start_date,
      end: twoDays.end_date,
    });
    assert.equal(
      formatSpan(sessionOf(twoDays, 3, IST).span, IST),
      'Sun 20 Dec 2026, 6:30 pm – Mon 21 Dec 2026, 9:00 pm IST',
    );
    assert.equal(sessionOf({ start_date: null, end_date: null, tracks: [] }, null, IST).startsAt, null);
  });

  it('says which days a session covers (door lists by day)', () => {
    assert.equal(sessionCoversDay(sessionOf(twoDays, 1, IST), '2026-12-21'), true);
    assert.equal(sessionCoversDay(sessionOf(twoDays, 1, IST), '2026-12-20'), false);
    assert.equal(sessionCoversDay(sessionOf(twoDays, null, IST), '2026-12-20'), true);
    assert.equal(
      sessionCoversDay(sessionOf({ start_date: null, end_date: null, tracks: [] }, null, IST), '2026-12-20'),
      false,
    );
  });
});

describe('the formatting module in another zone', () => {
  const machineZone = process.env.TZ;
  before(() => {
    // The machine's own zone must not leak into what people read.
    process.env.TZ = NY;
  });
  after(() => {
    if (machineZone === undefined) delete process.env.TZ;
    else process.env.TZ = machineZone;
  });

  it('says an IST event in IST even on a machine in New York', () => {
    assert.equal(new Date('2026-12-21T13:00:00Z').getHours(), 8, 'the machine now reads New York time');
    assert.equal(formatSpan(sessionOf(twoDays, 1, IST).span, IST), 'Mon 21 Dec 2026, 6:30 pm – 9:00 pm IST');
    assert.equal(formatInstant(new Date('2026-12-20T11:00:00Z'), IST), 'Sun 20 Dec 2026, 4:30 pm IST');
    assert.equal(zonedIso(new Date('2026-12-21T13:00:00Z'), IST), '2026-12-21T18:30:00+05:30');
    assert.equal(startOfDay('2026-12-21', IST).toISOString(), '2026-12-20T18:30:00.000Z');
  });

  it('says an event held in New York in its own zone, with its own offset, summer and winter', () => {
    const s = sessionOf(twoDays, 1, NY);
    assert.match(formatSpan(s.span, NY)!, /^Mon 21 Dec 2026, 8:00 am – 10:30 am (EST|GMT-5)$/);
    assert.match(
      formatInstant(new Date('2026-07-04T16:00:00Z'), NY),
      /^Sat 4 Jul 2026, 12:00 pm (EDT|GMT-4)$/,
    );
    assert.equal(offsetMinutes(new Date('2026-12-21T13:00:00Z'), NY), -300);
    assert.equal(offsetMinutes(new Date('2026-07-04T16:00:00Z'), NY), -240);
    assert.equal(zonedIso(new Date('2026-12-21T13:00:00Z'), NY), '2026-12-21T08:00:00-05:00');
    assert.equal(startOfDay('2026-07-04', NY).toISOString(), '2026-07-04T04:00:00.000Z');
    // The day a session falls on is the zone's: 11:30 pm in New York is already the next day in India.
    const late = eventSpan('2026-12-21T23:30-05:00', null, NY);
    assert.match(formatSpan(late, NY)!, /^Mon 21 Dec 2026, 11:30 pm/);
    assert.equal(
      formatSpan(eventSpan('2026-12-21T23:30-05:00', null, IST), IST),
      'Tue 22 Dec 2026, 10:00 am IST',
    );
    assert.deepEqual(walletTimes(eventSpan('2026-12-21', null, NY), NY), {
      start: '2026-12-21T00:00:00-05:00',
      end: '2026-12-21T23:59:59-05:00',
      dateOnly: true,
      label: 'Mon 21 Dec 2026',
    });
  });
});
