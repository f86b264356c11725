// A buyer's phone number as WhatsApp needs it: E.164 (`+` and 8 to 15 digits, no leading
// 0), or a 10-digit Indian mobile number (first digit 6–9), which is given +91. Spaces,
// hyphens, dots and brackets are dropped first, as people write them. A +91 number must
// have 10 digits after the country code. Meta may prepend the sender's country code to a
// number without `+`, so only the normalised E.164 form is stored and sent.

/** The E.164 form of `input`, or undefined when it is neither E.164 nor a 10-digit Indian mobile. */
export function normalisePhone(input: string): string | undefined {
  const bare = input.trim().replace(/[\s().-]/g, '');
  if (/^[6-9]\d{9}$/.test(bare)) return `+91${bare}`;
  if (!/^\+[1-9]\d{7,14}$/.test(bare)) return undefined;
  if (bare.startsWith('+91') && !/^\+91[1-9]\d{9}$/.test(bare)) return undefined;
  return bare;
}
