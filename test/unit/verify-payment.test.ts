// The one check a payment passes before a booking or membership is bound to it: the payment as
// the gateway last answered it must be of the order, amount and currency expected — also the
// answer to the capture, not only the fetch before it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GatewayPayment, PaymentGateway } from '../../src/modules/payments/gateway.js';
import { verifyPayment } from '../../src/modules/payments/payments.service.js';
import { AppError } from '../../src/lib/errors.js';

function gatewayAnswering(
  fetched: GatewayPayment,
  captured: GatewayPayment,
): PaymentGateway & { captures: number } {
  const g = {
    keyId: 'rzp_test_x',
    captures: 0,
    createOrder: () => Promise.reject(new Error('not used')),
    fetchPayment: () => Promise.resolve(fetched),
    capturePayment: () => {
      g.captures++;
      return Promise.resolve(captured);
    },
    refundPayment: () => Promise.reject(new Error('not used')),
    fetchOrderPayments: () => Promise.resolve([]),
    findOrderByReceipt: () => Promise.resolve(null),
  };
  return g;
}

const authorised: GatewayPayment = {
  id: 'pay_1',
  orderId: 'order_1',
  amount: 50_000,
  currency: 'INR',
  status: 'authorized',
  captured: false,
  amountRefunded: 0,
};
const expected = { orderId: 'order_1', amountPaise: 50_000, currency: 'INR' };

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    return err.code;
  }
  assert.fail('verified');
}

describe('verifyPayment', () => {
  it('captures an authorised payment and accepts the capture of the amount ordered', async () => {
    const g = gatewayAnswering(authorised, { ...authorised, status: 'captured', captured: true });
    const p = await verifyPayment(g, expected, 'pay_1');
    assert.equal(p.status, 'captured');
    assert.equal(g.captures, 1);
  });

  it('refuses a capture the gateway answers with another amount', async () => {
    const g = gatewayAnswering(authorised, {
      ...authorised,
      amount: 49_900,
      status: 'captured',
      captured: true,
    });
    assert.equal(await refusal(verifyPayment(g, expected, 'pay_1')), 'payment_not_verified');
  });

  it('refuses a capture the gateway answers for another order or currency', async () => {
    const other = gatewayAnswering(authorised, {
      ...authorised,
      orderId: 'order_2',
      status: 'captured',
      captured: true,
    });
    assert.equal(await refusal(verifyPayment(other, expected, 'pay_1')), 'payment_not_verified');
    const usd = gatewayAnswering(authorised, {
      ...authorised,
      currency: 'USD',
      status: 'captured',
      captured: true,
    });
    assert.equal(await refusal(verifyPayment(usd, expected, 'pay_1')), 'payment_not_verified');
  });

  it('refuses a fetched payment of another amount without capturing it', async () => {
    const g = gatewayAnswering(
      { ...authorised, amount: 100 },
      { ...authorised, status: 'captured', captured: true },
    );
    assert.equal(await refusal(verifyPayment(g, expected, 'pay_1')), 'payment_not_verified');
    assert.equal(g.captures, 0);
  });
});
