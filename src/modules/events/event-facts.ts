// What an event's fields say, HTTP-free: whether it costs money, and the facts the audit log keeps.
import type { EventFields } from './events.input.js';
import type { EventRow } from './events.repo.js';

export const jsonOrNull = (v: unknown) => (v === null ? null : JSON.stringify(v));

type Prices = Pick<EventFields, 'price_paise' | 'special_prices' | 'tracks'>;

/** Whether anything of the event costs money: its base price, a tier or a track. */
export function isPaid(e: Prices): boolean {
  return (
    Number(e.price_paise) > 0 ||
    e.special_prices.some((t) => t.pricePaise > 0) ||
    e.tracks.some((t) => t.pricePaise > 0)
  );
}

export const rowPrices = (row: EventRow): Prices => ({
  price_paise: Number(row.price_paise),
  special_prices: row.special_prices,
  tracks: row.tracks,
});

/** What the audit log keeps of an event (its fields as set, without its seat counts). */
export function eventFacts(
  e: Pick<
    EventRow,
    | 'title'
    | 'status'
    | 'slug'
    | 'start_date'
    | 'end_date'
    | 'location'
    | 'capacity'
    | 'price_paise'
    | 'requires_approval'
    | 'max_team_size'
    | 'tracks'
    | 'special_prices'
    | 'tax_category'
    | 'whole_event_option'
  > & { slug: string },
) {
  return {
    title: e.title,
    status: e.status,
    slug: e.slug,
    startDate: e.start_date,
    endDate: e.end_date,
    location: e.location,
    capacity: e.capacity,
    price: Number(e.price_paise) / 100,
    requiresApproval: e.requires_approval,
    maxTeamSize: e.max_team_size,
    tracks: e.tracks.length,
    tiers: e.special_prices.map((t) => t.name),
    taxCategory: e.tax_category,
    wholeEventOption: e.whole_event_option,
  };
}
