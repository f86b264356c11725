// Meta's webhook signature (docs/guides/tickets-wallet-and-whatsapp.md): X-Hub-Signature-256 is
// `sha256=` and the hex HMAC-SHA256 of the raw body with the app secret. Meta escapes
// non-ASCII as \uXXXX, so the bytes as received are hashed, never re-serialised JSON, and
// the comparison takes constant time.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function hubSignature(raw: Buffer | string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
}

export function verifyHubSignature(raw: Buffer, header: string | undefined, secret: string): boolean {
  if (header === undefined || !/^sha256=[0-9a-f]{64}$/i.test(header)) return false;
  const want = Buffer.from(hubSignature(raw, secret));
  const got = Buffer.from(`sha256=${header.slice(7).toLowerCase()}`);
  return got.length === want.length && timingSafeEqual(got, want);
}
