// GST (docs/decisions/17-the-organisers-office.md): the organiser's settings, and the documents issued for
// confirmed paid bookings and their refunds. HTTP-free. Documents are issued inside the
// transaction that confirms (or refunds) the booking, numbered from a counter row locked
// there, so every path that confirms issues exactly one and no number is skipped or
// repeated. Settings, counters and documents are per account and mode: test mode has its
// own settings and series, and its documents say TEST MODE. Reading the documents issued is
// in documents.service.ts.
import type { Kysely, Transaction } from 'kysely';
import type { BillingDoc, Database, Mode, TaxCategory } from '../../db/database.js';
import type { KeyPrincipal } from '../../http/auth.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest } from '../../lib/errors.js';
import { GSTIN_PROBLEM_TEXT, gstinProblem, isStateCode, normaliseGstin, stateName } from '../../lib/gstin.js';
import type { Ids } from '../../lib/ids.js';
import { buildCreditNote, buildSaleDocument, type GstDocument, type Party } from './document.js';
import * as repo from './gst.repo.js';
import {
  DEFAULT_SERIES_PREFIX,
  SERIES_PREFIX,
  documentNumber,
  financialYear,
  indiaDay,
  rateFor,
  seriesOf,
} from './tax.js';

export type { GstDocument } from './document.js';
type IssueDeps = { ids: Ids };

/** Used when neither the tier nor the event names one: heading 9996, under which the admission rates are notified. */
export const DEFAULT_SAC = '9996';

// ---------------------------------------------------------------- settings

export interface SettingsInput {
  gstin: string | null;
  legalName: string;
  address: string;
  state?: string | null | undefined;
  seriesPrefix?: string | undefined;
}

/** A GSTIN as given, checked and normalised; `field` names it in the 400. */
export function parseGstin(text: string, field: string): string {
  const gstin = normaliseGstin(text);
  const problem = gstinProblem(gstin);
  if (problem !== null) throw badRequest('invalid_gstin', `${field} ${GSTIN_PROBLEM_TEXT[problem]}`);
  return gstin;
}

export function parseStateCode(text: string, field: string): string {
  const code = text.trim();
  if (!isStateCode(code))
    throw badRequest('invalid_state', `${field} must be a two-digit GST state code such as 29 (Karnataka)`);
  return code;
}

function requiredText(value: string, field: string, max: number): string {
  const v = value.trim();
  if (v === '') throw badRequest('invalid_field', `${field} must not be empty`);
  if (v.length > max) throw badRequest('invalid_field', `${field} must be at most ${max} characters`);
  return v;
}

export async function putSettings(
  deps: { db: Kysely<Database>; clock: Clock },
  p: KeyPrincipal,
  input: SettingsInput,
) {
  const gstin = input.gstin === null ? null : parseGstin(input.gstin, 'gstin');
  let state = input.state === undefined || input.state === null ? null : parseStateCode(input.state, 'state');
  if (gstin !== null) {
    if (state !== null && state !== gstin.slice(0, 2))
      throw badRequest(
        'invalid_state',
        `state ${state} is not the state of gstin ${gstin} (${gstin.slice(0, 2)})`,
      );
    state = gstin.slice(0, 2);
  }
  const prefix = (
    input.seriesPrefix ??
    (await repo.findProfile(deps.db, p.userId, p.mode))?.series_prefix ??
    DEFAULT_SERIES_PREFIX
  )
    .trim()
    .toUpperCase();
  if (!SERIES_PREFIX.test(prefix))
    throw badRequest('invalid_field', 'seriesPrefix must be 1 to 3 letters or digits');
  const row = await repo.upsertProfile(deps.db, {
    account_id: p.userId,
    mode: p.mode,
    gstin,
    legal_name: requiredText(input.legalName, 'legalName', 200),
    address: requiredText(input.address, 'address', 500),
    state_code: state,
    series_prefix: prefix,
    updated_at: deps.clock.now(),
  });
  return presentSettings(row, p.mode);
}

export async function getSettings(db: Kysely<Database>, p: KeyPrincipal) {
  return presentSettings(await repo.findProfile(db, p.userId, p.mode), p.mode);
}

function presentSettings(row: repo.ProfileRow | undefined, mode: Mode) {
  return {
    mode,
    registered: (row?.gstin ?? null) !== null,
    gstin: row?.gstin ?? null,
    legalName: row?.legal_name ?? null,
    address: row?.address ?? null,
    state: row?.state_code ?? null,
    stateName: row?.state_code ? stateName(row.state_code) : null,
    seriesPrefix: row?.series_prefix ?? DEFAULT_SERIES_PREFIX,
    updatedAt: row?.updated_at.toISOString() ?? null,
  };
}

// ---------------------------------------------------------------- issuing

/** What a confirmed paid booking tells the tax documents. */
export interface Sale {
  accountId: string;
  mode: Mode;
  at: Date;
  event: {
    id: string;
    title: string;
    startDate: string | null;
    taxCategory: TaxCategory;
    supplierGstin: string | null;
    sac: string | null;
    venueState: string | null;
  };
  booking: {
    id: string;
    name: string;
    email: string;
    /** The tier's name and SAC, and the track's title, as booked. */
    ticketType: string;
    tierSac: string | null;
    trackTitle: string | null;
    /** A seated booking's seats as a person reads them ("Stalls · Row C, seat 12"); empty otherwise. */
    seats?: readonly string[];
    quantity: number;
    amountPaise: number;
    billing: BillingDoc | null;
    paymentId: string | null;
  };
}

