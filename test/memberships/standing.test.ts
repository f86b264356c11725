// Good standing and the term arithmetic, as pure functions: no server, no database.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MembershipStatus, PlanKind } from '../../src/db/database.js';
import {
  addMonths,
  computeStanding,
  inRenewalWindow,
  periodEnd,
  renewedUntil,
  type StandingInput,
} from '../../src/modules/memberships/standing.js';

const DAY = 86_400_000;
const NOW = new Date('2025-06-15T10:00:00.000Z');
const later = (days: number) => new Date(NOW.getTime() + days * DAY);
const utc = (s: string) => new Date(`${s}T00:00:00.000Z`);

function member(kind: PlanKind, status: MembershipStatus, over: Partial<StandingInput> = {}): StandingInput {
  return { status, kind, validUntil: null, cancelAtPeriodEnd: false, endedAt: null, ...over };
}

describe('computeStanding', () => {
  it('ended: stored as ended, or an end time that has come, whatever else the row says', () => {
    for (const kind of ['fixed_term', 'recurring'] as const) {
      assert.deepEqual(computeStanding(member(kind, 'ended', { validUntil: later(30) }), NOW), {
        goodStanding: false,
        displayStatus: 'ended',
      });
      assert.deepEqual(
        computeStanding(member(kind, 'active', { validUntil: later(30), endedAt: NOW }), NOW),
        { goodStanding: false, displayStatus: 'ended' },
      );
    }
    // An end time still ahead does not end it yet.
    assert.deepEqual(
      computeStanding(member('recurring', 'active', { validUntil: later(30), endedAt: later(1) }), NOW),
      { goodStanding: true, displayStatus: 'active' },
    );
  });

  it('pending_authorisation: a mandate not yet approved, or a fixed term not yet paid', () => {
    assert.deepEqual(computeStanding(member('recurring', 'created'), NOW), {
      goodStanding: false,
      displayStatus: 'pending_authorisation',
    });
    assert.deepEqual(computeStanding(member('fixed_term', 'pending_payment'), NOW), {
      goodStanding: false,
      displayStatus: 'pending_authorisation',
    });
  });

  it('past_due: halted, or a recurring active membership whose paid period has run out', () => {
    assert.deepEqual(computeStanding(member('recurring', 'halted', { validUntil: later(10) }), NOW), {
      goodStanding: false,
      displayStatus: 'past_due',
    });
    assert.deepEqual(computeStanding(member('recurring', 'active', { validUntil: later(-1) }), NOW), {
      goodStanding: false,
      displayStatus: 'past_due',
    });
    assert.deepEqual(
      computeStanding(member('recurring', 'active', { validUntil: NOW }), NOW),
      { goodStanding: false, displayStatus: 'past_due' },
      'the end instant itself is past',
    );
  });

  it('active: a paid-up fixed term; a recurring mandate authorised (not yet charged) or paid up', () => {
    assert.deepEqual(computeStanding(member('fixed_term', 'active', { validUntil: later(1) }), NOW), {
      goodStanding: true,
      displayStatus: 'active',
    });
    assert.deepEqual(computeStanding(member('recurring', 'authorised'), NOW), {
      goodStanding: true,
      displayStatus: 'active',
    });
    assert.deepEqual(computeStanding(member('recurring', 'active', { validUntil: later(1) }), NOW), {
      goodStanding: true,
      displayStatus: 'active',
    });
    assert.deepEqual(
      computeStanding(member('recurring', 'active'), NOW),
      { goodStanding: true, displayStatus: 'active' },
      'active before a period end is known',
    );
    assert.deepEqual(
      computeStanding(member('recurring', 'authorised', { validUntil: later(-1) }), NOW),
      { goodStanding: true, displayStatus: 'active' },
      'only an active mandate falls past due',
    );
  });

  it('expired: a fixed term past its end stays active in storage and reads as expired', () => {
    assert.deepEqual(computeStanding(member('fixed_term', 'active', { validUntil: later(-1) }), NOW), {
      goodStanding: false,
      displayStatus: 'expired',
    });
    assert.deepEqual(computeStanding(member('fixed_term', 'active', { validUntil: NOW }), NOW), {
      goodStanding: false,
      displayStatus: 'expired',
    });
  });

  it('cancelling: cancelled at period end, still inside the paid period, keeps good standing', () => {
    assert.deepEqual(
      computeStanding(member('fixed_term', 'active', { validUntil: later(5), cancelAtPeriodEnd: true }), NOW),
      { goodStanding: true, displayStatus: 'cancelling' },
    );
    assert.deepEqual(
      computeStanding(member('recurring', 'active', { validUntil: later(5), cancelAtPeriodEnd: true }), NOW),
      { goodStanding: true, displayStatus: 'cancelling' },
    );
    assert.deepEqual(computeStanding(member('recurring', 'authorised', { cancelAtPeriodEnd: true }), NOW), {
      goodStanding: true,
      displayStatus: 'cancelling',
    });
  });

  it('a cancel-at-period-end membership reads as ended once the period is over', () => {
    assert.deepEqual(
      computeStanding(
        member('fixed_term', 'active', { validUntil: later(-1), cancelAtPeriodEnd: true }),
        NOW,
      ),
      { goodStanding: false, displayStatus: 'ended' },
    );
    assert.deepEqual(
      computeStanding(member('recurring', 'active', { validUntil: later(-1), cancelAtPeriodEnd: true }), NOW),
      { goodStanding: false, displayStatus: 'ended' },
    );
  });
});

