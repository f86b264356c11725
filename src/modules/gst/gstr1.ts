// A month's documents summed the way GSTR-1 asks for them, per supplier GSTIN
// (shared/reference/gst-invoicing.md §9). Pure. Amounts are summed in paise and answered
// in rupees.
// - b2b (table 4): invoices to a buyer who gave a GSTIN, by recipient GSTIN;
// - b2cl (table 5): inter-state invoices to unregistered buyers above ₹1 lakh, one by one;
// - b2cs (table 7): the other B2C invoices by place of supply and rate, net of their credit notes;
// - creditNotes (table 9B): to registered buyers (cdnr), and against b2cl invoices (cdnur);
// - exempt (table 8): bills of supply, net of their credit notes (which carry no tax);
// - sac (table 12): by SAC and rate, B2B and B2C apart, net of credit notes;
// - documents (table 13): each series' first and last number in the month and how many.
import { paiseToRupees } from '../../shared/money.js';
import type { GstDocument } from './document.js';

export const B2CL_LIMIT_PAISE = 100_000_00;

export interface Gstr1Input {
  gstin: string;
  series: string;
  seq: number;
  doc: GstDocument;
  /** A credit note's original document (issued in any month). */
  original: GstDocument | null;
}

interface Taxes {
  value: number;
  taxableValue: number;
  igst: number;
  cgst: number;
  sgst: number;
  utgst: number;
}

const zero = (): Taxes => ({ value: 0, taxableValue: 0, igst: 0, cgst: 0, sgst: 0, utgst: 0 });

function add(to: Taxes, doc: GstDocument, sign: 1 | -1): void {
  const l = doc.line;
  to.value += sign * l.totalPaise;
  to.taxableValue += sign * l.taxablePaise;
  to.igst += sign * l.igstPaise;
  to.cgst += sign * l.cgstPaise;
  to.sgst += sign * l.sgstPaise;
  to.utgst += sign * l.utgstPaise;
}

function rupeesOf(t: Taxes) {
  return {
    value: paiseToRupees(t.value),
    taxableValue: paiseToRupees(t.taxableValue),
    igst: paiseToRupees(t.igst),
    cgst: paiseToRupees(t.cgst),
    sgst: paiseToRupees(t.sgst),
    utgst: paiseToRupees(t.utgst),
  };
}

function taxesOf(doc: GstDocument): Taxes {
  const t = zero();
  add(t, doc, 1);
  return t;
}

const isB2cl = (d: GstDocument) => d.kind === 'tax_invoice' && d.recipient.gstin === null && d.supplyType === 'inter_state' && d.line.totalPaise > B2CL_LIMIT_PAISE;

function bucket<K>(map: Map<string, { key: K; t: Taxes }>, id: string, key: K): Taxes {
  let b = map.get(id);
  if (!b) map.set(id, (b = { key, t: zero() }));
  return b.t;
}

function invoiceEntry(d: GstDocument) {
  return { number: d.number, date: d.date, placeOfSupply: d.placeOfSupply, reverseCharge: false, rate: d.line.ratePercent, ...rupeesOf(taxesOf(d)) };
}

function noteEntry(d: GstDocument) {
  return { ...invoiceEntry(d), originalNumber: d.original?.number ?? null, originalDate: d.original?.date ?? null, recipientGstin: d.recipient.gstin };
}

