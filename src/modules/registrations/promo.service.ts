// Promo codes: per event, case-insensitive, percent or amount off the booking total.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import type { Clock } from '../../lib/clock.js';
import { parseEventDate } from '../../lib/dates.js';
import { badRequest, conflict } from '../../lib/errors.js';
import type { Ids } from '../../lib/ids.js';
import { paiseToRupees, rupeesToPaise } from '../../lib/money.js';
import { pageOf } from '../../http/paging.js';
import * as repo from './promo.repo.js';
import type { PromoRow } from './promo.repo.js';

export type { PromoRow };
export { applyDiscount } from './pricing.js';

export interface PromoInput {
  code: string;
  discountPercent?: number | undefined;
  discountAmount?: number | undefined;
  validFrom?: string | undefined;
  validUntil?: string | undefined;
  maxUses?: number | undefined;
}

const codeKey = (code: string) => code.trim().toUpperCase();

export async function createPromo(
  deps: { db: Kysely<Database>; clock: Clock; ids: Ids },
  eventId: string,
  input: PromoInput,
): Promise<PromoRow> {
  const code = input.code.trim();
  if (!/^[A-Za-z0-9_-]{2,40}$/.test(code))
    throw badRequest('invalid_promo_code', 'code must be 2 to 40 letters, digits, - or _');
  if ((input.discountPercent === undefined) === (input.discountAmount === undefined)) {
    throw badRequest('invalid_promo_code', 'give exactly one of discountPercent or discountAmount');
  }
  const validFrom =
    input.validFrom === undefined ? null : parseEventDate(input.validFrom, 'validFrom').instant;
  const validUntil =
    input.validUntil === undefined ? null : parseEventDate(input.validUntil, 'validUntil').instant;
  if (validFrom && validUntil && validUntil < validFrom)
    throw badRequest('invalid_promo_code', 'validUntil must be after validFrom');
  const row = {
    id: deps.ids.make('promo', 10),
    event_id: eventId,
    code,
    code_key: codeKey(code),
    discount_percent: input.discountPercent ?? null,
    discount_paise:
      input.discountAmount === undefined ? null : rupeesToPaise(input.discountAmount, 'discountAmount'),
    valid_from: validFrom,
    valid_until: validUntil,
    max_uses: input.maxUses ?? null,
    created_at: deps.clock.now(),
  };
  try {
    await repo.insertPromo(deps.db, row);
  } catch (err) {
    if (isUniqueViolation(err))
      throw conflict('promo_code_exists', `code ${code} already exists for this event`);
    throw err;
  }
  return (await repo.findPromo(deps.db, row.id))!;
}

/** Every code of an event (the dashboard's screen; an event has few). */
export const listPromos = (db: Kysely<Database>, eventId: string) => repo.listByEvent(db, eventId, 10_000);

/** One page of an event's codes, oldest first, and how many there are. */
export async function listPromosPage(
  db: Kysely<Database>,
  eventId: string,
  page: { limit: number; startingAfter?: string | undefined },
) {
  if (
    page.startingAfter !== undefined &&
    (await repo.findPromo(db, page.startingAfter))?.event_id !== eventId
  ) {
    throw badRequest('invalid_cursor', 'startingAfter is not a cursor this list gave');
  }
  const { items, hasMore, nextCursor } = pageOf(
    await repo.listByEvent(db, eventId, page.limit, page.startingAfter),
    page.limit,
    (r) => r.id,
  );
  return { items, hasMore, nextCursor, count: await repo.countByEvent(db, eventId) };
}

/**
 * A code that is unknown, out of date or used up is a 400, never a silent full price, and
 * the three answer alike (one code, one sentence) so codes cannot be told apart by guessing.
 */
const invalidCode = () => badRequest('promo_code_invalid', undefined, { field: 'promoCode' });

export async function findUsable(
  db: Kysely<Database>,
  eventId: string,
  code: string,
  now: Date,
): Promise<PromoRow> {
  const row = await repo.findByCodeKey(db, eventId, codeKey(code));
  if (!row) throw invalidCode();
  if ((row.valid_from && now < row.valid_from) || (row.valid_until && now > row.valid_until))
    throw invalidCode();
  if (row.max_uses !== null && row.uses + row.uses_reserved >= row.max_uses) throw invalidCode();
  return row;
}

/**
 * A booking with a code reserves a use when it is written (paid step 1, a free booking,
 * one awaiting approval), in the transaction that writes it; refused with 400 when the
 * last use went to someone else meanwhile. The reservation becomes a use at confirmation
 * (`useReservation`) or goes back when the booking ends unpaid (`releaseReservation`).
 */
export async function reserveUse(
  db: Kysely<Database> | Transaction<Database>,
  eventId: string,
  code: string,
): Promise<void> {
  if (!(await repo.reserveUse(db, eventId, codeKey(code)))) throw invalidCode();
}

export async function useReservation(
  db: Kysely<Database> | Transaction<Database>,
  eventId: string,
  code: string,
): Promise<void> {
  await repo.useReservation(db, eventId, codeKey(code));
}

export async function releaseReservation(
  db: Kysely<Database> | Transaction<Database>,
  eventId: string,
  code: string,
): Promise<void> {
  await repo.releaseReservation(db, eventId, codeKey(code));
}

export function presentPromo(r: PromoRow) {
  return {
    id: r.id,
    code: r.code,
    discountPercent: r.discount_percent,
    discountAmount: r.discount_paise === null ? null : paiseToRupees(Number(r.discount_paise)),
    validFrom: r.valid_from?.toISOString() ?? null,
    validUntil: r.valid_until?.toISOString() ?? null,
    maxUses: r.max_uses,
    uses: r.uses,
    usesReserved: r.uses_reserved,
    createdAt: r.created_at.toISOString(),
  };
}
