// The device cookie (docs/decisions/14-trust-and-safety-second-round.md): a browser that has signed in to an account
// carries `svc_device`, and is then not limited by anyone else's failed sign-ins. Nothing
// is stored server-side: each entry is `nonce.expiry.mac`, the mac an HMAC under
// SESSION_SECRET of the account id, its session epoch (so a password reset or "sign out
// everywhere" ends every device's standing), the nonce and the expiry. One cookie holds
// the entries of the last few accounts signed in from this browser.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const DEVICE_COOKIE = 'svc_device';
export const DEVICE_TTL_SECONDS = 365 * 24 * 60 * 60;
const MAX_ENTRIES = 5;
const ENTRY = /^([A-Za-z0-9_-]{16,32})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export interface DeviceAccount {
  id: string;
  session_epoch: number;
}

function mac(secret: string, account: DeviceAccount, nonce: string, exp: number): string {
  return createHmac('sha256', secret)
    .update(`svc_device|${account.id}|${account.session_epoch}|${nonce}|${exp}`)
    .digest('base64url');
}

function entries(cookie: string | undefined): { nonce: string; exp: number; mac: string; raw: string }[] {
  if (!cookie || cookie.length > 1024) return [];
  const out = [];
  for (const raw of cookie.split('~').slice(0, MAX_ENTRIES)) {
    const m = ENTRY.exec(raw);
    if (m) out.push({ nonce: m[1]!, exp: Number(m[2]), mac: m[3]!, raw });
  }
  return out;
}

function matches(
  secret: string,
  account: DeviceAccount,
  e: { nonce: string; exp: number; mac: string },
): boolean {
  const expected = Buffer.from(mac(secret, account, e.nonce, e.exp));
  const given = Buffer.from(e.mac);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The nonce of this browser's standing with the account, when the cookie holds a valid, unexpired one. */
export function knownDevice(
  secret: string,
  cookie: string | undefined,
  account: DeviceAccount,
  now: Date,
): string | undefined {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  return entries(cookie).find((e) => e.exp > nowSeconds && matches(secret, account, e))?.nonce;
}

/** The cookie's new value after a successful sign-in: this account's fresh entry first, others kept. */
export function deviceCookieValue(
  secret: string,
  cookie: string | undefined,
  account: DeviceAccount,
  now: Date,
): string {
  const nonce = randomBytes(16).toString('base64url');
  const exp = Math.floor(now.getTime() / 1000) + DEVICE_TTL_SECONDS;
  const others = entries(cookie)
    .filter((e) => !matches(secret, account, e))
    .map((e) => e.raw);
  return [`${nonce}.${exp}.${mac(secret, account, nonce, exp)}`, ...others].slice(0, MAX_ENTRIES).join('~');
}

/** `HttpOnly; Secure; SameSite=Lax`, a year, on every path (the API's and the dashboard's sign-in). */
export function deviceSetCookie(value: string): string {
  return `${DEVICE_COOKIE}=${value}; Path=/; Max-Age=${DEVICE_TTL_SECONDS}; HttpOnly; Secure; SameSite=Lax`;
}

/** The device cookie of a Cookie header, if any. */
export function readDeviceCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === DEVICE_COOKIE) return part.slice(i + 1).trim();
  }
  return undefined;
}
