// The reference a buyer quotes when paying outside the gateway
// (docs/decisions/24-payment-outside-the-gateway.md): `TKT-` and six characters from an alphabet
// without the look-alikes 0/O and 1/I, so it reads aloud and types without doubt (32^6, about
// a billion per account). Unique per account by an index; a collision writes again with another.
import { randomInt } from 'node:crypto';
import { isUniqueViolation } from '../../lib/pg-errors.js';

export const REFERENCE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const REFERENCE_PATTERN = /^TKT-[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{6}$/;
/** The unique index that keeps a reference to one booking of an account. */
export const REFERENCE_INDEX = 'registrations_offline_reference';
const ATTEMPTS = 8;

export function makeReference(pick: (n: number) => number = randomInt): string {
  let s = 'TKT-';
  for (let i = 0; i < 6; i++) s += REFERENCE_ALPHABET[pick(REFERENCE_ALPHABET.length)];
  return s;
}

/** Runs `write` with a fresh reference until none collides with another booking's (a few tries at most). */
export async function withFreshReference<T>(
  write: (reference: string) => Promise<T>,
  make: () => string = makeReference,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write(make());
    } catch (err) {
      if (!isUniqueViolation(err, REFERENCE_INDEX) || attempt >= ATTEMPTS) throw err;
    }
  }
}
