// The queue's two tokens, HMAC-SHA256 with SECRETS_KEY and nothing stored:
// - the status token `<placeId>.<mac>` names a place of one event's queue;
// - the admission token `<placeId>.<expiry, unix seconds>.<mac>` lets the place's contact book the
//   event until it expires; its mac covers the event, the place, the contact email and the expiry,
//   so it books only that event, for that email.
import { createHmac, timingSafeEqual } from 'node:crypto';

const MAC_CHARS = 22;
const STATUS = /^(wp_[A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{22})$/;
const ADMISSION = /^(wp_[A-Za-z0-9_-]{1,64})\.(\d{1,12})\.([A-Za-z0-9_-]{22})$/;

const mac = (key: Buffer, ...parts: string[]) =>
  createHmac('sha256', key).update(parts.join('\0')).digest('base64url').slice(0, MAC_CHARS);

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export function statusToken(key: Buffer, eventId: string, placeId: string): string {
  return `${placeId}.${mac(key, 'queue-status', eventId, placeId)}`;
}

/** The place a status token names for this event, or undefined. */
export function placeOfStatusToken(key: Buffer, eventId: string, token: string): string | undefined {
  const m = STATUS.exec(token);
  if (!m || !same(m[2]!, mac(key, 'queue-status', eventId, m[1]!))) return undefined;
  return m[1];
}

export function admissionToken(
  key: Buffer,
  eventId: string,
  placeId: string,
  email: string,
  expiresAtMs: number,
): string {
  const exp = String(Math.floor(expiresAtMs / 1000));
  return `${placeId}.${exp}.${mac(key, 'queue-admission', eventId, placeId, normaliseEmail(email), exp)}`;
}

/** `valid` for a token made for this event and email that has not expired at `now`. */
export function admissionVerdict(
  key: Buffer,
  token: string,
  eventId: string,
  email: string,
  now: Date,
): 'valid' | 'expired' | 'invalid' {
  const m = ADMISSION.exec(token);
  if (!m) return 'invalid';
  const want = mac(key, 'queue-admission', eventId, m[1]!, normaliseEmail(email), m[2]!);
  if (!same(m[3]!, want)) return 'invalid';
  return now.getTime() < Number(m[2]) * 1000 ? 'valid' : 'expired';
}
