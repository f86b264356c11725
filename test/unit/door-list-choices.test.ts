// The door link picker's lists (docs/decisions/28-a-persons-day.md): the whole event, each session, each day the
// event or a session runs on; and the form's value read back as an API scope.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TrackDoc } from '../../src/db/database.js';
import { listChoices, scopeOfChoice } from '../../src/modules/checkin/door-list.js';

const IST = 'Asia/Kolkata';
const track = (title: string, startsAt: string, endsAt: string) =>
  ({ title, startsAt, endsAt, date: startsAt, endDate: endsAt }) as unknown as TrackDoc;

describe('door link choices', () => {
  it('a two-day event with a session a day: the whole event, each session with its time, each day', () => {
    const tracks = [
      track('Day 1', '2026-12-20T18:30:00+05:30', '2026-12-20T21:00:00+05:30'),
      track('Day 2', '2026-12-21T18:30:00+05:30', '2026-12-21T21:00:00+05:30'),
    ];
    assert.deepEqual(listChoices({ tracks, startDate: '2026-12-20', endDate: '2026-12-21' }, IST), [
      { value: 'event', label: 'The whole event' },
      { value: 'track:0', label: 'Day 1 · Sun 20 Dec 2026, 6:30 pm – 9:00 pm IST' },
      { value: 'track:1', label: 'Day 2 · Mon 21 Dec 2026, 6:30 pm – 9:00 pm IST' },
      { value: 'date:2026-12-20', label: 'Sun 20 Dec 2026' },
      { value: 'date:2026-12-21', label: 'Mon 21 Dec 2026' },
    ]);
  });

  it('a one-evening event without sessions offers only the whole event; a three-day one each day; a long one at most 31 days', () => {
    assert.deepEqual(
      listChoices(
        { tracks: [], startDate: '2026-12-20T18:30:00+05:30', endDate: '2026-12-20T21:00:00+05:30' },
        IST,
      ),
      [{ value: 'event', label: 'The whole event' }],
    );
    assert.deepEqual(
      listChoices({ tracks: [], startDate: '2026-12-30', endDate: '2027-01-01' }, IST).map((c) => c.value),
      ['event', 'date:2026-12-30', 'date:2026-12-31', 'date:2027-01-01'],
    );
    assert.equal(
      listChoices({ tracks: [], startDate: '2026-01-01', endDate: '2026-12-31' }, IST).length,
      1 + 31,
    );
  });

  it('reads a choice back as the API’s scope, and nothing else', () => {
    assert.equal(scopeOfChoice('event'), null);
    assert.deepEqual(scopeOfChoice('track:1'), { trackIndex: 1 });
    assert.deepEqual(scopeOfChoice('date:2026-12-21'), { date: '2026-12-21' });
    for (const bad of ['track:', 'track:-1', 'date:21-12-2026', 'date:2026-12-21x', 'whole', 'track:1000'])
      assert.equal(scopeOfChoice(bad), undefined, bad);
  });
});
