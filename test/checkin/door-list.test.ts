// The check-in list rule (docs/decisions/28-a-persons-day.md), pure: which session's tickets a track's or a day's
// list admits, a track's day in the event's time zone, and the session as people read it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listLabel, sessionText, validOn, type ListEvent } from '../../src/modules/checkin/door-list.js';

const track = (title: string, date: string | null, extra: Record<string, unknown> = {}) => ({
  title,
  pricePaise: 0,
  capacity: 0,
  date,
  ...extra,
});
const event: ListEvent = {
  tracks: [
    track('Day 1', '2026-12-20T18:30:00+05:30', { endDate: '2026-12-20T21:00:00+05:30' }),
    track('Late night', '2026-12-21T02:00:00+05:30'),
    track('Undated', null),
    track('Timed', null, { startsAt: '2026-12-21T10:00:00+05:30', endsAt: '2026-12-21T12:00:00+05:30' }),
  ],
  startDate: '2026-12-20',
  endDate: '2026-12-21',
};

describe('check-in lists', () => {
  it('a whole-event ticket is valid everywhere; a track’s at its own list only', () => {
    for (const list of [
      { kind: 'event' } as const,
      { kind: 'track', trackIndex: 1 } as const,
      { kind: 'date', date: '2026-12-20' } as const,
    ])
      assert.equal(validOn(list, null, event, 'Asia/Kolkata'), true);
    assert.equal(validOn({ kind: 'track', trackIndex: 1 }, 1, event, 'Asia/Kolkata'), true);
    assert.equal(validOn({ kind: 'track', trackIndex: 1 }, 0, event, 'Asia/Kolkata'), false);
  });

  it('a track’s day is taken in the event’s time zone, from startsAt where it has one', () => {
    assert.equal(validOn({ kind: 'date', date: '2026-12-20' }, 0, event, 'Asia/Kolkata'), true);
    assert.equal(validOn({ kind: 'date', date: '2026-12-21' }, 0, event, 'Asia/Kolkata'), false);
    // 02:00 IST on the 21st is the evening of the 20th in UTC.
    assert.equal(validOn({ kind: 'date', date: '2026-12-21' }, 1, event, 'Asia/Kolkata'), true);
    assert.equal(validOn({ kind: 'date', date: '2026-12-20' }, 1, event, 'UTC'), true);
    assert.equal(validOn({ kind: 'date', date: '2026-12-21' }, 3, event, 'Asia/Kolkata'), true);
    assert.equal(validOn({ kind: 'date', date: '2026-12-20' }, 3, event, 'Asia/Kolkata'), false);
  });

  it('a track without a date takes the event’s days; with none known it is not refused', () => {
    assert.equal(validOn({ kind: 'date', date: '2026-12-21' }, 2, event, 'Asia/Kolkata'), true);
    assert.equal(validOn({ kind: 'date', date: '2026-12-22' }, 2, event, 'Asia/Kolkata'), false);
    assert.equal(
      validOn(
        { kind: 'date', date: '2030-01-01' },
        2,
        { ...event, startDate: null, endDate: null },
        'Asia/Kolkata',
      ),
      true,
    );
  });

  it('names sessions and lists as people read them', () => {
    assert.equal(
      sessionText(0, event.tracks, 'Asia/Kolkata'),
      'Day 1 · Sun 20 Dec 2026, 6:30 pm – 9:00 pm IST',
    );
    assert.equal(sessionText(2, event.tracks, 'Asia/Kolkata'), 'Undated');
    assert.equal(sessionText(null, event.tracks, 'Asia/Kolkata'), null);
    assert.equal(listLabel({ kind: 'event' }, event.tracks, 'Asia/Kolkata'), 'Whole event');
    assert.equal(
      listLabel({ kind: 'date', date: '2026-12-21' }, event.tracks, 'Asia/Kolkata'),
      'Mon 21 Dec 2026',
    );
    assert.match(
      listLabel({ kind: 'track', trackIndex: 3 }, event.tracks, 'Asia/Kolkata'),
      /^Timed · Mon 21 Dec 2026, 10:00 am – 12:00 pm IST$/,
    );
  });
});
