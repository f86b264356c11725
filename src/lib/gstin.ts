// GSTINs and GST state codes (docs/guides/gst.md). Pure.
// A GSTIN is the state code (2 digits), the holder's PAN (5 letters, 4 digits, 1 letter),
// the entity number (1–9, then A–Z), 'Z' and a check character: Luhn mod 36 over
// "0–9A–Z", the first 14 characters weighted 1, 2, 1, 2…

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const SHAPE = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

/** GST state and union-territory codes with their names. */
export const GST_STATES: Readonly<Record<string, string>> = {
  '01': 'Jammu and Kashmir',
  '02': 'Himachal Pradesh',
  '03': 'Punjab',
  '04': 'Chandigarh',
  '05': 'Uttarakhand',
  '06': 'Haryana',
  '07': 'Delhi',
  '08': 'Rajasthan',
  '09': 'Uttar Pradesh',
  '10': 'Bihar',
  '11': 'Sikkim',
  '12': 'Arunachal Pradesh',
  '13': 'Nagaland',
  '14': 'Manipur',
  '15': 'Mizoram',
  '16': 'Tripura',
  '17': 'Meghalaya',
  '18': 'Assam',
  '19': 'West Bengal',
  '20': 'Jharkhand',
  '21': 'Odisha',
  '22': 'Chhattisgarh',
  '23': 'Madhya Pradesh',
  '24': 'Gujarat',
  '25': 'Daman and Diu',
  '26': 'Dadra and Nagar Haveli and Daman and Diu',
  '27': 'Maharashtra',
  '28': 'Andhra Pradesh (before 2014)',
  '29': 'Karnataka',
  '30': 'Goa',
  '31': 'Lakshadweep',
  '32': 'Kerala',
  '33': 'Tamil Nadu',
  '34': 'Puducherry',
  '35': 'Andaman and Nicobar Islands',
  '36': 'Telangana',
  '37': 'Andhra Pradesh',
  '38': 'Ladakh',
  '97': 'Other Territory',
};

export const STATE_CODES = Object.keys(GST_STATES);

/**
 * Union territories without a legislature, where UTGST takes the place of SGST (CGST Act
 * s.2(114)): Chandigarh, Daman and Diu, Dadra and Nagar Haveli and Daman and Diu,
 * Lakshadweep, Andaman and Nicobar, Ladakh and "other territory". Delhi, Puducherry and
 * Jammu and Kashmir have legislatures and charge SGST.
 */
const UTGST_TERRITORIES = new Set(['04', '25', '26', '31', '35', '38', '97']);

export function isUtgstTerritory(stateCode: string): boolean {
  return UTGST_TERRITORIES.has(stateCode);
}

export function stateName(code: string): string {
  return GST_STATES[code] ?? code;
}

export function isStateCode(code: string): boolean {
  return Object.hasOwn(GST_STATES, code);
}

/** The check character the first 14 characters of a GSTIN call for. */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const value = ALPHABET.indexOf(first14[i]!);
    if (value < 0) throw new Error('not a GSTIN character');
    const product = value * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return ALPHABET[(36 - (sum % 36)) % 36]!;
}

export type GstinProblem = 'format' | 'state' | 'check';

/** Why a GSTIN is not valid, or null when it is (shape, a known state code, the check character). */
export function gstinProblem(gstin: string): GstinProblem | null {
  if (!SHAPE.test(gstin)) return 'format';
  if (!isStateCode(gstin.slice(0, 2))) return 'state';
  if (gstinCheckCharacter(gstin.slice(0, 14)) !== gstin[14]) return 'check';
  return null;
}

export function isValidGstin(gstin: string): boolean {
  return gstinProblem(gstin) === null;
}

/** Upper case, spaces removed: how GSTINs are compared and stored. */
export function normaliseGstin(text: string): string {
  return text.replace(/\s+/g, '').toUpperCase();
}

export const GSTIN_PROBLEM_TEXT: Record<GstinProblem, string> = {
  format:
    'is not a GSTIN: 15 characters, a 2-digit state code, a PAN, an entity number, Z and a check character',
  state: 'does not start with a GST state code',
  check: 'has a wrong check character (a typing mistake?)',
};
