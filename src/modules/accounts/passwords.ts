// Salted, slow password hashes at OWASP's current recommendation: argon2id with
// m=19 MiB, t=2, p=1, in the PHC string format (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`),
// so the cost can rise later. Hashes written before argon2 (`scrypt$N$r$p$salt$hash`)
// keep verifying; `needsRehash` tells login to replace them.
import { Algorithm, hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
import { scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export const ARGON2_PARAMS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const CURRENT_PREFIX = `$argon2id$v=19$m=${ARGON2_PARAMS.memoryCost},t=${ARGON2_PARAMS.timeCost},p=${ARGON2_PARAMS.parallelism}$`;

function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export function hashPassword(password: string): Promise<string> {
  return argon2Hash(password, { algorithm: Algorithm.Argon2id, ...ARGON2_PARAMS, outputLen: 32 });
}

/** How many password checks this process ran: lets a test see that every sign-in path runs exactly one. */
export const passwordChecks = { count: 0 };

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  passwordChecks.count += 1;
  if (stored.startsWith('$argon2')) {
    try {
      return await argon2Verify(stored, password);
    } catch {
      return false; // a malformed stored hash verifies nothing
    }
  }
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 128 * Number(n) * Number(r) * 2,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** True for a hash of an older scheme or weaker parameters: login replaces it. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(CURRENT_PREFIX);
}

let dummy: Promise<string> | undefined;
/**
 * A hash of no one's password, verified against when the email is unknown, so that
 * an unknown email costs the same time as a wrong password.
 */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword('no account has this password; it only spends the time of a real check');
  return dummy;
}