describe('inRenewalWindow', () => {
  it('is open without an end, within the last 30 days, and after expiry; closed before', () => {
    assert.equal(inRenewalWindow(null, NOW), true);
    assert.equal(inRenewalWindow(later(30), NOW), true, 'exactly 30 days left');
    assert.equal(
      inRenewalWindow(new Date(later(30).getTime() + 1), NOW),
      false,
      '30 days and a millisecond left',
    );
    assert.equal(inRenewalWindow(later(90), NOW), false);
    assert.equal(inRenewalWindow(later(1), NOW), true);
    assert.equal(inRenewalWindow(later(-10), NOW), true, 'expired');
  });
});

describe('addMonths', () => {
  it('clamps to the last day of a shorter month, leap years included', () => {
    assert.equal(addMonths(utc('2024-01-31'), 1).toISOString(), '2024-02-29T00:00:00.000Z');
    assert.equal(addMonths(utc('2023-01-31'), 1).toISOString(), '2023-02-28T00:00:00.000Z');
    assert.equal(addMonths(utc('2025-03-31'), 1).toISOString(), '2025-04-30T00:00:00.000Z');
    assert.equal(addMonths(utc('2024-02-29'), 12).toISOString(), '2025-02-28T00:00:00.000Z');
  });

  it('crosses year ends, keeps the day when it exists and the time of day', () => {
    assert.equal(
      addMonths(new Date('2024-12-31T18:30:00.000Z'), 2).toISOString(),
      '2025-02-28T18:30:00.000Z',
    );
    assert.equal(addMonths(utc('2024-11-15'), 3).toISOString(), '2025-02-15T00:00:00.000Z');
    assert.equal(addMonths(utc('2025-01-30'), 12).toISOString(), '2026-01-30T00:00:00.000Z');
  });

  it('does not change its argument', () => {
    const d = utc('2024-01-31');
    addMonths(d, 1);
    assert.equal(d.toISOString(), '2024-01-31T00:00:00.000Z');
  });
});

describe('renewedUntil', () => {
  it('extends from the current end while the term runs', () => {
    assert.equal(renewedUntil(utc('2025-07-01'), NOW, 12).toISOString(), '2026-07-01T00:00:00.000Z');
  });

  it('extends from the payment after expiry, or for a first term', () => {
    assert.equal(renewedUntil(utc('2025-06-01'), NOW, 1).toISOString(), '2025-07-15T10:00:00.000Z');
    assert.equal(renewedUntil(null, NOW, 6).toISOString(), '2025-12-15T10:00:00.000Z');
  });
});

describe('periodEnd', () => {
  it('adds seven days, or one, three or twelve calendar months', () => {
    const from = utc('2024-01-31');
    assert.equal(periodEnd(from, 'weekly').toISOString(), '2024-02-07T00:00:00.000Z');
    assert.equal(periodEnd(from, 'monthly').toISOString(), '2024-02-29T00:00:00.000Z');
    assert.equal(periodEnd(from, 'quarterly').toISOString(), '2024-04-30T00:00:00.000Z');
    assert.equal(periodEnd(from, 'yearly').toISOString(), '2025-01-31T00:00:00.000Z');
  });
});
