// What a GST document says, built from the facts of a sale or a refund. Pure: the number,
// the dates and every party come in; the document is stored as built and never changed.
// Rule 46 (tax invoice), rule 49 (bill of supply), rule 53 (credit note):
// docs/guides/gst.md.
import type { GstDocumentKind } from '../../db/database.js';
import { splitTax, type TaxSplit } from './tax.js';

export interface Party {
  legalName: string;
  address: string;
  gstin: string;
  stateCode: string;
}

export interface Recipient {
  name: string;
  email: string;
  gstin: string | null;
  address: string | null;
  /** The buyer's state: given, or the GSTIN's, or else the place of supply. */
  stateCode: string;
}

export interface DocumentLine extends TaxSplit {
  description: string;
  sac: string;
  quantity: number;
  ratePercent: number;
}

export interface GstDocument {
  kind: GstDocumentKind;
  number: string;
  /** The issue date, India time, `YYYY-MM-DD`. */
  date: string;
  issuedAt: string;
  financialYear: string;
  testMode: boolean;
  supplier: Party;
  recipient: Recipient;
  placeOfSupply: string;
  supplyType: 'intra_state' | 'inter_state';
  reverseCharge: false;
  line: DocumentLine;
  /** The exemption a bill of supply rests on. */
  exemption: string | null;
  /** A credit note's invoice. */
  original: { kind: GstDocumentKind; number: string; date: string } | null;
  /** Why a credit note was issued. */
  reason: string | null;
  paymentId: string | null;
  eventId: string;
  registrationId: string;
}

export const EXEMPTION_TEXT =
  'Exempt: admission to an entertainment or sporting event at ₹500 or less per person (Notification 12/2017-Central Tax (Rate), entry 81).';

export interface SaleFacts {
  number: string;
  kind: 'tax_invoice' | 'bill_of_supply';
  issuedAt: Date;
  date: string;
  financialYear: string;
  testMode: boolean;
  supplier: Party;
  buyer: {
    name: string;
    email: string;
    gstin: string | null;
    address: string | null;
    stateCode: string | null;
  };
  placeOfSupply: string;
  rate: number;
  description: string;
  sac: string;
  quantity: number;
  amountPaise: number;
  paymentId: string | null;
  eventId: string;
  registrationId: string;
}

/** A tax invoice (or a bill of supply at rate 0) for a confirmed booking. */
export function buildSaleDocument(f: SaleFacts): GstDocument {
  const split = splitTax(f.amountPaise, f.rate, f.supplier.stateCode, f.placeOfSupply);
  const buyerState = f.buyer.stateCode ?? (f.buyer.gstin ? f.buyer.gstin.slice(0, 2) : f.placeOfSupply);
  return {
    kind: f.kind,
    number: f.number,
    date: f.date,
    issuedAt: f.issuedAt.toISOString(),
    financialYear: f.financialYear,
    testMode: f.testMode,
    supplier: f.supplier,
    recipient: {
      name: f.buyer.name,
      email: f.buyer.email,
      gstin: f.buyer.gstin,
      address: f.buyer.address,
      stateCode: buyerState,
    },
    placeOfSupply: f.placeOfSupply,
    supplyType: f.supplier.stateCode === f.placeOfSupply ? 'intra_state' : 'inter_state',
    reverseCharge: false,
    line: { description: f.description, sac: f.sac, quantity: f.quantity, ratePercent: f.rate, ...split },
    exemption: f.kind === 'bill_of_supply' ? EXEMPTION_TEXT : null,
    original: null,
    reason: null,
    paymentId: f.paymentId,
    eventId: f.eventId,
    registrationId: f.registrationId,
  };
}

/**
 * The credit note of a refund: the original's values and taxes credited in full (a refund
 * returns the GST too), or, for a part refunded (`refundPaise` less than the original's
 * total), that part with its tax at the original's rate. Its own number and date, naming the
 * original.
 */
export function buildCreditNote(
  original: GstDocument,
  c: {
    number: string;
    issuedAt: Date;
    date: string;
    financialYear: string;
    reason: string;
    refundPaise?: number | undefined;
  },
): GstDocument {
  const part = c.refundPaise !== undefined && c.refundPaise < original.line.totalPaise;
  const line = part
    ? {
        ...original.line,
        ...splitTax(
          c.refundPaise!,
          original.line.ratePercent,
          original.supplier.stateCode,
          original.placeOfSupply,
        ),
      }
    : original.line;
  return {
    ...original,
    kind: 'credit_note',
    number: c.number,
    date: c.date,
    issuedAt: c.issuedAt.toISOString(),
    financialYear: c.financialYear,
    line,
    exemption: original.exemption,
    original: { kind: original.kind, number: original.number, date: original.date },
    reason: c.reason,
  };
}

export const KIND_TITLE: Record<GstDocumentKind, string> = {
  tax_invoice: 'Tax Invoice',
  bill_of_supply: 'Bill of Supply',
  credit_note: 'Credit Note',
};
