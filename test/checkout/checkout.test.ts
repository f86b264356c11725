// The hosted checkout over HTTP: who sees a page, what its JSON calls answer (and never
// reveal), the framing and content policies, the cached scripts, and the live payment
// paths that need no browser: the fallback page, the gateway's redirect back, and the
// gateway's notification for a booking whose browser was closed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  call,
  createKey,
  organiser,
  signup,
  uniqueEmail,
  type Account,
  type KeyInfo,
} from '../helpers/http.js';
import {
  orderPaidEvent,
  signWebhook,
  startRazorpayEmulator,
  type RazorpayEmulator,
  gatewayEnv,
} from '../helpers/razorpay-emulator.js';
import { createEventData, keyApi } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { checkoutSignature, verifyCheckoutSignature } from '../../src/modules/checkout/signature.js';

const creds = { keyId: 'rzp_live_EmulatorKey01', keySecret: 'emulatorsecret000000000' };
const WEBHOOK_SECRET = 'razorpay-webhook-secret';
const HOST = 'https://shop.example.in';

describe('checkout signature', () => {
  it('is the HMAC-SHA256 of "<order id>|<payment id>", compared in constant time', () => {
    const sig = checkoutSignature('order_A', 'pay_B', 'secret');
    assert.match(sig, /^[0-9a-f]{64}$/);
    assert.equal(verifyCheckoutSignature('order_A', 'pay_B', sig, 'secret'), true);
    assert.equal(verifyCheckoutSignature('order_A', 'pay_B', sig.toUpperCase(), 'secret'), true);
    assert.equal(verifyCheckoutSignature('order_X', 'pay_B', sig, 'secret'), false, 'another order');
    assert.equal(verifyCheckoutSignature('order_A', 'pay_C', sig, 'secret'), false, 'another payment');
    assert.equal(verifyCheckoutSignature('order_A', 'pay_B', sig, 'other'), false, 'another secret');
    assert.equal(verifyCheckoutSignature('order_A', 'pay_B', sig.slice(2), 'secret'), false, 'short');
    assert.equal(verifyCheckoutSignature('order_A', 'pay_B', '', 'secret'), false);
    assert.equal(verifyCheckoutSignature('order_A', 'pay_B', sig, ''), false, 'no secret verifies nothing');
  });
});

