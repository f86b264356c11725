// What the waitlist operations share: their path parameters, the entry as the organiser reads
// it, and the rules every waitlist operation's description repeats.
import { Type } from 'typebox';
import { Nullable } from '../../../http/schemas.js';

export const IdParams = Type.Object({ id: Type.String({ maxLength: 100, description: 'Event id' }) });
export const EntryParams = Type.Object({
  id: Type.String({ maxLength: 100, description: 'Event id' }),
  entryId: Type.String({ maxLength: 100, description: 'Waitlist entry id' }),
});
export const E = Type.Ref('Error');

export const Entry = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  ticketType: Type.String(),
  subEventId: Nullable(Type.String()),
  status: Type.Union(
    [
      Type.Literal('waiting'),
      Type.Literal('offered'),
      Type.Literal('booked'),
      Type.Literal('lapsed'),
      Type.Literal('removed'),
    ],
    {
      description:
        '`offered`: holds a seat until `expiresAt`; `booked`: booked from the offer (`registrationId`); `lapsed`: the offer ran out and passed on.',
    },
  ),
  offeredAt: Nullable(Type.String({ format: 'date-time' })),
  expiresAt: Nullable(Type.String({ format: 'date-time' })),
  registrationId: Nullable(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
});

export const RULES = [
  'First come, first offered: when a seat comes free (a cancellation, a refund, a capacity raised, an offer lapsing or removed) it is offered, in the same transaction, to the earliest entry it fits, and held for it: a held seat counts as taken, so nobody else can book it. The offer mail’s link (`/e/{slug}?offer=<token>`) books that one seat (register with `waitlistOffer`) until `offerMinutes` have passed; then the offer lapses and the seat passes to the next in line. The organiser’s webhook `waitlist.offered` fires with each offer.',
].join('');
