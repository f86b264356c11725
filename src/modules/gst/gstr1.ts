// A month's documents summed the way GSTR-1 asks for them, per supplier GSTIN
// (docs/guides/gst.md). Pure. Amounts are summed in paise and answered
// in rupees.
// - b2b (table 4): invoices to a buyer who gave a GSTIN, by recipient GSTIN;
// - b2cl (table 5): inter-state invoices to unregistered buyers above ₹1 lakh, one by one;
// - b2cs (table 7): the other B2C invoices by place of supply and rate, net of their credit notes;
// - creditNotes (table 9B): to registered buyers (cdnr), and against b2cl invoices (cdnur);
// - exempt (table 8): bills of supply, net of their credit notes (which carry no tax);
// - sac (table 12): by SAC and rate, B2B and B2C apart, net of credit notes;
// - documents (table 13): each series' first and last number in the month and how many.
import { paiseToRupees } from '../../lib/money.js';
import type { GstDocument } from './document.js';

export const B2CL_LIMIT_PAISE = 100_000_00;

export interface Gstr1Input {
  gstin: string;
  series: string;
  seq: number;
  doc: GstDocument;
  /** A credit note's original document (issued in any month); null for an invoice or a bill of supply. */
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

/** B2CL (table 5): a tax invoice to an unregistered buyer in another state, above ₹1 lakh. */
export const isB2cl = (d: GstDocument) =>
  d.kind === 'tax_invoice' &&
  d.recipient.gstin === null &&
  d.supplyType === 'inter_state' &&
  d.line.totalPaise > B2CL_LIMIT_PAISE;

function bucket<K>(
  map: Map<string, { key: K; t: Taxes & { quantity?: number } }>,
  id: string,
  key: K,
): Taxes {
  let b = map.get(id);
  if (!b) map.set(id, (b = { key, t: zero() }));
  return b.t;
}

function invoiceEntry(d: GstDocument) {
  return {
    number: d.number,
    date: d.date,
    placeOfSupply: d.placeOfSupply,
    reverseCharge: false,
    rate: d.line.ratePercent,
    ...rupeesOf(taxesOf(d)),
  };
}

function noteEntry(d: GstDocument) {
  // Stryker disable next-line OptionalChaining: only credit notes come here, and buildCreditNote always names the original; `?.` serves the type.
  return {
    ...invoiceEntry(d),
    originalNumber: d.original?.number ?? null,
    originalDate: d.original?.date ?? null,
    recipientGstin: d.recipient.gstin,
  };
}

type Bucket<K> = Map<string, { key: K; t: Taxes & { quantity?: number } }>;

/** One supplier GSTIN's month, as it is summed. */
function emptyMonth() {
  return {
    b2b: new Map<string, ReturnType<typeof invoiceEntry>[]>(),
    b2cl: [] as ReturnType<typeof invoiceEntry>[],
    b2cs: new Map() as Bucket<{ placeOfSupply: string; supplyType: string; rate: number }>,
    cdnr: [] as ReturnType<typeof noteEntry>[],
    cdnur: [] as ReturnType<typeof noteEntry>[],
    exempt: new Map() as Bucket<{ supplyType: string; recipient: string }>,
    sac: new Map() as Bucket<{ sac: string; rate: number; recipient: string }>,
    series: new Map<
      string,
      { series: string; kind: string; first: Gstr1Input; last: Gstr1Input; count: number }
    >(),
    total: zero(),
  };
}
type Month = ReturnType<typeof emptyMonth>;

function countInSeries(m: Month, item: Gstr1Input): void {
  const s = m.series.get(item.series);
  if (!s)
    m.series.set(item.series, {
      series: item.series,
      kind: item.doc.kind,
      first: item,
      last: item,
      count: 1,
    });
  else {
    s.count++;
    // Stryker disable next-line EqualityOperator: a series numbers each document once, so no two items share a seq and `<=` picks the same one.
    if (item.seq < s.first.seq) s.first = item;
    // Stryker disable next-line EqualityOperator: as above, for the last.
    if (item.seq > s.last.seq) s.last = item;
  }
}

function addB2cs(m: Month, d: GstDocument, sign: 1 | -1): void {
  const key = { placeOfSupply: d.placeOfSupply, supplyType: d.supplyType, rate: d.line.ratePercent };
  add(bucket(m.b2cs, JSON.stringify(key), key), d, sign);
}

/** Files one document in every table it belongs to. */
function file(m: Month, item: Gstr1Input): void {
  const d = item.doc;
  const sign = d.kind === 'credit_note' ? -1 : 1;
  // What the document is about: a credit note is reported where its original was.
  const about = item.original ?? d;
  const registered = d.recipient.gstin !== null;
  add(m.total, d, sign);
  countInSeries(m, item);
  const sacKey = { sac: d.line.sac, rate: d.line.ratePercent, recipient: registered ? 'b2b' : 'b2c' };
  const sacBucket = bucket(m.sac, JSON.stringify(sacKey), sacKey) as Taxes & { quantity?: number };
  add(sacBucket, d, sign);
  sacBucket.quantity = (sacBucket.quantity ?? 0) + sign * d.line.quantity;
  if (about.kind === 'bill_of_supply') {
    const key = { supplyType: d.supplyType, recipient: registered ? 'registered' : 'unregistered' };
    add(bucket(m.exempt, JSON.stringify(key), key), d, sign);
  } else if (d.kind === 'credit_note') {
    if (registered) m.cdnr.push(noteEntry(d));
    else if (isB2cl(about)) m.cdnur.push(noteEntry(d));
    else addB2cs(m, d, -1);
  } else if (registered)
    m.b2b.set(d.recipient.gstin!, [...(m.b2b.get(d.recipient.gstin!) ?? []), invoiceEntry(d)]);
  else if (isB2cl(d)) m.b2cl.push(invoiceEntry(d));
  else addB2cs(m, d, 1);
}

function summarise(gstin: string, items: readonly Gstr1Input[]) {
  const m = emptyMonth();
  for (const item of items) file(m, item);
  return {
    gstin,
    b2b: [...m.b2b.entries()].map(([recipientGstin, invoices]) => ({ recipientGstin, invoices })),
    b2cl: m.b2cl,
    b2cs: [...m.b2cs.values()].map((b) => ({ ...b.key, ...rupeesOf(b.t) })),
    creditNotes: { registered: m.cdnr, unregistered: m.cdnur },
    exempt: [...m.exempt.values()].map((b) => ({ ...b.key, value: paiseToRupees(b.t.value) })),
    sac: [...m.sac.values()].map((b) => ({ ...b.key, quantity: b.t.quantity ?? 0, ...rupeesOf(b.t) })),
    documents: [...m.series.values()].map((s) => ({
      series: s.series,
      kind: s.kind,
      from: s.first.doc.number,
      to: s.last.doc.number,
      issued: s.count,
      cancelled: 0,
    })),
    totals: rupeesOf(m.total),
  };
}

export type Gstr1Supplier = ReturnType<typeof summarise>;

/** The month's documents by supplier GSTIN, each summed as GSTR-1 asks. */
export function gstr1Summary(items: readonly Gstr1Input[]): Gstr1Supplier[] {
  const byGstin = new Map<string, Gstr1Input[]>();
  for (const item of items) byGstin.set(item.gstin, [...(byGstin.get(item.gstin) ?? []), item]);
  return [...byGstin.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([gstin, list]) => summarise(gstin, list));
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
