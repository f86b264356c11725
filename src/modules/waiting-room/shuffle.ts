// The pre-queue's order at the opening: places sorted by HMAC-SHA256(seed, placeId), a uniform
// random permutation for a seed drawn from crypto random. The seed goes to the audit log, so
// anyone who reads it can recompute the order.
import { createHmac, randomBytes } from 'node:crypto';

export const newSeed = (): Buffer => randomBytes(32);

export function shuffledOrder(seed: Buffer, placeIds: readonly string[]): string[] {
  return placeIds
    .map((id) => ({ id, k: createHmac('sha256', seed).update(id).digest('hex') }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
    .map((p) => p.id);
}
