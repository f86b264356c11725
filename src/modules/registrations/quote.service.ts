// What a booking would cost, before it is made: the hosted page's order summary. The same
// rules as registering (the tier's price over the track's over the event's, times the
// people, less a promo code) and the same refusals for a code or a choice, nothing written.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { badRequest } from '../../lib/errors.js';
import type { EventRow } from '../events/events.service.js';
import { priceBooking } from './pricing.js';
import * as promos from './promo.service.js';
import { chosenOptions } from './register-input.js';

export interface QuoteInput {
  subEventId?: string | undefined;
  ticketType?: string | undefined;
  /** People on the booking: 1 plus the team members. */
  quantity: number;
  promoCode?: string | undefined;
}

export interface Quote {
  currency: string;
  quantity: number;
  unitPaise: number;
  subtotalPaise: number;
  discountPaise: number;
  amountPaise: number;
}

export async function quoteBooking(
  db: Kysely<Database>,
  event: EventRow,
  input: QuoteInput,
  now: Date,
): Promise<Quote> {
  const most = Math.max(1, event.max_team_size);
  if (input.quantity > most)
    throw badRequest(
      'team_too_large',
      `a booking of this event holds at most ${most} ${most === 1 ? 'person' : 'people'}`,
      { field: 'teamMembers' },
    );
  const { track, tier } = chosenOptions(event, input, now);
  const promo =
    input.promoCode === undefined || input.promoCode.trim() === ''
      ? undefined
      : await promos.findUsable(db, event.id, input.promoCode, now);
  const price = priceBooking({
    basePaise: Number(event.price_paise),
    track,
    tier,
    quantity: input.quantity,
    promo,
  });
  return {
    currency: event.currency,
    quantity: input.quantity,
    unitPaise: price.unitPaise,
    subtotalPaise: price.subtotalPaise,
    discountPaise: price.subtotalPaise - price.amountPaise,
    amountPaise: price.amountPaise,
  };
}
