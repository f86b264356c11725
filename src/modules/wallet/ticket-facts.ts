// What a wallet pass shows of one ticket: the bare ticket id (its QR), the holder, the
// ticket type and track, the event and its organiser.
export interface TicketFacts {
  /** The QR value: the registration id, or its ticket code after a transfer. */
  ticketId: string;
  holderName: string;
  ticketType: string;
  trackTitle: string | null;
  event: { id: string; title: string; startDate: string | null; endDate: string | null; location: string | null };
  organiserName: string;
}

/** The ticket type, with the track when one was booked: "VIP · Workshop track". */
export function ticketLabel(facts: Pick<TicketFacts, 'ticketType' | 'trackTitle'>): string {
  return facts.trackTitle ? `${facts.ticketType} · ${facts.trackTitle}` : facts.ticketType;
}
