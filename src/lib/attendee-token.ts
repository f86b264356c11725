// The attendee's own page is reached by a token in the ticket mail (docs/decisions/18-waitlist-and-attendee-page.md):
// `<registration id>.<mac>`, the mac being 22 base64url characters (132 bits) of
// HMAC-SHA256(SECRETS_KEY, registration id, ticket id). Nothing is stored: the service
// recomputes the mac to check a token. The ticket id (the entry credential) is an input of
// the mac, never part of the token, so the link cannot be turned into a ticket; a transfer
// reissues the ticket id, which retires every earlier link at once.
import { createHmac, timingSafeEqual } from 'node:crypto';

const MAC_CHARS = 22;
const SHAPE = /^(reg_[A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{22})$/;

function mac(secretsKey: Buffer, registrationId: string, ticketId: string): string {
  return createHmac('sha256', secretsKey)
    .update(`attendee-page\0${registrationId}\0${ticketId}`)
    .digest('base64url')
    .slice(0, MAC_CHARS);
}

/** The token for a registration's current ticket id. */
export function attendeeToken(secretsKey: Buffer, registrationId: string, ticketId: string): string {
  return `${registrationId}.${mac(secretsKey, registrationId, ticketId)}`;
}

/** The registration a token names, when it has the token's shape (check it with `attendeeTokenMatches`). */
export function attendeeTokenRegistration(token: string): string | undefined {
  return SHAPE.exec(token)?.[1];
}

/** True when the token was made for this registration and its current ticket id (constant-time). */
export function attendeeTokenMatches(
  secretsKey: Buffer,
  token: string,
  registrationId: string,
  ticketId: string | null,
): boolean {
  const m = SHAPE.exec(token);
  if (!m || m[1] !== registrationId || ticketId === null) return false;
  const want = Buffer.from(mac(secretsKey, registrationId, ticketId));
  const got = Buffer.from(m[2]!);
  return got.length === want.length && timingSafeEqual(got, want);
}

/** `{BASE_URL}/t/{token}`. */
export function attendeePageUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/t/${token}`;
}