describe('hosted checkout over HTTP', () => {
  let rzp: RazorpayEmulator;
  let server: TestServer;
  let testOrg: Account & KeyInfo;
  let liveOrg: Account & KeyInfo;
  let pk: string;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    rzp = await startRazorpayEmulator(creds);
    server = await startServer({
      isolatedDatabase: true,
      env: {
        ...gatewayEnv(rzp, creds, WEBHOOK_SECRET),
        STAFF_EMAILS: staffEmail,
      },
    });
    testOrg = await organiser(server.url, 'test');
    pk = (
      await createKey(server.url, testOrg.token, { mode: 'test', class: 'checkout', allowedOrigin: HOST })
    ).key;
    liveOrg = await organiser(server.url, 'live');
    const staff = await signup(server.url, { email: staffEmail });
    await call(server.url, 'POST', `/admin/api/accounts/${liveOrg.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
  });
  after(async () => {
    await server.close();
    await rzp.close();
  });

  const event = (org: Account & KeyInfo, fields: Record<string, unknown> = {}, publish = false) =>
    createEventData(keyApi(server.url, org.key), { title: 'Chai & Code', ...fields }, { publish });
  const page = (slug: string, query = '') => call(server.url, 'GET', `/e/${slug}${query}`);
  const testAccess = { key: '', origin: HOST };
  // The page's own call: a browser sends the page's origin, the service's.
  const registerOn = (slug: string, body: Record<string, unknown>) =>
    call(server.url, 'POST', `/e/${slug}/register`, { body, headers: { origin: server.url } });

  it('frames: /e/* and /embed/* by anyone, everything else by no one', async () => {
    const live = await event(liveOrg, {}, true);
    const r = await page(live.slug);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type')!, /^text\/html/);
    const csp = r.headers.get('content-security-policy')!;
    assert.match(csp, /frame-ancestors \*/);
    assert.match(
      csp,
      /script-src 'self' https:\/\/checkout\.razorpay\.com(;|$)/,
      'live pages allow Razorpay’s checkout and nothing else',
    );
    assert.doesNotMatch(/script-src [^;]*/.exec(csp)![0], /unsafe-inline|unsafe-eval/);
    assert.equal(r.headers.get('set-cookie'), null, 'no cookies');
    assert.match(
      r.text,
      /<script src="https:\/\/checkout\.razorpay\.com\/v1\/checkout\.js" defer><\/script>/,
    );

    const test = await event(testOrg);
    const t = await page(test.slug, `?key=${pk}&origin=${encodeURIComponent(HOST)}`);
    assert.equal(t.status, 200);
    assert.match(
      t.headers.get('content-security-policy')!,
      /script-src 'self'; style-src 'self';/,
      'test pages: our own script and style only',
    );
    assert.doesNotMatch(t.text, /razorpay/i, 'no gateway script in test mode');

    assert.match(
      (await call(server.url, 'GET', '/embed/page.js')).headers.get('content-security-policy')!,
      /frame-ancestors \*/,
    );
    assert.match((await page('no-such-event')).headers.get('content-security-policy')!, /frame-ancestors \*/);
    for (const path of ['/api/v1/me', '/healthz', '/api/v1/openapi.json', '/embed.js', '/nowhere']) {
      const x = await call(server.url, 'GET', path);
      assert.equal(x.headers.get('content-security-policy'), "frame-ancestors 'none'", path);
      assert.equal(x.headers.get('x-frame-options'), 'DENY', path);
    }
  });

  it('serves embed.js with an ETag, a short cache, and a year for a pinned version', async () => {
    const r = await call(server.url, 'GET', '/embed.js');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type')!, /^text\/javascript/);
    const etag = r.headers.get('etag')!;
    assert.match(etag, /^"[0-9a-f]{16}"$/);
    assert.equal(r.headers.get('cache-control'), 'public, max-age=300');
    const again = await call(server.url, 'GET', '/embed.js', { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    const pinned = await call(server.url, 'GET', `/embed.js?v=${etag.slice(1, -1)}`);
    assert.match(pinned.headers.get('cache-control')!, /max-age=31536000, immutable/);
    // The script posts nothing itself, and the page posts only to the named origin.
    assert.doesNotMatch(r.text, /postMessage/);
    const pageJs = (await call(server.url, 'GET', '/embed/page.js')).text;
    // (The waiting room's proof of work is handed to the page's own Web Worker: no window, no origin.)
    assert.deepEqual(pageJs.match(/postMessage\([^)]*\)/g), [
      'postMessage(challenge)',
      'postMessage(msg, cfg.origin)',
    ]);
    assert.deepEqual(pageJs.match(/[\w.]*postMessage\(challenge\)/g), ['worker.postMessage(challenge)']);
    assert.doesNotMatch(pageJs, /['"]\*['"]/);
  });

  it('shows a test event only with a test checkout key of its account, framed only by its pinned origin', async () => {
    const test = await event(testOrg);
    assert.equal((await page(test.slug)).status, 404, 'no key: not shown');
    const shown = await page(test.slug, `?key=${pk}&origin=${encodeURIComponent(HOST)}`);
    assert.equal(shown.status, 200);
    assert.match(shown.headers.get('content-security-policy')!, new RegExp(`frame-ancestors ${HOST}$`));
    // The declared origin grants nothing: the pin alone decides who may frame the page.
    const claimed = await page(
      test.slug,
      `?key=${pk}&origin=${encodeURIComponent('https://evil.example.in')}`,
    );
    assert.equal(claimed.status, 200);
    assert.match(claimed.headers.get('content-security-policy')!, new RegExp(`frame-ancestors ${HOST}$`));
    assert.match(
      (await page(test.slug, `?key=${pk}`)).headers.get('content-security-policy')!,
      new RegExp(`frame-ancestors ${HOST}$`),
    );
    assert.equal(
      (await page(test.slug, `?key=${testOrg.key}`)).status,
      403,
      'a full key never goes in a page',
    );
    const other = await organiser(server.url, 'test');
    const otherPk = (await createKey(server.url, other.token, { mode: 'test', class: 'checkout' })).key;
    assert.equal((await page(test.slug, `?key=${otherPk}`)).status, 404, 'another account’s key');
    const draft = await event(liveOrg);
    assert.equal((await page(draft.slug)).status, 404, 'a live draft');
    const notFound = await page('no-such-event');
    assert.equal(notFound.status, 404);
    assert.match(notFound.text, /<h1>Event not found<\/h1>/);

    const r = await registerOn(test.slug, { name: 'A', email: uniqueEmail() });
    assert.equal(r.status, 404);
    assert.equal(r.body.code, 'event_not_found');
    const revoked = await createKey(server.url, testOrg.token, { mode: 'test', class: 'checkout' });
    await call(server.url, 'DELETE', `/dashboard/api/keys/${revoked.keyId}`, { token: testOrg.token });
    const rr = await registerOn(test.slug, { key: revoked.key, name: 'A', email: uniqueEmail() });
    assert.equal(rr.status, 403);
    assert.equal(rr.body.code, 'api_key_revoked');
  });

  it('escapes what organisers wrote', async () => {
    const live = await event(
      liveOrg,
      {
        title: '<script>alert(1)</script> & "more"',
        description: '<img src=x onerror=alert(1)>',
        location: '<b>Pune</b>',
      },
      true,
    );
    const r = await page(live.slug);
    assert.equal(r.status, 200);
    assert.doesNotMatch(r.text, /<script>alert|<img src=x|<b>Pune/);
    assert.match(r.text, /&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; &quot;more&quot;/);
    const config = /<script type="application\/json" id="svc-config">(.*?)<\/script>/s.exec(r.text)![1]!;
    assert.doesNotMatch(config, /</, 'the data block cannot close itself');
    assert.equal(JSON.parse(config).title, '<script>alert(1)</script> & "more"');
  });

  it('answers the page only a status, an order and the buyer’s own ticket token: never a bare id or anyone’s data', async () => {
    const test = await event(testOrg, { requiresApproval: true });
    const access = { ...testAccess, key: pk };
    const r = await registerOn(test.slug, { ...access, name: 'Meera', email: uniqueEmail('meera') });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body, { status: 'pending' });
    const paid = await event(testOrg, { price: 100 });
    const p = await registerOn(paid.slug, { ...access, name: 'Meera', email: uniqueEmail('meera') });
    assert.deepEqual(Object.keys(p.body).sort(), [
      'amount',
      'currency',
      'key',
      'orderId',
      'status',
      'ticket',
    ]);
    assert.equal(p.body.status, 'payment_required');
    // The token for the confirmation screen: the booking's id with a MAC, never the ticket id alone.
    assert.match(p.body.ticket, /^reg_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    assert.doesNotMatch(p.body.ticket, /Meera|@/);
    const bad = await registerOn(paid.slug, { ...access, name: 'Meera', email: 'nobody@invalid' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'undeliverable_email');
    const unknown = await registerOn(paid.slug, {
      ...access,
      name: 'Meera',
      email: uniqueEmail(),
      registrationId: 'reg_x',
    });
    assert.equal(unknown.status, 400, 'unknown fields are refused');
    // The sandbox stand-in is for test events only.
    const live = await event(liveOrg, { price: 100 }, true);
    const s = await call(server.url, 'POST', `/e/${live.slug}/sandbox-checkout`, {
      body: { orderId: 'order_x', outcome: 'success' },
    });
    assert.equal(s.status, 404);
  });

  it('live: the fallback payment page and the gateway’s redirect back confirm with a verified signature only', async () => {
    const live = await event(liveOrg, { price: 500 }, true);
    const email = uniqueEmail('buyer');
    const step1 = await registerOn(live.slug, { name: 'Buyer', email });
    assert.equal(step1.status, 201, step1.text);
    const orderId = step1.body.orderId as string;

    const pay = await page(live.slug, `/pay?order=${orderId}`);
    assert.equal(pay.status, 200);
    assert.match(pay.text, new RegExp(orderId));
    // BASE_URL (the public address) names where the gateway posts back.
    assert.match(pay.text, new RegExp(`"callbackUrl":"http://[^"]+/e/${live.slug}/callback"`));
    assert.doesNotMatch(pay.text, new RegExp(email), 'no personal data on a page reached by order id');
    assert.equal((await page(live.slug, '/pay?order=order_unknown')).status, 404);

    const payment = rzp.pay(orderId);
    const form = (fields: Record<string, string>) =>
      call(server.url, 'POST', `/e/${live.slug}/callback`, {
        raw: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const forged = await form({
      razorpay_order_id: orderId,
      razorpay_payment_id: String(payment.id),
      razorpay_signature: checkoutSignature(orderId, String(payment.id), 'guess'),
    });
    assert.equal(forged.status, 402);
    assert.match(forged.headers.get('content-type')!, /^text\/html/);
    const status = () => call(server.url, 'GET', `/e/${live.slug}/orders/${orderId}`);
    assert.deepEqual((await status()).body, { status: 'pending' });
    const failed = await form({ 'error[code]': 'BAD_REQUEST_ERROR', 'error[description]': 'Payment failed' });
    assert.equal(failed.status, 200);
    assert.match(failed.text, /Payment not completed/);
    const ok = await form({
      razorpay_order_id: orderId,
      razorpay_payment_id: String(payment.id),
      razorpay_signature: checkoutSignature(orderId, String(payment.id), creds.keySecret),
    });
    assert.equal(ok.status, 200, ok.text);
    assert.match(ok.text, /You are registered/);
    assert.deepEqual((await status()).body, { status: 'confirmed' });
    // The handler's fields a second time change nothing and answer the same.
    const again = await call(server.url, 'POST', `/e/${live.slug}/payment`, {
      body: {
        razorpay_order_id: orderId,
        razorpay_payment_id: String(payment.id),
        razorpay_signature: checkoutSignature(orderId, String(payment.id), creds.keySecret),
      },
    });
    assert.deepEqual([again.status, again.body], [200, { status: 'confirmed' }]);
  });

  it('live: a booking whose browser closed is confirmed by the gateway’s notification, and the page sees it', async () => {
    const live = await event(liveOrg, { price: 300 }, true);
    const step1 = await registerOn(live.slug, { name: 'Closer', email: uniqueEmail('closer') });
    const orderId = step1.body.orderId as string;
    const payment = rzp.pay(orderId);
    const body = orderPaidEvent(rzp.orders.get(orderId)!, payment);
    const n = await call(server.url, 'POST', '/webhooks/razorpay', {
      raw: body,
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': signWebhook(body, WEBHOOK_SECRET),
      },
    });
    assert.equal(n.status, 200, n.text);
    assert.deepEqual((await call(server.url, 'GET', `/e/${live.slug}/orders/${orderId}`)).body, {
      status: 'confirmed',
    });
    // The signature binds the stored order: a valid signature for another order is refused.
    const other = await registerOn(live.slug, { name: 'Other', email: uniqueEmail('other') });
    const p2 = rzp.pay(other.body.orderId);
    const swapped = await call(server.url, 'POST', `/e/${live.slug}/payment`, {
      body: {
        razorpay_order_id: other.body.orderId,
        razorpay_payment_id: String(p2.id),
        razorpay_signature: checkoutSignature(orderId, String(p2.id), creds.keySecret),
      },
    });
    assert.equal(swapped.status, 402);
    assert.equal(swapped.body.code, 'payment_not_verified');
  });

  it('shows sold out instead of the form', async () => {
    const live = await event(liveOrg, { capacity: 1 }, true);
    assert.equal((await registerOn(live.slug, { name: 'First', email: uniqueEmail() })).status, 201);
    const r = await page(live.slug);
    assert.match(r.text, /id="sold-out"/);
    assert.doesNotMatch(r.text, /id="register-form"/);
    const late = await registerOn(live.slug, { name: 'Late', email: uniqueEmail() });
    assert.deepEqual([late.status, late.body.code], [409, 'sold_out']);
  });
});
