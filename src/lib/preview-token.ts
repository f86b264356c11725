// A preview of an event's hosted page (docs/decisions/28-a-persons-day.md): the dashboard gives its
// organiser `/e/{slug}?preview=<token>`, which opens a draft or test event's page without a
// checkout key or a site of their own. The token is `<event id>.<expiry, unix seconds>.<mac>`,
// the mac being 22 base64url characters (132 bits) of HMAC-SHA256(SECRETS_KEY) over the event,
// its account and the expiry. Nothing is stored: the service recomputes the mac.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a preview link opens the page. */
export const PREVIEW_TTL_MS = 24 * 3_600_000;

const MAC_CHARS = 22;
const SHAPE = /^(ev_[A-Za-z0-9_-]{1,64})\.(\d{1,12})\.([A-Za-z0-9_-]{22})$/;

function mac(secretsKey: Buffer, eventId: string, accountId: string, expires: number): string {
  return createHmac('sha256', secretsKey)
    .update(`event-preview\0${eventId}\0${accountId}\0${expires}`)
    .digest('base64url')
    .slice(0, MAC_CHARS);
}

/** A token for this event of this account, valid for PREVIEW_TTL_MS from `now`. */
export function previewToken(secretsKey: Buffer, eventId: string, accountId: string, now: Date): string {
  const expires = Math.floor((now.getTime() + PREVIEW_TTL_MS) / 1000);
  return `${eventId}.${expires}.${mac(secretsKey, eventId, accountId, expires)}`;
}

/** The event a token names, when it has the token's shape (check it with `previewTokenVerdict`). */
export function previewTokenEvent(token: string): string | undefined {
  return SHAPE.exec(token)?.[1];
}

/**
 * `valid` when the token was made for this event of this account and has not expired at `now`;
 * `expired` when it was made for them but its day is over; `invalid` otherwise (constant-time).
 */
export function previewTokenVerdict(
  secretsKey: Buffer,
  token: string,
  eventId: string,
  accountId: string,
  now: Date,
): 'valid' | 'expired' | 'invalid' {
  const m = SHAPE.exec(token);
  if (!m || m[1] !== eventId) return 'invalid';
  const expires = Number(m[2]);
  const want = Buffer.from(mac(secretsKey, eventId, accountId, expires));
  const got = Buffer.from(m[3]!);
  if (got.length !== want.length || !timingSafeEqual(got, want)) return 'invalid';
  return now.getTime() < expires * 1000 ? 'valid' : 'expired';
}
