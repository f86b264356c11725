// The hosted plan page (/m/{slug}, docs/decisions/28-a-persons-day.md): a person joins a plan without an
// API key — a fixed term paid through the sandbox's checkout stand-in (test) or Razorpay's
// checkout posting back (live), a recurring plan by approving its mandate — through the
// same subscribe and confirm as the API. The page never shows a membership's id.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  call,
  createKey,
  organiser,
  uniqueEmail,
  type Account,
  type KeyInfo,
  type Reply,
} from '../helpers/http.js';
import { gatewayEnv, startRazorpayEmulator, type RazorpayEmulator } from '../helpers/razorpay-emulator.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { checkoutSignature } from '../../src/modules/checkout/signature.js';
import { keyApi } from '../helpers/factories.js';
import { runJobs } from '../helpers/rows.js';

const HOST = 'https://club.example.in';
const creds = { keyId: 'rzp_live_EmulatorKey01', keySecret: 'emulatorsecret000000000' };

/** The hidden fields of the page's form whose action ends with `action`, and that action. */
function formOf(
  page: Reply,
  action: string,
  extra: Record<string, string> = {},
): { path: string; fields: Record<string, string> } {
  const forms = [...page.text.matchAll(/<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)];
  const hit = forms.find(
    (f) =>
      f[1]!.endsWith(action) &&
      Object.entries(extra).every(([k, v]) => f[2]!.includes(`name="${k}" value="${v}"`)),
  );
  assert.ok(hit, `a form posting to ${action} ${JSON.stringify(extra)}`);
  const fields = Object.fromEntries(
    [...hit[2]!.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map((m) => [
      m[1]!,
      m[2]!.replace(/&amp;/g, '&'),
    ]),
  );
  return { path: hit[1]!, fields };
}

describe('the hosted plan page', () => {
  let rzp: RazorpayEmulator;
  let server: TestServer;
  let org: Account & KeyInfo;
  let live: Account & KeyInfo;
  let pk: string;
  let pinned: string;

  before(async () => {
    rzp = await startRazorpayEmulator(creds);
    server = await startServer({
      isolatedDatabase: true,
      env: { ...gatewayEnv(rzp, creds), WORKERS: 'false' },
    });
    org = await organiser(server.url, 'test');
    live = await organiser(server.url, 'live');
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
    pinned = (
      await createKey(server.url, org.token, { mode: 'test', class: 'checkout', allowedOrigin: HOST })
    ).key;
  });
  after(async () => {
    await server?.close();
    await rzp?.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const post = (
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = { origin: server.url },
  ) =>
    call(server.url, 'POST', path, {
      raw: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  async function plan(fields: Record<string, unknown>, key = org.key): Promise<{ id: string; slug: string }> {
    const r = await api('POST', '/api/v1/memberships/plans', fields, key);
    assert.equal(r.status, 201, r.text);
    return r.body.data;
  }
  const member = async (email: string, key = org.key) =>
    (await api('GET', `/api/v1/memberships/members?email=${encodeURIComponent(email)}`, undefined, key)).body
      .data[0];

  it('gives every plan a public slug, and shows a test plan only with a test checkout key of its account', async () => {
    const p = await plan({
      name: 'Friends of the Museum',
      amount: 1200,
      kind: 'fixed_term',
      termMonths: 12,
      description: 'Free entry to talks.',
    });
    assert.match(p.slug, /^friends-of-the-museum/);
    const twin = await plan({
      name: 'Friends of the Museum',
      amount: 100,
      kind: 'fixed_term',
      termMonths: 1,
    });
    assert.notEqual(twin.slug, p.slug);
    assert.equal((await call(server.url, 'GET', `/m/${p.slug}`)).status, 404);
    assert.equal(
      (await call(server.url, 'GET', `/m/${p.slug}?key=${org.key}`)).status,
      403,
      'a full key never sits in a page',
    );
    assert.equal((await call(server.url, 'GET', `/m/no-such-plan?key=${pk}`)).status, 404);
    const other = await organiser(server.url, 'test');
    const otherPk = (await createKey(server.url, other.token, { mode: 'test', class: 'checkout' })).key;
    assert.equal((await call(server.url, 'GET', `/m/${p.slug}?key=${otherPk}`)).status, 404);
    const page = await call(server.url, 'GET', `/m/${p.slug}?key=${pk}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<h1>Friends of the Museum<\/h1>/);
    assert.match(page.text, /₹1,200 for 12 months/);
    assert.match(page.text, /Free entry to talks\./);
    assert.doesNotMatch(page.text, /<script>|style="/, 'no inline script or style');
    assert.match(page.headers.get('content-security-policy')!, /frame-ancestors \*/);
    assert.equal(page.headers.get('x-frame-options'), null, 'a plan page may be framed');
    const pinnedPage = await call(
      server.url,
      'GET',
      `/m/${p.slug}?key=${pinned}&origin=${encodeURIComponent('https://evil.example')}`,
    );
    assert.match(pinnedPage.headers.get('content-security-policy')!, new RegExp(`frame-ancestors ${HOST}`));
  });

  it('joins a fixed term: the sandbox’s checkout stand-in pays, the membership is active and its confirmation kept', async () => {
    const p = await plan({ name: 'Annual', amount: 1200, kind: 'fixed_term', termMonths: 12 });
    const email = uniqueEmail('asha');
    const page = await call(server.url, 'GET', `/m/${p.slug}?key=${pinned}&embed=inline&from=monsoon-meetup`);
    const join = formOf(page, '/join');
    assert.deepEqual(join.fields, { key: pinned, origin: HOST, embed: 'inline', from: 'monsoon-meetup' });
    // A form the page posts: Origin null, but the browser says it came from the page itself.
    const form = { origin: 'null', 'sec-fetch-site': 'same-origin' };
    assert.equal(
      (await post(join.path, { ...join.fields, name: 'Asha', email }, { origin: 'https://evil.example' }))
        .status,
      403,
    );
    const pay = await post(join.path, { ...join.fields, name: 'Asha Rao', email }, form);
    assert.equal(pay.status, 200, pay.text);
    assert.match(pay.text, /Sandbox payment/);
    assert.match(pay.text, /₹1,200/);
    assert.doesNotMatch(pay.text, /mem_/);
    // A second join while it waits answers the same order.
    const again = await post(join.path, { ...join.fields, name: 'Asha Rao', email }, form);
    const order = formOf(pay, '/sandbox-pay', { outcome: 'success' }).fields.order;
    assert.equal(formOf(again, '/sandbox-pay', { outcome: 'success' }).fields.order, order);
    assert.equal((await member(email)).displayStatus, 'pending_authorisation');

    const failed = await post(
      `/m/${p.slug}/sandbox-pay`,
      formOf(pay, '/sandbox-pay', { outcome: 'failure' }).fields,
      form,
    );
    assert.equal(failed.status, 200);
    assert.match(failed.text, /did not go through/);
    const paid = await post(
      `/m/${p.slug}/sandbox-pay`,
      formOf(failed, '/sandbox-pay', { outcome: 'success' }).fields,
      form,
    );
    assert.equal(paid.status, 200, paid.text);
    assert.match(paid.text, /You are a member/);
    assert.ok(paid.text.includes(email), 'where the confirmation goes');
    assert.doesNotMatch(paid.text, /mem_/);
    assert.ok(
      paid.text.includes(
        `href="/e/monsoon-meetup?key=${pinned}&amp;origin=${encodeURIComponent(HOST)}&amp;embed=inline"`,
      ),
      'back to the event it came from',
    );
    const m = await member(email);
    assert.equal(m.goodStanding, true);
    assert.equal(m.name, 'Asha Rao');
    await runJobs(server, { due: true });
    const mails = (await api('GET', '/api/v1/sandbox/emails?limit=100')).body.data as {
      to: string[];
      subject: string;
    }[];
    assert.ok(
      mails.some((x) => x.to.includes(email) && x.subject === 'Your membership: Annual'),
      'the confirmation mail',
    );
    // Active, outside its renewal window: nothing to pay.
    const already = await post(join.path, { ...join.fields, name: 'Someone', email }, form);
    assert.match(already.text, /Already a member/);
    assert.doesNotMatch(already.text, /mem_|sandbox-pay/);
  });

  it('shows the form again with the error at its field', async () => {
    const p = await plan({ name: 'Errors', amount: 100, kind: 'fixed_term', termMonths: 1 });
    const r = await post(`/m/${p.slug}/join`, { key: pk, name: ' ', email: 'not-an-address' });
    assert.equal(r.status, 400);
    assert.match(r.text, /<input id="name" aria-describedby="name-error" aria-invalid="true"/);
    assert.match(
      r.text,
      /<input id="email" aria-describedby="email-hint email-error" aria-invalid="true"[^>]*value="not-an-address"/,
    );
    assert.match(r.text, /Enter your full name\./);
    const undeliverable = await post(`/m/${p.slug}/join`, {
      key: pk,
      name: 'A',
      email: 'someone@example.invalid',
    });
    assert.equal(undeliverable.status, 400);
    assert.match(undeliverable.text, /id="email-error"/);
  });

  it('joins a recurring plan by approving the mandate (the sandbox’s stand-in), or not', async () => {
    const p = await plan({ name: 'Monthly', amount: 299, period: 'monthly' });
    const email = uniqueEmail('ravi');
    const mandate = await post(`/m/${p.slug}/join`, { key: pk, name: 'Ravi', email });
    assert.equal(mandate.status, 200, mandate.text);
    assert.match(mandate.text, /Approve the payment mandate/);
    assert.match(mandate.text, /₹299 every month/);
    const declined = await post(
      `/m/${p.slug}/sandbox-mandate`,
      formOf(mandate, '/sandbox-mandate', { outcome: 'decline' }).fields,
    );
    assert.match(declined.text, /Mandate not approved/);
    assert.equal((await member(email)).goodStanding, false);
    const approved = await post(
      `/m/${p.slug}/sandbox-mandate`,
      formOf(mandate, '/sandbox-mandate', { outcome: 'approve' }).fields,
    );
    assert.match(approved.text, /You are a member/);
    const m = await member(email);
    assert.equal(m.status, 'authorised');
    assert.equal(m.goodStanding, true);
    // Another plan's page does not approve this plan's subscription.
    const other = await plan({ name: 'Other', amount: 10, period: 'weekly' });
    const sub = formOf(mandate, '/sandbox-mandate', { outcome: 'approve' }).fields;
    assert.equal((await post(`/m/${other.slug}/sandbox-mandate`, sub)).status, 404);
  });

  it('live: opens Razorpay’s checkout for the order, and confirms what it posts back when the signature fits', async () => {
    const p = await plan({ name: 'Live annual', amount: 500, kind: 'fixed_term', termMonths: 12 }, live.key);
    assert.equal((await call(server.url, 'GET', `/m/${p.slug}`)).status, 200, 'a live plan is public');
    const email = uniqueEmail('live');
    const pay = await post(`/m/${p.slug}/join`, { name: 'Live Buyer', email, from: 'gig' });
    assert.equal(pay.status, 200, pay.text);
    assert.match(pay.text, /checkout\.razorpay\.com\/v1\/checkout\.js/);
    const config = JSON.parse(
      /<script type="application\/json" id="svc-config">(.*?)<\/script>/s.exec(pay.text)![1]!,
    );
    assert.equal(config.pay.key, creds.keyId);
    assert.equal(config.pay.amount, 50000);
    const callback = new URL(config.pay.callbackUrl);
    assert.equal(callback.pathname + callback.search, `/m/${p.slug}/callback?from=gig`);
    const payment = rzp.pay(config.pay.orderId);
    const back = (signature: string) =>
      post(
        `/m/${p.slug}/callback?from=gig`,
        {
          razorpay_order_id: config.pay.orderId,
          razorpay_payment_id: payment.id as string,
          razorpay_signature: signature,
        },
        { origin: 'https://api.razorpay.com' },
      );
    const forged = await back('0'.repeat(64));
    assert.equal(forged.status, 402);
    assert.equal((await member(email, live.key)).goodStanding, false);
    const ok = await back(checkoutSignature(config.pay.orderId, payment.id as string, creds.keySecret));
    assert.equal(ok.status, 200, ok.text);
    assert.match(ok.text, /You are a member/);
    assert.match(ok.text, /href="\/e\/gig"/);
    assert.equal((await member(email, live.key)).goodStanding, true);
  });
});
