// Verifies a webhook delivery the way docs/guides/webhooks.md says: `X-Service-Signature: sha256=<hex
// HMAC-SHA256 of "<timestamp>.<raw body>">` with the webhook's secret, and a timestamp
// (`X-Service-Timestamp`, unix seconds) no older than the tolerance.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface WebhookDelivery {
  id: string;
  type: string;
  createdAt: string;
  mode: 'test' | 'live';
  data: unknown;
}

export function verifyWebhook(
  rawBody: string | Buffer,
  headers: { signature: string | undefined; timestamp: string | undefined },
  secret: string,
  options: { toleranceSeconds?: number; now?: Date } = {},
): WebhookDelivery {
  const ts = Number(headers.timestamp);
  if (!headers.signature || !Number.isInteger(ts)) throw new Error('webhook: missing signature or timestamp');
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - ts) > (options.toleranceSeconds ?? 300)) throw new Error('webhook: timestamp outside the tolerance');
  const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
  const want = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`);
  const got = Buffer.from(headers.signature);
  if (got.length !== want.length || !timingSafeEqual(got, want)) throw new Error('webhook: signature does not verify');
  return JSON.parse(body) as WebhookDelivery;
}
