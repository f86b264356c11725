// The link in an offer mail: `<entry id>.<mac>`, the mac 22 base64url characters of
// HMAC-SHA256(SECRETS_KEY, entry id, when it was offered). Nothing is stored; the offer's
// row says whether it still holds its seat, so a lapsed or used offer's link is dead.
import { createHmac, timingSafeEqual } from 'node:crypto';

const SHAPE = /^(wl_[A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{22})$/;

function mac(secretsKey: Buffer, entryId: string, offeredAt: Date): string {
  return createHmac('sha256', secretsKey)
    .update(`waitlist-offer\0${entryId}\0${offeredAt.getTime()}`)
    .digest('base64url')
    .slice(0, 22);
}

export function offerToken(secretsKey: Buffer, entryId: string, offeredAt: Date): string {
  return `${entryId}.${mac(secretsKey, entryId, offeredAt)}`;
}

/** The entry a token names, when it has the token's shape (check it with `offerTokenMatches`). */
export function offerTokenEntry(token: string): string | undefined {
  return SHAPE.exec(token)?.[1];
}

export function offerTokenMatches(
  secretsKey: Buffer,
  token: string,
  entryId: string,
  offeredAt: Date | null,
): boolean {
  const m = SHAPE.exec(token);
  if (!m || m[1] !== entryId || offeredAt === null) return false;
  const want = Buffer.from(mac(secretsKey, entryId, offeredAt));
  const got = Buffer.from(m[2]!);
  return got.length === want.length && timingSafeEqual(got, want);
}
