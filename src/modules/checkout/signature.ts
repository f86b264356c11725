// Razorpay Checkout's handler signature: hex HMAC-SHA256 of `<order id>|<payment id>`
// under the key secret. The order id is always the one we stored, never the browser's.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function checkoutSignature(orderId: string, paymentId: string, keySecret: string): string {
  return createHmac('sha256', keySecret).update(`${orderId}|${paymentId}`).digest('hex');
}

export function verifyCheckoutSignature(
  storedOrderId: string,
  paymentId: string,
  signature: string,
  keySecret: string,
): boolean {
  if (keySecret === '' || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  const expected = Buffer.from(checkoutSignature(storedOrderId, paymentId, keySecret), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
