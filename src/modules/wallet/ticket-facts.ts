// What a wallet pass shows of one ticket: the bare ticket id (its QR), the holder, the
// ticket type and track, the event, when the booked session happens, and its organiser.
import type { EventSpan } from '../../lib/event-time.js';

export interface TicketFacts {
  /** The QR value: the registration id, or its ticket code after a transfer. */
  ticketId: string;
  holderName: string;
  ticketType: string;
  trackTitle: string | null;
  /** The booked track's index; null for the whole event. */
  trackIndex: number | null;
  /** A seated event's seat of the holder; `words` as a person reads it: "Stalls · Row C, seat 12". */
  seat: { section: string; row: string; number: number; words: string } | null;
  event: { id: string; title: string; location: string | null };
  /** When the booked session happens (its track's times, or the event's), and the event's time zone. */
  session: EventSpan;
  timeZone: string;
  organiserName: string;
}

/** The ticket type, with the track when one was booked: "VIP · Workshop track". */
export function ticketLabel(facts: Pick<TicketFacts, 'ticketType' | 'trackTitle'>): string {
  return facts.trackTitle ? `${facts.ticketType} · ${facts.trackTitle}` : facts.ticketType;
}
