// UPI ids (virtual payment addresses) as RazorpayX takes them for a `vpa` fund
// account: 3–100 characters of letters, digits, `.` and `-`, with exactly one `@`
// and a handle that starts with a letter. Checked in one pass over the text.
import { badRequest } from './errors.js';

export const UPI_ID_MAX = 100;

export function isUpiId(value: string): boolean {
  if (value.length < 3 || value.length > UPI_ID_MAX) return false;
  let at = -1;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 64 /* @ */) {
      if (at !== -1) return false;
      at = i;
      continue;
    }
    const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (!alnum && c !== 46 /* . */ && c !== 45 /* - */) return false;
  }
  if (at < 1 || at > value.length - 3) return false;
  const h = value.charCodeAt(at + 1);
  return (h >= 65 && h <= 90) || (h >= 97 && h <= 122);
}

/** The UPI id in lower case (addresses are case-insensitive), or a 400 `invalid_upi_id`. */
export function normaliseUpiId(value: string): string {
  const v = value.trim();
  if (!isUpiId(v))
    throw badRequest(
      'invalid_upi_id',
      'upiId must be a UPI id like name@bank (letters, digits, "." and "-", one "@", at most 100 characters)',
    );
  return v.toLowerCase();
}
