// How many bookings of an event may wait for payment at once, per email and per client address,
// for the gateway's and offline bookings alike, checked before the gateway order and again under
// advisory locks where the booking is written.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { appError } from '../../lib/errors.js';
import * as repo from './registrations.repo.js';

/**
 * Unpaid bookings hold nothing for long (docs/decisions/14-trust-and-safety-second-round.md): besides the checkout
 * window, at most this many bookings of one event wait for payment at once per email,
 * and per client address when a browser books (a checkout key or the hosted page; a full
 * key's address is the organiser's own server). Bookings awaiting a payment outside the
 * gateway count too (docs/decisions/24-payment-outside-the-gateway.md): they hold their seats
 * for days.
 */
export const PENDING_PER_EMAIL = 3;
export const PENDING_PER_ADDRESS = 20;

const tooManyPending = (what: string, max: number) =>
  appError(
    'too_many_pending',
    `at most ${max} bookings of this event may wait for payment ${what} at once; pay one, or wait until an unpaid one lapses`,
  );

export async function assertPendingRoom(
  db: Kysely<Database> | Transaction<Database>,
  eventId: string,
  email: string,
  clientAddress: string | null,
): Promise<void> {
  if ((await repo.countAwaitingPayment(db, eventId, { email })) >= PENDING_PER_EMAIL)
    throw tooManyPending('for one email', PENDING_PER_EMAIL);
  if (
    clientAddress !== null &&
    (await repo.countAwaitingPayment(db, eventId, { clientAddress })) >= PENDING_PER_ADDRESS
  ) {
    throw tooManyPending('from one address', PENDING_PER_ADDRESS);
  }
}

/** Serialises the writers of one event's unpaid bookings for this email and address (sorted keys: no deadlock). */
export async function lockPendingRoom(
  trx: Transaction<Database>,
  eventId: string,
  email: string,
  clientAddress: string | null,
): Promise<void> {
  await sql`set local lock_timeout = '5s'`.execute(trx);
  const keys = [
    `pending-email:${eventId}:${email.toLowerCase()}`,
    ...(clientAddress === null ? [] : [`pending-addr:${eventId}:${clientAddress}`]),
  ].sort();
  for (const k of keys) await sql`select pg_advisory_xact_lock(8015, hashtext(${k}))`.execute(trx);
}
