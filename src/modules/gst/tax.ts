// The GST arithmetic of a ticket sale and the shape of document numbers. Pure.
// docs/guides/gst.md: prices are tax-inclusive; each tax is
// price × rate ⁄ (100 + total rate), rounded half-up to the paisa; the taxable value takes
// the remainder. Intra-state supplies split the rate into CGST and SGST (UTGST in a union
// territory without a legislature); inter-state ones charge IGST.
import type { GstDocumentKind, TaxCategory } from '../../db/database.js';
import { isUtgstTerritory } from '../../lib/gstin.js';

/** Admission of ₹500 or less per person is exempt under this category (entry 81 of 12/2017-CT(Rate)). */
export const EXEMPT_LIMIT_PAISE = 50_000;

/**
 * The rate of a booking in percent: 0 for an exempt supply (a bill of supply), null when
 * the service issues no GST document (`none`). `amountPaise` is the booking's price as
 * charged, for `quantity` people.
 */
export function rateFor(category: TaxCategory, amountPaise: number, quantity: number): number | null {
  switch (category) {
    case 'none':
      return null;
    case 'standard':
      return 18;
    case 'premium_sporting':
      return 40;
    case 'admission_exempt_upto_500':
      // Per person: the whole price is taxed once it is above ₹500 a head.
      return amountPaise <= EXEMPT_LIMIT_PAISE * quantity ? 0 : 18;
  }
}

export interface TaxSplit {
  totalPaise: number;
  taxablePaise: number;
  cgstPaise: number;
  sgstPaise: number;
  utgstPaise: number;
  igstPaise: number;
}

/** total × num ⁄ den rounded half-up, in whole paise. */
function share(total: number, num: number, den: number): number {
  return Math.floor((2 * total * num + den) / (2 * den));
}

/**
 * Splits a tax-inclusive total at `rate` percent: intra-state (the place of supply is the
 * supplier's state) into CGST + SGST, or CGST + UTGST in a union territory without a
 * legislature; inter-state into IGST.
 */
export function splitTax(
  totalPaise: number,
  rate: number,
  supplierState: string,
  placeOfSupply: string,
): TaxSplit {
  // At rate 0 (a bill of supply) every share below rounds to 0 paise: the whole price is the taxable value.
  const out: TaxSplit = {
    totalPaise,
    taxablePaise: totalPaise,
    cgstPaise: 0,
    sgstPaise: 0,
    utgstPaise: 0,
    igstPaise: 0,
  };
  if (supplierState === placeOfSupply) {
    const half = share(totalPaise, rate, 2 * (100 + rate));
    out.cgstPaise = half;
    if (isUtgstTerritory(placeOfSupply)) out.utgstPaise = half;
    else out.sgstPaise = half;
    out.taxablePaise = totalPaise - 2 * half;
  } else {
    out.igstPaise = share(totalPaise, rate, 100 + rate);
    out.taxablePaise = totalPaise - out.igstPaise;
  }
  return out;
}

const IST_OFFSET_MS = 330 * 60_000;

/** The calendar day in India time, `YYYY-MM-DD`. */
export function indiaDay(at: Date): string {
  return new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The financial year (1 April – 31 March, India time) an instant falls in: `2026-27`. */
export function financialYear(at: Date): string {
  const day = indiaDay(at);
  const year = Number(day.slice(0, 4));
  const start = Number(day.slice(5, 7)) >= 4 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

/** The letter a series of each kind carries after the organiser's prefix. */
export const KIND_LETTER: Record<GstDocumentKind, string> = {
  tax_invoice: 'I',
  bill_of_supply: 'B',
  credit_note: 'C',
};

/** The series a document is numbered in: the organiser's prefix and the kind's letter (`TIXI`). */
export function seriesOf(prefix: string, kind: GstDocumentKind): string {
  return `${prefix}${KIND_LETTER[kind]}`;
}

export const MAX_NUMBER_LENGTH = 16;

/**
 * A document number: series, the financial year's two two-digit years, a hyphen and the
 * sequence number padded to six digits — `TIXI2627-000001`. With a prefix of at most three
 * characters it is at most 16 characters up to 9,999,999 documents a year.
 */
export function documentNumber(series: string, fy: string, seq: number): string {
  const number = `${series}${fy.slice(2, 4)}${fy.slice(5, 7)}-${String(seq).padStart(6, '0')}`;
  if (number.length > MAX_NUMBER_LENGTH) throw new Error(`document series ${series} is exhausted for ${fy}`);
  return number;
}

/** An organiser's series prefix: 1 to 3 capital letters or digits. */
export const SERIES_PREFIX = /^[A-Z0-9]{1,3}$/;
export const DEFAULT_SERIES_PREFIX = 'TIX';
