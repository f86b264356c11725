// Reading the GST documents issued (gst.service.ts issues them): a booking's documents for
// its pages, links and mails, and an account's month for GSTR-1 and its exports.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { KeyPrincipal } from '../../http/auth.js';
import { badRequest, notFound } from '../../lib/errors.js';
import type { GstDocument } from './document.js';
import { renderDocumentPdf } from './document.pdf.js';
import * as repo from './gst.repo.js';
import { parseGstin } from './gst.service.js';
import { gstr1Summary, monthRange } from './gstr1.js';

/**
 * A booking's document (`sale`: its tax invoice or bill of supply; `refund`: its credit
 * note, the one numbered `number` or else the latest), of an event the caller has already
 * loaded as its own: 404 `document_not_found` when there is none.
 */
export async function loadDocument(
  db: Kysely<Database>,
  p: KeyPrincipal,
  eventId: string,
  registrationId: string,
  role: 'sale' | 'refund',
  number?: string,
): Promise<GstDocument> {
  const rows = (await repo.documentsOf(db, registrationId)).filter(
    (r) => r.role === role && (number === undefined || r.number === number),
  );
  const row = rows[rows.length - 1];
  if (!row || row.event_id !== eventId || row.account_id !== p.userId || row.mode !== p.mode) {
    throw notFound(
      role === 'sale'
        ? 'no tax invoice or bill of supply was issued for this registration'
        : number === undefined
          ? 'no credit note was issued for this registration'
          : `no credit note ${number} was issued for this registration`,
      'document_not_found',
    );
  }
  return row.doc as GstDocument;
}

/** A booking's documents as links show them: kind, number, date and total, oldest first. */
export interface DocumentRef {
  role: 'sale' | 'refund';
  kind: GstDocument['kind'];
  number: string;
  date: string;
  totalPaise: number;
}

/** The documents issued for a booking (its invoice or bill of supply, then its credit notes), oldest first. */
export async function documentRefsOf(db: Kysely<Database>, registrationId: string): Promise<DocumentRef[]> {
  return (await repo.documentsOf(db, registrationId)).map((r) => ({
    role: r.role,
    kind: r.kind,
    number: r.number,
    date: r.issued_on,
    totalPaise: Number(r.total_paise),
  }));
}

/** A booking's document numbered `number` (for the mail that attaches it). */
export async function documentOf(
  db: Kysely<Database>,
  registrationId: string,
  number: string,
): Promise<GstDocument | undefined> {
  return (await repo.documentsOf(db, registrationId)).find((r) => r.number === number)?.doc as
    | GstDocument
    | undefined;
}

/**
 * A booking's document numbered `number` as its PDF (its file name and bytes), for the links
 * of the dashboard's registration page and the attendee's page, each of which has already
 * established that the caller may see this booking; undefined when the booking has no
 * document of that number.
 */
export async function documentPdfOf(
  db: Kysely<Database>,
  registrationId: string,
  number: string,
): Promise<{ fileName: string; pdf: Buffer } | undefined> {
  const doc = await documentOf(db, registrationId, number);
  return doc ? { fileName: `${doc.number}.pdf`, pdf: await renderDocumentPdf(doc) } : undefined;
}

/** The sale documents of these bookings, by registration id (for the ticket mail). */
export async function saleDocumentsOf(
  db: Kysely<Database>,
  registrationIds: readonly string[],
): Promise<Map<string, GstDocument>> {
  return new Map(
    (await repo.findSalesOf(db, registrationIds)).map((r) => [r.registration_id, r.doc as GstDocument]),
  );
}

/**
 * The month's documents of the key's account and mode, summed for GSTR-1 per supplier
 * GSTIN (only `gstin` when given). `month` is `YYYY-MM`, days in India time.
 */
export async function gstr1(db: Kysely<Database>, p: KeyPrincipal, month: string, gstin?: string) {
  const range = monthRange(month);
  if (!range) throw badRequest('invalid_month', 'month must be YYYY-MM, such as 2026-11');
  const only = gstin === undefined ? undefined : parseGstin(gstin, 'gstin');
  const rows = (await repo.documentsIssuedBetween(db, p.userId, p.mode, range.from, range.to)).filter(
    (r) => only === undefined || r.gstin === only,
  );
  const originals = new Map(
    (await repo.findById(db, [...new Set(rows.flatMap((r) => (r.original_id ? [r.original_id] : [])))])).map(
      (r) => [r.id, r.doc as GstDocument],
    ),
  );
  const suppliers = gstr1Summary(
    rows.map((r) => ({
      gstin: r.gstin,
      series: r.series,
      seq: r.seq,
      doc: r.doc as GstDocument,
      original: r.original_id ? (originals.get(r.original_id) ?? null) : null,
    })),
  );
  return { month, mode: p.mode, from: range.from, to: range.to, suppliers };
}

/** The document numbers of these bookings, by registration id: `invoice` (or bill of supply) and `creditNote`. */
export async function documentNumbersOf(
  db: Kysely<Database>,
  registrationIds: readonly string[],
): Promise<Map<string, { invoice: string | null; creditNote: string | null }>> {
  const out = new Map<string, { invoice: string | null; creditNote: string | null }>();
  for (const r of await repo.numbersOf(db, registrationIds)) {
    const entry = out.get(r.registration_id) ?? { invoice: null, creditNote: null };
    if (r.role === 'sale') entry.invoice = r.number;
    // Refunded in parts: every credit note, in the order they were issued.
    else entry.creditNote = entry.creditNote === null ? r.number : `${entry.creditNote} ${r.number}`;
    out.set(r.registration_id, entry);
  }
  return out;
}

/**
 * The documents of the key's account and mode for an export, in number order (per supplier
 * GSTIN and series), issued on days `from` ≤ day ≤ `to` in India time: `batchSize` at a
 * time, each batch read when the reader asks for it.
 */
export async function* exportDocuments(
  db: Kysely<Database>,
  p: KeyPrincipal,
  days: { from?: string | undefined; to?: string | undefined },
  batchSize: number,
) {
  let after: repo.DocumentPosition | undefined;
  for (;;) {
    const rows = await repo.exportPage(db, p.userId, p.mode, days, after, batchSize);
    if (rows.length === 0) return;
    yield rows.map((r) => r.doc as GstDocument);
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    after = { gstin: last.gstin, series: last.series, fy: last.fy, seq: last.seq };
  }
}