function describeSale(s: Sale): string {
  const what = [s.booking.ticketType, s.booking.trackTitle, ...(s.booking.seats ?? [])]
    .filter((part) => part !== null)
    .join(' · ');
  return `Admission: ${s.event.title} (${what})${s.event.startDate ? `, ${s.event.startDate.slice(0, 10)}` : ''}`;
}

async function allocate(
  trx: Transaction<Database>,
  key: { accountId: string; mode: Mode; gstin: string; series: string; at: Date },
) {
  const fy = financialYear(key.at);
  const seq = await repo.nextSeq(trx, { ...key, fy });
  return { fy, seq, number: documentNumber(key.series, fy, seq) };
}

/**
 * The tax invoice (bill of supply when exempt) of a confirmed paid booking, inside the
 * confirming transaction. Nothing for an organiser without a GSTIN (account or event),
 * without settings (legal name and address), or for an event taxed `none`.
 */
export async function issueSaleDocument(
  trx: Transaction<Database>,
  deps: IssueDeps,
  sale: Sale,
): Promise<void> {
  const rate = rateFor(sale.event.taxCategory, sale.booking.amountPaise, sale.booking.quantity);
  if (rate === null || sale.booking.amountPaise <= 0) return;
  const profile = await repo.findProfile(trx, sale.accountId, sale.mode);
  const gstin = sale.event.supplierGstin ?? profile?.gstin ?? null;
  if (!profile || gstin === null) return;
  const kind = rate === 0 ? 'bill_of_supply' : 'tax_invoice';
  const series = seriesOf(profile.series_prefix, kind);
  const key = { accountId: sale.accountId, mode: sale.mode, gstin, series, at: sale.at };
  const { fy, seq, number } = await allocate(trx, key);
  const supplier: Party = {
    legalName: profile.legal_name,
    address: profile.address,
    gstin,
    stateCode: gstin.slice(0, 2),
  };
  const billing = sale.booking.billing;
  const doc = buildSaleDocument({
    number,
    kind,
    issuedAt: sale.at,
    date: indiaDay(sale.at),
    financialYear: fy,
    testMode: sale.mode === 'test',
    supplier,
    buyer: {
      name: billing?.name ?? sale.booking.name,
      email: sale.booking.email,
      gstin: billing?.gstin ?? null,
      address: billing?.address ?? null,
      stateCode: billing?.stateCode ?? null,
    },
    placeOfSupply: sale.event.venueState ?? supplier.stateCode,
    rate,
    description: describeSale(sale),
    sac: sale.booking.tierSac ?? sale.event.sac ?? DEFAULT_SAC,
    quantity: sale.booking.quantity,
    amountPaise: sale.booking.amountPaise,
    paymentId: sale.booking.paymentId,
    eventId: sale.event.id,
    registrationId: sale.booking.id,
  });
  await insert(trx, deps, { ...key, fy, seq, role: 'sale', originalId: null }, doc);
}

/**
 * The credit note of a refund of a booking that had a document, inside the refunding
 * transaction: for all of it, or for the part refunded (`refundPaise`); a booking refunded
 * in parts gets one credit note for each part, never more than its invoice's total in all
 * (the capture's CHECK bounds the refunds). Answers its number, when one was issued.
 */
export async function issueCreditNote(
  trx: Transaction<Database>,
  deps: IssueDeps,
  refund: { registrationId: string; at: Date; reason: string; refundPaise?: number },
): Promise<string | undefined> {
  const original = await repo.findByRegistration(trx, refund.registrationId, 'sale');
  if (!original) return undefined;
  const profile = await repo.findProfile(trx, original.account_id, original.mode);
  const series = seriesOf(profile?.series_prefix ?? DEFAULT_SERIES_PREFIX, 'credit_note');
  const key = {
    accountId: original.account_id,
    mode: original.mode,
    gstin: original.gstin,
    series,
    at: refund.at,
  };
  const { fy, seq, number } = await allocate(trx, key);
  const doc = buildCreditNote(original.doc as GstDocument, {
    number,
    issuedAt: refund.at,
    date: indiaDay(refund.at),
    financialYear: fy,
    reason: refund.reason,
    refundPaise: refund.refundPaise,
  });
  await insert(trx, deps, { ...key, fy, seq, role: 'refund', originalId: original.id }, doc);
  return number;
}

async function insert(
  trx: Transaction<Database>,
  deps: IssueDeps,
  k: {
    accountId: string;
    mode: Mode;
    gstin: string;
    series: string;
    fy: string;
    seq: number;
    role: 'sale' | 'refund';
    originalId: string | null;
    at: Date;
  },
  doc: GstDocument,
): Promise<void> {
  await repo.insertDocument(trx, {
    id: deps.ids.make('gdoc', 12),
    account_id: k.accountId,
    mode: k.mode,
    gstin: k.gstin,
    kind: doc.kind,
    role: k.role,
    series: k.series,
    fy: k.fy,
    seq: k.seq,
    number: doc.number,
    registration_id: doc.registrationId,
    event_id: doc.eventId,
    original_id: k.originalId,
    issued_at: k.at,
    issued_on: doc.date,
    place_of_supply: doc.placeOfSupply,
    recipient_gstin: doc.recipient.gstin,
    rate: doc.line.ratePercent,
    total_paise: doc.line.totalPaise,
    doc: JSON.stringify(doc),
  });
}
