import { randomBytes, randomFillSync } from 'node:crypto';

export interface Ids {
  /** `prefix_` followed by `bytes` random bytes in base64url (default 16 = 128 bits). */
  make(prefix: string, bytes?: number): string;
  /** Raw random bytes, for secrets. */
  secret(bytes: number): string;
}

// Ids take their bytes from a pool the CSPRNG refills 4 KiB at a time, as Node's own
// randomUUID does: one call into the generator per ~200 ids rather than one each.
// Secrets are drawn on their own and never share a buffer.
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

function pooled(bytes: number): Buffer {
  if (bytes > 256) return randomBytes(bytes);
  if (used + bytes > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const out = pool.subarray(used, used + bytes);
  used += bytes;
  return out;
}

export const randomIds: Ids = {
  make: (prefix, bytes = 16) => `${prefix}_${pooled(bytes).toString('base64url')}`,
  secret: (bytes) => randomBytes(bytes).toString('base64url'),
};