/** One supplier GSTIN's month. */
function summarise(gstin: string, items: readonly Gstr1Input[]) {
  const b2b = new Map<string, ReturnType<typeof invoiceEntry>[]>();
  const b2cl: ReturnType<typeof invoiceEntry>[] = [];
  const b2cs = new Map<string, { key: { placeOfSupply: string; supplyType: string; rate: number }; t: Taxes }>();
  const cdnr: ReturnType<typeof noteEntry>[] = [];
  const cdnur: ReturnType<typeof noteEntry>[] = [];
  const exempt = new Map<string, { key: { supplyType: string; recipient: string }; t: Taxes }>();
  const sac = new Map<string, { key: { sac: string; rate: number; recipient: string }; t: Taxes & { quantity: number } }>();
  const series = new Map<string, { series: string; kind: string; first: Gstr1Input; last: Gstr1Input; count: number }>();
  const total = zero();
  for (const item of items) {
    const d = item.doc;
    const sign = d.kind === 'credit_note' ? -1 : 1;
    // What the document is about: a credit note is reported where its original was.
    const about = d.kind === 'credit_note' ? (item.original ?? d) : d;
    const registered = d.recipient.gstin !== null;
    add(total, d, sign);
    const s = series.get(item.series);
    if (!s) series.set(item.series, { series: item.series, kind: d.kind, first: item, last: item, count: 1 });
    else {
      s.count++;
      if (item.seq < s.first.seq) s.first = item;
      if (item.seq > s.last.seq) s.last = item;
    }
    const sacKey = { sac: d.line.sac, rate: d.line.ratePercent, recipient: registered ? 'b2b' : 'b2c' };
    const sacBucket = bucket(sac, JSON.stringify(sacKey), sacKey) as Taxes & { quantity: number };
    add(sacBucket, d, sign);
    sacBucket.quantity = (sacBucket.quantity ?? 0) + sign * d.line.quantity;
    if (about.kind === 'bill_of_supply') {
      const key = { supplyType: d.supplyType, recipient: registered ? 'registered' : 'unregistered' };
      add(bucket(exempt, JSON.stringify(key), key), d, sign);
      continue;
    }
    if (d.kind === 'credit_note') {
      if (registered) cdnr.push(noteEntry(d));
      else if (isB2cl(about)) cdnur.push(noteEntry(d));
      else {
        const key = { placeOfSupply: d.placeOfSupply, supplyType: d.supplyType, rate: d.line.ratePercent };
        add(bucket(b2cs, JSON.stringify(key), key), d, -1);
      }
      continue;
    }
    if (registered) b2b.set(d.recipient.gstin!, [...(b2b.get(d.recipient.gstin!) ?? []), invoiceEntry(d)]);
    else if (isB2cl(d)) b2cl.push(invoiceEntry(d));
    else {
      const key = { placeOfSupply: d.placeOfSupply, supplyType: d.supplyType, rate: d.line.ratePercent };
      add(bucket(b2cs, JSON.stringify(key), key), d, 1);
    }
  }
  return {
    gstin,
    b2b: [...b2b.entries()].map(([recipientGstin, invoices]) => ({ recipientGstin, invoices })),
    b2cl,
    b2cs: [...b2cs.values()].map((b) => ({ ...b.key, ...rupeesOf(b.t) })),
    creditNotes: { registered: cdnr, unregistered: cdnur },
    exempt: [...exempt.values()].map((b) => ({ ...b.key, value: paiseToRupees(b.t.value) })),
    sac: [...sac.values()].map((b) => ({ ...b.key, quantity: b.t.quantity, ...rupeesOf(b.t) })),
    documents: [...series.values()].map((s) => ({ series: s.series, kind: s.kind, from: s.first.doc.number, to: s.last.doc.number, issued: s.count, cancelled: 0 })),
    totals: rupeesOf(total),
  };
}

export type Gstr1Supplier = ReturnType<typeof summarise>;

/** The month's documents by supplier GSTIN, each summed as GSTR-1 asks. */
export function gstr1Summary(items: readonly Gstr1Input[]): Gstr1Supplier[] {
  const byGstin = new Map<string, Gstr1Input[]>();
  for (const item of items) byGstin.set(item.gstin, [...(byGstin.get(item.gstin) ?? []), item]);
  return [...byGstin.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([gstin, list]) => summarise(gstin, list));
}

/** A month `YYYY-MM` as the first day of it and of the next (India time days). */
export function monthRange(month: string): { from: string; to: string } | undefined {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) return undefined;
  const year = Number(m[1]);
  const mon = Number(m[2]);
  const next = mon === 12 ? `${year + 1}-01` : `${year}-${String(mon + 1).padStart(2, '0')}`;
  return { from: `${month}-01`, to: `${next}-01` };
}
