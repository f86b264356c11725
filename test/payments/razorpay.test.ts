// The Razorpay adapter against the local emulator.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GatewayError } from '../../src/modules/payments/gateway.js';
import { RazorpayGateway } from '../../src/modules/payments/razorpay.js';
import { verifyWebhookSignature } from '../../src/modules/payments/razorpay-signature.js';
import { signWebhook, startRazorpayEmulator, type RazorpayEmulator } from '../helpers/razorpay-emulator.js';

const creds = { keyId: 'rzp_test_EmulatorKey01', keySecret: 'emulatorsecret000000000' };

describe('Razorpay adapter', () => {
  let rzp: RazorpayEmulator;
  let gw: RazorpayGateway;
  before(async () => {
    rzp = await startRazorpayEmulator(creds);
    // Generous: a loaded machine must not turn a normal answer into a timeout.
    gw = new RazorpayGateway({ apiUrl: rzp.url, ...creds, timeoutMs: 3000 });
  });
  after(async () => {
    await rzp.close();
  });

  it('creates orders in paise with receipt and notes, sending no idempotency header', async () => {
    const o = await gw.createOrder({
      amount: 49950,
      currency: 'INR',
      receipt: 'reg_abc',
      notes: { registrationId: 'reg_abc' },
    });
    assert.match(o.id, /^order_[A-Za-z0-9]{14}$/);
    assert.deepEqual([o.amount, o.currency, o.receipt, o.status], [49950, 'INR', 'reg_abc', 'created']);
    assert.deepEqual(o.notes, { registrationId: 'reg_abc' });
    const sent = rzp.requests.at(-1)!;
    assert.equal(
      sent.headers.authorization,
      'Basic ' + Buffer.from(`${creds.keyId}:${creds.keySecret}`).toString('base64'),
    );
    assert.equal(
      Object.keys(sent.headers).some((h) => h.includes('idempotency')),
      false,
    );
    const empty = await gw.createOrder({ amount: 100, currency: 'INR', receipt: 'r' });
    assert.deepEqual(empty.notes, {}, 'an empty notes [] reads as {}');
    await assert.rejects(
      gw.createOrder({ amount: 99, currency: 'INR', receipt: 'r' }),
      (e: unknown) =>
        e instanceof GatewayError &&
        e.kind === 'rejected' &&
        e.status === 400 &&
        /at least INR 1.00/.test(e.message),
    );
  });

  it('fetches captured and authorised payments, and answers null for unknown or forged ids', async () => {
    const o = await gw.createOrder({ amount: 20000, currency: 'INR', receipt: 'x' });
    const captured = rzp.pay(o.id);
    const p = await gw.fetchPayment(String(captured.id));
    assert.deepEqual([p!.status, p!.captured, p!.orderId, p!.amount], ['captured', true, o.id, 20000]);
    assert.equal(await gw.fetchPayment('pay_AAAAAAAAAAAAAA'), null);
    assert.equal(await gw.fetchPayment('not-a-payment'), null);
    const o2 = await gw.createOrder({ amount: 30000, currency: 'INR', receipt: 'y' });
    const auth = rzp.pay(o2.id, { capture: false });
    const a = await gw.fetchPayment(String(auth.id));
    assert.deepEqual([a!.status, a!.captured], ['authorized', false]);
    await assert.rejects(
      gw.capturePayment(String(auth.id), 29999, 'INR'),
      (e: unknown) =>
        e instanceof GatewayError &&
        e.kind === 'rejected' &&
        /equal to the amount authorized/.test(e.message),
    );
    const c = await gw.capturePayment(String(auth.id), 30000, 'INR');
    assert.deepEqual([c.status, c.captured], ['captured', true]);
    await assert.rejects(gw.capturePayment(String(auth.id), 30000, 'INR'), /already been captured/);
  });

  it('refunds in full and in part, refuses more than captured, and keys refunds for idempotency', async () => {
    const o = await gw.createOrder({ amount: 10000, currency: 'INR', receipt: 'z' });
    const pay = String(rzp.pay(o.id).id);
    const part = await gw.refundPayment(pay, 4000, { registrationId: 'reg_1' });
    assert.deepEqual([part.amount, part.status, part.paymentId], [4000, 'processed', pay]);
    assert.equal(rzp.requests.at(-1)!.headers['x-refund-idempotency'], 'refund_reg_1');
    await assert.rejects(gw.refundPayment(pay, 7000), /greater than amount captured/);
    const rest = await gw.refundPayment(pay);
    assert.equal(rest.amount, 6000);
    const after = await gw.fetchPayment(pay);
    assert.deepEqual([after!.status, after!.amountRefunded], ['refunded', 10000]);
  });

  /** A refund sent straight to the emulator, to read Razorpay's status and body. */
  async function rawRefund(
    paymentId: string,
    key: string,
    body: Record<string, unknown>,
  ): Promise<{ status: number; body: { error?: Record<string, unknown> } }> {
    const r = await fetch(`${rzp.url}/v1/payments/${paymentId}/refund`, {
      method: 'POST',
      headers: {
        authorization: 'Basic ' + Buffer.from(`${creds.keyId}:${creds.keySecret}`).toString('base64'),
        'content-type': 'application/json',
        'x-refund-idempotency': key,
      },
      body: JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as { error?: Record<string, unknown> } };
  }

  it('honours X-Refund-Idempotency: the same key and body is the same refund, another body 400, a duplicate in flight 409', async () => {
    const o = await gw.createOrder({ amount: 10000, currency: 'INR', receipt: 'idem' });
    const pay = String(rzp.pay(o.id).id);
    const refunded = () => rzp.payments.get(pay)!.amount_refunded;
    const first = await gw.refundPayment(pay, 3000, { registrationId: 'reg_7' }, 'cancel_reg_7_k1');
    assert.deepEqual(
      await gw.refundPayment(pay, 3000, { registrationId: 'reg_7' }, 'cancel_reg_7_k1'),
      first,
    );
    assert.equal(refunded(), 3000, 'one refund for the two calls');

    const different = 'Different request with the same idempotency key has already been processed.';
    const refused = (status: number, message?: string) => (e: unknown) =>
      e instanceof GatewayError &&
      e.kind === 'rejected' &&
      e.status === status &&
      (message === undefined || e.message === message);
    await assert.rejects(
      gw.refundPayment(pay, 4000, { registrationId: 'reg_7' }, 'cancel_reg_7_k1'),
      refused(400, different),
    );
    await assert.rejects(
      gw.refundPayment(pay, 3000, { registrationId: 'reg_8' }, 'cancel_reg_7_k1'),
      refused(400, different),
    );
    const raw = await rawRefund(pay, 'cancel_reg_7_k1', { amount: 5000 });
    assert.equal(raw.status, 400);
    assert.deepEqual(raw.body, {
      error: {
        code: 'BAD_REQUEST_ERROR',
        description: different,
        source: 'NA',
        step: 'NA',
        reason: 'NA',
        metadata: {},
      },
    });
    assert.equal(refunded(), 3000);

    const hold = rzp.holdNextRefund();
    const held = gw.refundPayment(pay, 2000, undefined, 'partial_two_k2');
    await hold.inFlight;
    const duplicate = await rawRefund(pay, 'partial_two_k2', { amount: 2000 });
    assert.equal(duplicate.status, 409);
    assert.deepEqual([duplicate.body.error?.code, duplicate.body.error?.source], ['BAD_REQUEST_ERROR', 'NA']);
    await assert.rejects(gw.refundPayment(pay, 2000, undefined, 'partial_two_k2'), refused(409));
    assert.equal(refunded(), 3000, 'nothing refunded while the first is in flight');
    hold.release();
    const made = await held;
    assert.deepEqual(await gw.refundPayment(pay, 2000, undefined, 'partial_two_k2'), made);
    assert.equal(refunded(), 5000);

    // A refused refund binds no key; a key shorter than Razorpay's 10 characters is refused.
    assert.equal((await rawRefund(pay, 'too_much_k3', { amount: 6000 })).status, 400);
    assert.equal((await rawRefund(pay, 'too_much_k3', { amount: 1000 })).status, 200);
    assert.equal((await rawRefund(pay, 'short', { amount: 100 })).status, 400);
    assert.equal(refunded(), 6000);
  });

  it('sends refund keys as Razorpay takes them, and never makes two keys one', async () => {
    const o = await gw.createOrder({ amount: 10000, currency: 'INR', receipt: 'keys' });
    const pay = String(rzp.pay(o.id).id);
    const keys = [
      'plain_key_123',
      'short',
      'reg.1/ä ü',
      `${'x'.repeat(45)}a`,
      `${'x'.repeat(45)}b`,
      'reg.1/ä_ü',
    ];
    const sent: string[] = [];
    for (const key of keys) {
      await gw.refundPayment(pay, 100, undefined, key);
      sent.push(String(rzp.requests.at(-1)!.headers['x-refund-idempotency']));
    }
    assert.ok(
      sent.every((k) => /^[A-Za-z0-9_-]{10,40}$/.test(k)),
      sent.join(' '),
    );
    assert.equal(sent[0], 'plain_key_123', 'a key Razorpay takes goes as it is');
    assert.equal(new Set(sent).size, keys.length);
    assert.equal(rzp.payments.get(pay)!.amount_refunded, 100 * keys.length);
  });

  it('turns timeouts, 5xx, network failures and bad credentials into GatewayErrors', async () => {
    // The emulator holds its answer far past the adapter's timeout: only the adapter's own timer ends the call.
    rzp.fail(/POST \/v1\/orders/, { delayMs: 600_000 });
    await assert.rejects(
      gw.createOrder({ amount: 100, currency: 'INR', receipt: 't' }),
      (e: unknown) => e instanceof GatewayError && e.kind === 'timeout',
    );
    rzp.fail(/GET \/v1\/payments/, {
      status: 502,
      body: { error: { code: 'GATEWAY_ERROR', description: 'Gateway down' } },
    });
    await assert.rejects(
      gw.fetchPayment('pay_AAAAAAAAAAAAAA'),
      (e: unknown) => e instanceof GatewayError && e.kind === 'server' && e.status === 502,
    );
    const wrong = new RazorpayGateway({ apiUrl: rzp.url, keyId: creds.keyId, keySecret: 'wrong-secret' });
    await assert.rejects(wrong.createOrder({ amount: 100, currency: 'INR', receipt: 'w' }), (e: unknown) => {
      assert.ok(e instanceof GatewayError && e.kind === 'rejected' && e.status === 401);
      assert.ok(!String(e.message).includes('wrong-secret'));
      return true;
    });
    const nowhere = new RazorpayGateway({ apiUrl: 'http://127.0.0.1:1', ...creds });
    await assert.rejects(
      nowhere.createOrder({ amount: 100, currency: 'INR', receipt: 'n' }),
      (e: unknown) => e instanceof GatewayError && e.kind === 'network',
    );
  });

  it('creates plans (quarterly as monthly × 3), subscriptions, and cancels now or at cycle end', async () => {
    const plan = await gw.createPlan({
      period: 'quarterly',
      amount: 99900,
      currency: 'INR',
      name: 'Club',
      description: 'Quarterly',
    });
    const sentPlan = rzp.requests.at(-1)!.body!;
    assert.deepEqual([sentPlan.period, sentPlan.interval], ['monthly', 3]);
    assert.deepEqual(sentPlan.item, {
      name: 'Club',
      amount: 99900,
      currency: 'INR',
      description: 'Quarterly',
    });
    const sub = await gw.createSubscription({ planId: plan.id, totalCount: 12 });
    assert.match(sub.id, /^sub_/);
    assert.match(sub.authorisationUrl!, /^https:\/\/rzp\.io\//);
    assert.equal(rzp.requests.at(-1)!.body!.total_count, 12);
    await gw.cancelSubscription(sub.id, true);
    assert.deepEqual(rzp.requests.at(-1)!.body, { cancel_at_cycle_end: true });
    assert.equal(
      rzp.subscriptions.get(sub.id)!.status,
      'created',
      'a cycle-end cancel leaves the entity as it was',
    );
    await gw.cancelSubscription(sub.id, false);
    assert.deepEqual(rzp.requests.at(-1)!.body, { cancel_at_cycle_end: false });
    assert.equal(rzp.subscriptions.get(sub.id)!.status, 'cancelled');
    await assert.rejects(gw.cancelSubscription(sub.id, false), /not cancellable in cancelled status/);
    await assert.rejects(
      gw.createPlan({ period: 'weekly', amount: 50, currency: 'INR', name: 'x' }),
      /at least INR 1.00/,
    );
  });

  it('verifies webhook signatures in constant time on the raw body', () => {
    const body = JSON.stringify({ event: 'order.paid', payload: {} });
    const sig = signWebhook(body, 'whsecret');
    assert.equal(verifyWebhookSignature(body, sig, 'whsecret'), true);
    assert.equal(verifyWebhookSignature(body, sig, 'other'), false);
    assert.equal(verifyWebhookSignature(body + ' ', sig, 'whsecret'), false);
    assert.equal(verifyWebhookSignature(body, sig.slice(0, 40), 'whsecret'), false);
    assert.equal(verifyWebhookSignature(body, 'zz' + sig.slice(2), 'whsecret'), false);
  });
});
