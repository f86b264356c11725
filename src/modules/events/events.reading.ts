// Reading an event's figures: seats taken and left (per track and tier, with its waitlist)
// and the bookings' counts and revenue.
import { notFound } from '../../lib/errors.js';
import { paiseToRupees } from '../../lib/money.js';
import { computeAvailability } from './availability.js';
import { parseTrackIndex } from './events.input.js';
import type { EventRow } from './events.repo.js';
import type { EventDeps } from './events.deps.js';
import { waitlistFor } from './policies.js';
import { usageFor } from './seats.service.js';

export async function availability(deps: EventDeps, row: EventRow, subEventId?: string) {
  let trackIndex: number | undefined;
  if (subEventId !== undefined) {
    trackIndex = parseTrackIndex(subEventId, 'subEventId');
    if (!row.tracks[trackIndex]) throw notFound(`no track at index ${trackIndex}`, 'track_not_found');
  }
  const usage = await usageFor(deps.db, row.id);
  const waitlist = waitlistFor(row, trackIndex ?? null);
  return {
    ...computeAvailability(eventShape(row), usage, deps.clock.now(), trackIndex),
    waitlist: {
      enabled: waitlist.enabled,
      offerMinutes: waitlist.offerMinutes,
      waiting: await deps.waitlist.waitingCount(row.id, trackIndex),
    },
  };
}

/** The event's counts and revenue, read from `from` (the read pool for the API's report), else the primary. */
export async function analytics(deps: EventDeps, row: EventRow, from = deps.db) {
  const counts = await deps.bookings.counts(row.id, from);
  const usage = await usageFor(from, row.id);
  return {
    eventId: row.id,
    eventTitle: row.title,
    totalRegistrations: counts.total,
    confirmedCount: counts.confirmed,
    pendingCount: counts.pending,
    cancelledCount: counts.cancelled,
    refundedCount: counts.refunded,
    checkedInCount: counts.checkedIn,
    totalRevenue: paiseToRupees(counts.revenuePaise),
    capacity: row.capacity,
    seatsTaken: usage.total,
    fillRate: row.capacity === 0 ? null : Math.round((usage.total / row.capacity) * 10_000) / 10_000,
  };
}

function eventShape(row: EventRow) {
  return { capacity: row.capacity, tiers: row.special_prices, tracks: row.tracks };
}
