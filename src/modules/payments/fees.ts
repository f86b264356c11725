// Fees of paid tickets, in paise. Pure. The platform takes a percentage of each
// ticket by its ordinal among the event's paid tickets (4.5 % for 1–100, 3.5 % to 500,
// 2.5 % to 2000, 1.75 % beyond), held between 3 and 75 rupees; the gateway takes 3 %.

/** Platform fee percentage for the n-th paid ticket of an event (1-based). */
export function platformFeeRate(ordinal: number): number {
  if (ordinal <= 100) return 0.045;
  if (ordinal <= 500) return 0.035;
  if (ordinal <= 2000) return 0.025;
  return 0.0175;
}

export const PLATFORM_FEE_MIN_PAISE = 300;
export const PLATFORM_FEE_MAX_PAISE = 7500;
export const GATEWAY_RATE = 0.03;

/** Platform fee for one ticket: a percentage by ordinal, held between 3 and 75 rupees. */
export function platformFeePaise(pricePaise: number, ordinal: number): number {
  if (pricePaise <= 0) return 0;
  const fee = Math.round(pricePaise * platformFeeRate(ordinal));
  return Math.min(PLATFORM_FEE_MAX_PAISE, Math.max(PLATFORM_FEE_MIN_PAISE, fee));
}

export function gatewayFeePaise(pricePaise: number): number {
  return pricePaise <= 0 ? 0 : Math.round(pricePaise * GATEWAY_RATE);
}

/**
 * Fees for `quantity` tickets at `unitPaise` each (after any discount), the first
 * of which is the event's paid ticket number `soldBefore + 1`.
 */
export function bookingFees(
  unitPaise: number,
  quantity: number,
  soldBefore: number,
): { platform: number; gateway: number } {
  let platform = 0;
  let gateway = 0;
  for (let i = 1; i <= quantity; i++) {
    platform += platformFeePaise(unitPaise, soldBefore + i);
    gateway += gatewayFeePaise(unitPaise);
  }
  return { platform, gateway };
}
