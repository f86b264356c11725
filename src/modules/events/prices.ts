// What each choice of an event costs (docs/decisions/28-a-persons-day.md, "prices before buyers see them"):
// the one rule for a person's price (a tier's price over the track's over the event's base
// price), which sessions are on sale (the whole event only when the organiser turns it on,
// or when there are no tracks), and every session × tier price that results, for the
// dashboard's setup table and the buyer's form. Pure.
import type { TierDoc, TrackDoc } from './events.tables.js';

/** A person's price in paise: the tier's replaces the track's, which replaces the event's base price. */
export function unitPricePaise(
  basePaise: number,
  track?: Pick<TrackDoc, 'pricePaise'>,
  tier?: Pick<TierDoc, 'pricePaise'>,
): number {
  return tier?.pricePaise ?? track?.pricePaise ?? basePaise;
}

export interface PricedEvent {
  price_paise: number | string;
  tracks: readonly Pick<TrackDoc, 'title' | 'pricePaise'>[];
  special_prices: readonly Pick<TierDoc, 'name' | 'pricePaise' | 'membersOnly'>[];
  whole_event_option: boolean;
}

/**
 * Whether a booking may leave out the track: always without tracks; with tracks only when the
 * organiser sells the whole event too (its base price then buys all of it).
 */
export function wholeEventBookable(event: Pick<PricedEvent, 'tracks' | 'whole_event_option'>): boolean {
  return event.tracks.length === 0 || event.whole_event_option;
}

export interface PriceRow {
  /** The track's index; null for the whole event. */
  trackIndex: number | null;
  title: string;
  /** Per person, in paise: `General` (no tier) first, then each tier in the event's order. */
  prices: { ticketType: string; paise: number; membersOnly: boolean }[];
}

/** The price of every session on sale × every ticket type: what a buyer pays per person. */
export function priceTable(event: PricedEvent, wholeEventTitle = 'The whole event'): PriceRow[] {
  const base = Number(event.price_paise);
  const row = (trackIndex: number | null, title: string, track?: Pick<TrackDoc, 'pricePaise'>): PriceRow => ({
    trackIndex,
    title,
    prices: [
      { ticketType: 'General', paise: unitPricePaise(base, track), membersOnly: false },
      ...event.special_prices.map((t) => ({
        ticketType: t.name,
        paise: unitPricePaise(base, track, t),
        membersOnly: t.membersOnly,
      })),
    ],
  });
  return [
    ...(wholeEventBookable(event)
      ? [row(null, event.tracks.length === 0 ? 'The event' : wholeEventTitle)]
      : []),
    ...event.tracks.map((t, i) => row(i, t.title, t)),
  ];
}
