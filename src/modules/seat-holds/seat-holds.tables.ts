// The seat-holds module's tables: their row types, and in SeatHoldsTables the tables it owns (only
// its repo files query them; scripts/check-ownership.mjs reads the owner list from here).
import type { Generated } from 'kysely';
import type { Mode, Timestamp } from '../../db/columns.js';

/** The tables the seat-holds module owns. */
export interface SeatHoldsTables {
  event_seats: EventSeatsTable;
}

/**
 * One seat of an event with a seating plan that is held, sold or kept back; a seat without a row
 * is available (docs/decisions/23-reserved-seating.md). The key (event_id, track, seat_id) is what
 * makes a seat held or sold once in each sitting.
 */
export interface EventSeatsTable {
  event_id: string;
  /** The sitting: -1 for the event's own plan, else the index of the track sold from its own plan. */
  track: Generated<number>;
  seat_id: string;
  account_id: string;
  mode: Mode;
  /** The seat's category in the plan when it was taken (the tier it is sold as). */
  category: string;
  status: 'held' | 'sold' | 'blocked';
  /** The hold it was taken under (unguessable; the buyer's proof of the hold). */
  hold_token: string | null;
  /** When a hold lapses, on the account's clock (test mode: the sandbox clock); null when sold or blocked. */
  held_until: Timestamp | null;
  /** The booking it is held for (until paid) or sold to. A hold with a booking lapses only with it. */
  registration_id: string | null;
  /** The person of that booking the seat is for (one seat per person; the primary's id is the booking's). */
  attendee_id: string | null;
  /** Where the seat is, as the plan said when it was taken: "Stalls", "C", 12, "Row C, seat 12". */
  section: Generated<string>;
  row_label: Generated<string>;
  seat_number: Generated<number>;
  label: Generated<string>;
  /** The client address a browser's hold came from (a checkout key's); null for a server's, a booking's or a house seat. */
  client_address: string | null;
  /** The transaction that last wrote the row (set by a trigger): a door roster's delta reads the bookings whose seats changed. */
  door_xid: Generated<string | null>;

  updated_at: Timestamp;
}
