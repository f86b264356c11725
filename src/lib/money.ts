// Money is integer paise inside the service; rupees appear only at the API edge.
import { badRequest } from './errors.js';

export const MAX_RUPEES = 10_000_000;

/** Rupees with at most two decimals → integer paise; anything else is a 400 naming the field. */
export function rupeesToPaise(value: number, field: string): number {
  if (!Number.isFinite(value) || value < 0)
    throw badRequest('invalid_amount', `${field} must be a number of rupees, 0 or more`);
  if (value > MAX_RUPEES) throw badRequest('invalid_amount', `${field} must be at most ${MAX_RUPEES} rupees`);
  const paise = Math.round(value * 100);
  if (Math.abs(paise - value * 100) > 1e-6)
    throw badRequest('invalid_amount', `${field} must have at most two decimal places`);
  return paise;
}

export function paiseToRupees(paise: number): number {
  return Math.round(paise) / 100;
}

/** An amount for people: "₹499", "₹1,249.50" (whole rupees without paise). */
export function formatMoney(paise: number, currency = 'INR'): string {
  const whole = paise % 100 === 0;
  return new Intl.NumberFormat('en-IN', {
    style: 'currency',
    currency,
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(paise / 100);
}
