// The one-time code that verifies a waiting room's contact (docs/decisions/26-a-fair-waiting-room.md):
// six digits from crypto.randomInt, kept only as an HMAC under a key drawn from SECRETS_KEY (bound
// to its verification), sealed (AES-GCM) in the job that sends it; the contact shown masked.
import { createHmac, randomInt } from 'node:crypto';

/** How long a code may be given back, by the service's clock. */
export const CODE_TTL_MS = 10 * 60_000;
/** Wrong codes a verification takes; the last of them spends it. */
export const MAX_ATTEMPTS = 5;
/**
 * Codes sent to one contact (an email, or a phone for WhatsApp) for one event in an hour: enough
 * for a person on a few devices, too few to flood a stranger's mailbox through the room.
 */
export const CODES_PER_CONTACT_HOUR = 5;

export const newCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

export const codeKey = (secretsKey: Buffer): Buffer =>
  createHmac('sha256', secretsKey).update('waiting-room-code').digest();

export const codeMac = (key: Buffer, verificationId: string, code: string): string =>
  createHmac('sha256', key).update(`${verificationId}\0${code.trim()}`).digest('base64url');

/** `r***@example.com`: enough for the buyer to recognise, little for anyone else. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** `+91******3210`: the country code and the last four digits. */
export function maskPhone(e164: string): string {
  return `${e164.slice(0, 3)}${'*'.repeat(Math.max(0, e164.length - 7))}${e164.slice(-4)}`;
}
