// The API's view of an event and its tracks: money in rupees, with seats taken and remaining.
import type { TrackDoc } from '../../db/database.js';
import { paiseToRupees } from '../../lib/money.js';
import { remainingOf, tightest, type SeatUsage } from './availability.js';
import type { EventRow } from './events.repo.js';
import { presentOfflinePayment } from './offline-payment.js';
import { presentOnSale } from './on-sale.js';
import { presentSelfService, presentWaitlist } from './policies.js';
import { sessionDates } from './sessions.js';

/** A stored date-time as written (with its offset); null for a bare day or nothing. */
const dateTimeOrNull = (text: string | null) =>
  text === null || /^\d{4}-\d{2}-\d{2}$/.test(text) ? null : text;

export function presentTrack(row: EventRow, track: TrackDoc, index: number, usage: SeatUsage) {
  const taken = usage.byTrack.get(index) ?? 0;
  const session = sessionDates(row, track);
  return {
    index,
    title: track.title,
    price: paiseToRupees(track.pricePaise),
    capacity: track.capacity,
    date: track.date ?? row.start_date,
    endDate: track.endDate ?? null,
    startsAt: dateTimeOrNull(session.start),
    endsAt:
      session.start !== null && dateTimeOrNull(session.start) !== null ? dateTimeOrNull(session.end) : null,
    taken,
    remaining: tightest(remainingOf(track.capacity, taken), remainingOf(row.capacity, usage.total)),
    waitlist: track.waitlist ? presentWaitlist(track.waitlist) : null,
    seatingPlanId: track.seatingPlanId ?? null,
  };
}

export function presentEvent(row: EventRow, usage: SeatUsage) {
  return {
    id: row.id,
    slug: row.slug,
    status: row.status,
    mode: row.mode,
    title: row.title,
    description: row.description,
    startDate: row.start_date,
    date: row.start_date,
    endDate: row.end_date,
    location: row.location,
    capacity: row.capacity,
    taken: usage.total,
    remaining: remainingOf(row.capacity, usage.total),
    price: paiseToRupees(Number(row.price_paise)),
    currency: 'INR' as const,
    maxTeamSize: row.max_team_size,
    requiresApproval: row.requires_approval,
    customFields: row.custom_fields,
    specialPrices: row.special_prices.map((t) => ({
      name: t.name,
      price: paiseToRupees(t.pricePaise),
      capacity: t.capacity,
      membersOnly: t.membersOnly,
      availableFrom: t.availableFrom,
      availableUntil: t.availableUntil,
      sac: t.sac ?? null,
    })),
    tracks: row.tracks.map((t, i) => presentTrack(row, t, i, usage)),
    ticketEmailsEnabled: row.ticket_emails_enabled,
    taxCategory: row.tax_category,
    supplierGstin: row.supplier_gstin,
    sac: row.sac,
    venueState: row.venue_state,
    waitlist: presentWaitlist(row.waitlist),
    selfService: presentSelfService(row.self_service),
    offlinePayment: presentOfflinePayment(row.offline_payment),
    onSale: presentOnSale(row.on_sale),
    wholeEventOption: row.whole_event_option,
    seatingPlanId: row.seating_plan_id,

    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
