// A GST document as people read it: the same sections and lines for the HTML page and the
// PDF, so both always show every field rule 46 (or 49, or 53) asks for.
import { escapeHtml } from '../../lib/html.js';
import { isUtgstTerritory, stateName } from '../../lib/gstin.js';
import { KIND_TITLE, type GstDocument } from './document.js';

export interface Section {
  heading: string;
  rows: [label: string, value: string][];
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2026-12-05` → `05 Dec 2026`. */
export function humanDate(day: string): string {
  return `${day.slice(8, 10)} ${MONTHS[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)}`;
}

/** Paise as rupees with Indian digit grouping: 123456789 → `12,34,567.89`. */
export function rupees(paise: number): string {
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  const whole = String(Math.floor(abs / 100));
  const last3 = whole.slice(-3);
  const rest = whole.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  return `${sign}${rest ? `${rest},` : ''}${last3}.${String(abs % 100).padStart(2, '0')}`;
}

const inr = (paise: number) => `INR ${rupees(paise)}`;
const state = (code: string) => `${stateName(code)} (${code})`;

export function documentTitle(doc: GstDocument): string {
  return KIND_TITLE[doc.kind];
}

/** The lines of the document, in reading order. */
export function documentSections(doc: GstDocument): Section[] {
  const head = headSection(doc);
  const supplier: Section = {
    heading: 'Supplier',
    rows: [
      ['Name', doc.supplier.legalName],
      ['Address', doc.supplier.address],
      ['GSTIN', doc.supplier.gstin],
      ['State', state(doc.supplier.stateCode)],
    ],
  };
  const recipient: Section = { heading: 'Recipient', rows: [['Name', doc.recipient.name]] };
  if (doc.recipient.address) recipient.rows.push(['Address', doc.recipient.address]);
  if (doc.recipient.gstin) recipient.rows.push(['GSTIN', doc.recipient.gstin]);
  recipient.rows.push(['State', state(doc.recipient.stateCode)], ['Email', doc.recipient.email]);
  const item = supplySection(doc);
  const sections = [head, supplier, recipient, item];
  const notes: Section = { heading: 'Notes', rows: [] };
  if (doc.exemption) notes.rows.push(['Exemption', doc.exemption]);
  if (doc.paymentId) notes.rows.push(['Payment reference', doc.paymentId]);
  notes.rows.push(['Booking', doc.registrationId]);
  notes.rows.push([
    'Signature',
    `Issued electronically for ${doc.supplier.legalName}; no signature is required.`,
  ]);
  sections.push(notes);
  return sections;
}

/** The title, number, date and place of supply (and, for a credit note, what it credits). */
function headSection(doc: GstDocument): Section {
  const numberLabel =
    doc.kind === 'credit_note'
      ? 'Credit note number'
      : doc.kind === 'bill_of_supply'
        ? 'Bill number'
        : 'Invoice number';
  const head: Section = {
    heading: documentTitle(doc),
    rows: [
      [numberLabel, doc.number],
      ['Date', humanDate(doc.date)],
      ['Place of supply', state(doc.placeOfSupply)],
      ['Reverse charge', 'No'],
    ],
  };
  if (doc.original) {
    head.rows.push([
      'Original document',
      `${documentTitleOf(doc.original.kind)} ${doc.original.number} dated ${humanDate(doc.original.date)}`,
    ]);
    if (doc.reason) head.rows.push(['Reason', doc.reason]);
  }
  return head;
}

/** The supply: what, how many, its taxable value, the tax of each kind and the total. */
function supplySection(doc: GstDocument): Section {
  const line = doc.line;
  const half = line.ratePercent / 2;
  const item: Section = {
    heading: 'Supply',
    rows: [
      ['Description', line.description],
      ['SAC', line.sac],
      ['Quantity', `${line.quantity} ${line.quantity === 1 ? 'person' : 'people'}`],
      ['Taxable value', inr(line.taxablePaise)],
    ],
  };
  if (line.ratePercent === 0) item.rows.push(['Tax', 'Nil (exempt supply)']);
  else if (doc.supplyType === 'inter_state')
    item.rows.push([`IGST @ ${line.ratePercent}%`, inr(line.igstPaise)]);
  else {
    item.rows.push([`CGST @ ${half}%`, inr(line.cgstPaise)]);
    if (isUtgstTerritory(doc.placeOfSupply)) item.rows.push([`UTGST @ ${half}%`, inr(line.utgstPaise)]);
    else item.rows.push([`SGST @ ${half}%`, inr(line.sgstPaise)]);
  }
  item.rows.push([
    doc.kind === 'credit_note' ? 'Total credited (tax inclusive)' : 'Total (tax inclusive)',
    inr(line.totalPaise),
  ]);
  return item;
}

function documentTitleOf(kind: GstDocument['kind']): string {
  return KIND_TITLE[kind];
}

export const TEST_MODE_NOTICE = 'TEST MODE - not a tax document';

/** The document as a self-contained HTML page (no script, no style: it prints as it is). */
export function renderDocumentHtml(doc: GstDocument): string {
  const title = `${documentTitle(doc)} ${doc.number}`;
  const body = documentSections(doc)
    .map(
      (s, i) =>
        `${i === 0 ? `<h1>${escapeHtml(s.heading)}</h1>` : `<h2>${escapeHtml(s.heading)}</h2>`}\n<table>\n${s.rows
          .map(([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
          .join('\n')}\n</table>`,
    )
    .join('\n');
  const notice = doc.testMode ? `<p><strong>${escapeHtml(TEST_MODE_NOTICE)}</strong></p>\n` : '';
  return `<!doctype html>
<html lang="en-IN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body>
<main>
${notice}${body}
</main>
</body></html>`;
}
