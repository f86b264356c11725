// What a booking costs, in paise. Pure.
import type { TierDoc, TrackDoc } from '../../db/database.js';
import { unitPricePaise } from '../events/prices.js';

export interface Discount {
  discount_percent: number | null;
  discount_paise: number | null;
}

/** A percentage or an amount off a total, never below zero. */
export function applyDiscount(promo: Discount, totalPaise: number): number {
  if (promo.discount_percent !== null)
    return Math.max(0, totalPaise - Math.round((totalPaise * promo.discount_percent) / 100));
  return Math.max(0, totalPaise - Number(promo.discount_paise ?? 0));
}

export interface PriceInput {
  /** The event's base price, per person. */
  basePaise: number;
  /** The booked track, whose price replaces the base price. */
  track?: Pick<TrackDoc, 'pricePaise'> | undefined;
  /** The booked tier, whose price replaces both. */
  tier?: Pick<TierDoc, 'pricePaise'> | undefined;
  /** People on the booking. */
  quantity: number;
  /** A promo code, taken off the booking total. */
  promo?: Discount | undefined;
}

export interface Price {
  unitPaise: number;
  subtotalPaise: number;
  amountPaise: number;
}

export function priceBooking(input: PriceInput): Price {
  const unitPaise = unitPricePaise(input.basePaise, input.track, input.tier);
  const subtotalPaise = unitPaise * input.quantity;
  return {
    unitPaise,
    subtotalPaise,
    amountPaise: input.promo ? applyDiscount(input.promo, subtotalPaise) : subtotalPaise,
  };
}
