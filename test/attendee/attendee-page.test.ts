// The attendee's own page /t/{token}: the ticket, a transfer that reissues it (the old QR
// refused at the door with `transferred`, the old link dead), a cancellation under the
// policy refunding its amount to the paisa at Razorpay (the emulator) and in the ledger,
// the seat going to the waitlist, cross-origin and token-less posts refused, and both
// changes refused with a clear message after the cutoff.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { attendeeToken } from '../../src/lib/attendee-token.js';
import { call, organiser, signup, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { gatewayEnv, startRazorpayEmulator, type RazorpayEmulator } from '../helpers/razorpay-emulator.js';
import { ledgerOf, registrationRow } from '../helpers/rows.js';
import { startServer, type TestServer } from '../helpers/server.js';

const creds = { keyId: 'rzp_live_EmulatorKey01', keySecret: 'emulatorsecret000000000' };
const START = '2026-12-20T10:00:00+05:30';

describe('the attendee’s own page', () => {
  let rzp: RazorpayEmulator;
  let server: TestServer;
  let org: Account & KeyInfo;
  let staff: Account;
  /** The clock when the sessions were opened (they expire as it moves). */
  let opened: Date;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    rzp = await startRazorpayEmulator(creds);
    server = await startServer({
      env: { ...gatewayEnv(rzp, creds), STAFF_EMAILS: staffEmail, WORKERS: 'false' },
    });
    org = await organiser(server.url, 'live');
    staff = await signup(server.url, { email: staffEmail });
    opened = server.clock.now();
    await call(server.url, 'POST', `/admin/api/accounts/${org.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
  });
  after(async () => {
    await server.close();
    await rzp.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const page = async (token: string) => {
    const r = await fetch(`${server.url}/t/${token}`);
    return { status: r.status, html: await r.text(), csp: r.headers.get('content-security-policy') };
  };
  const post = (
    token: string,
    action: string,
    fields: Record<string, string>,
    headers: Record<string, string> = { origin: server.url },
  ) =>
    fetch(`${server.url}/t/${token}/${action}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    }).then(async (r) => ({ status: r.status, html: await r.text() }));
  const csrf = (html: string, action: string) =>
    new RegExp(`action="/t/[^"]+/${action}">\\s*<input type="hidden" name="csrf" value="([^"]+)"`).exec(
      html,
    )?.[1] ?? '';

  async function buy(eventId: string, name: string): Promise<{ id: string; paymentId: string }> {
    const s = await api('POST', `/api/v1/events/${eventId}/register`, { name, email: uniqueEmail(name) });
    assert.equal(s.status, 201, s.text);
    const payment = rzp.pay(s.body.orderId);
    const c = await api('POST', `/api/v1/events/${eventId}/register`, {
      registrationId: s.body.registrationId,
      orderId: s.body.orderId,
      paymentId: String(payment.id),
    });
    assert.equal(c.status, 200, c.text);
    return { id: s.body.registrationId, paymentId: String(payment.id) };
  }

  it('transfers and cancels within the policy, refunding its amount to the paisa, and refuses both after the cutoff', async () => {
    const selfService = { transfer: true, cancel: true, cutoffHours: 48, refund: { feePercent: 12.5 } };
    const fields = {
      title: 'Self service',
      startDate: START,
      price: 999.99,
      capacity: 3,
      waitlist: { enabled: true },
      selfService,
    };
    const eventId = await createEvent(api, fields, { publish: true });
    assert.deepEqual((await api('GET', `/api/v1/events/${eventId}`)).body.data.selfService, selfService);
    const [a, b, c] = [await buy(eventId, 'Asha'), await buy(eventId, 'Bala'), await buy(eventId, 'Chitra')];
    assert.equal(
      (
        await api('POST', `/api/v1/events/${eventId}/waitlist`, {
          name: 'Waiting',
          email: uniqueEmail('waiting'),
        })
      ).status,
      201,
    );
    server.clock.set(new Date('2026-12-01T00:00:00Z'));
    const tokenA = attendeeToken(server.deps.config.secretsKey, a.id, a.id);

    const shown = await page(tokenA);
    assert.equal(shown.status, 200);
    assert.match(shown.csp!, /default-src 'none'/);
    assert.ok(!/<script|style=/.test(shown.html), 'no script, no inline style');
    // The hosted page's style sheet, at its current version (so it is cached for good).
    const sheet = /<link rel="stylesheet" href="(\/embed\/page\.css\?v=[0-9a-f]+)">/.exec(shown.html)?.[1];
    assert.ok(sheet, 'links the hosted page’s style sheet');
    const css = await fetch(`${server.url}${sheet}`);
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type')!, /^text\/css/);
    assert.match(
      css.headers.get('cache-control')!,
      /immutable/,
      'the version in the link is the sheet’s own',
    );
    assert.match(shown.html, /<img src="data:image\/png;base64,/);
    assert.match(shown.html, /calendar\.google\.com/);
    assert.match(
      shown.html,
      /refunded ₹874\.99 of the ₹999\.99 you paid \(the organiser keeps a ₹125 fee\)/,
      '12.5 % of 99,999 paise is 12,499.875: the fee rounds half up to 12,500',
    );

    // Posts that do not come from the page are refused.
    const form = { csrf: csrf(shown.html, 'transfer'), name: 'Dev', email: uniqueEmail('dev') };
    assert.equal((await post(tokenA, 'transfer', form, {})).status, 403, 'no Origin, no Sec-Fetch-Site');
    assert.equal((await post(tokenA, 'transfer', form, { origin: 'https://evil.example' })).status, 403);
    assert.equal(
      (await post(tokenA, 'transfer', { ...form, csrf: 'x' })).status,
      403,
      'a form token of another page',
    );
    const moved = await post(tokenA, 'transfer', form);
    assert.equal(moved.status, 200, moved.html);
    const regA = (await api('GET', `/api/v1/events/${eventId}/registrations/${a.id}`)).body.data;
    assert.equal(regA.name, 'Dev');
    const door = await api('POST', `/api/v1/events/${eventId}/check-in`, { registrationId: a.id });
    assert.equal(door.status, 409);
    assert.equal(door.body.reason, 'transferred', 'the old QR is refused at the door');
    assert.equal((await page(tokenA)).status, 404, 'the transfer retired the old link');
    assert.equal(
      (await page(attendeeToken(server.deps.config.secretsKey, a.id, regA.ticketCode))).status,
      200,
      'the new holder’s link works',
    );

    // Bala cancels: 874.99 back at the gateway, the ledger says so, the seat is offered on.
    const tokenB = attendeeToken(server.deps.config.secretsKey, b.id, b.id);
    const cancelled = await post(tokenB, 'cancel', {
      csrf: csrf((await page(tokenB)).html, 'cancel'),
      confirm: 'yes',
    });
    assert.equal(cancelled.status, 200, cancelled.html);
    assert.equal(rzp.payments.get(b.paymentId)!.amount_refunded, 87_499);
    const regB = (await api('GET', `/api/v1/events/${eventId}/registrations/${b.id}`)).body.data;
    assert.equal(regB.status, 'cancelled');
    const entries = await ledgerOf(server, b.id);
    assert.deepEqual(
      entries.filter((e) => e.kind === 'ticket_refund').map((e) => Number(e.amount_paise)),
      [-87_499],
    );
    assert.ok(
      !entries.some((e) => e.kind === 'platform_fee_reversal'),
      'a partial refund keeps the platform fee',
    );
    const queue = (await api('GET', `/api/v1/events/${eventId}/waitlist`)).body.data;
    assert.equal(queue[0].status, 'offered', 'the freed seat went to the waitlist');
    assert.match((await page(tokenB)).html, /This booking is cancelled\. Refunded: ₹874\.99/);

    // 47 hours before the start: past the 48-hour cutoff, both are refused, clearly.
    server.clock.set(new Date(new Date(START).getTime() - 47 * 3_600_000));
    const tokenC = attendeeToken(server.deps.config.secretsKey, c.id, c.id);
    const late = await page(tokenC);
    assert.ok(!late.html.includes('Transfer ticket') && !late.html.includes('Cancel booking'));
    assert.match(late.html, /Changes from this page closed at .*48 hours before the event/);
    const lateCancel = await post(tokenC, 'cancel', {
      csrf: csrf(shown.html.replace(/x/g, 'x'), 'cancel') || 'x',
      confirm: 'yes',
    });
    assert.equal(lateCancel.status, 403, 'without the page’s form token');
    const { formToken } = await import('../../src/modules/attendee/attendee.service.js');
    const refused = await post(tokenC, 'cancel', {
      csrf: formToken(server.deps.config.secretsKey, tokenC, 'cancel'),
      confirm: 'yes',
    });
    assert.equal(refused.status, 409);
    assert.match(refused.html, /cancellations closed 48 hours before the event/);
    const refusedT = await post(tokenC, 'transfer', {
      csrf: formToken(server.deps.config.secretsKey, tokenC, 'transfer'),
      name: 'X',
      email: uniqueEmail('x'),
    });
    assert.equal(refusedT.status, 409);
    assert.match(refusedT.html, /transfers closed 48 hours before the event/);
    assert.equal(rzp.payments.get(c.paymentId)!.amount_refunded, 0);
    assert.equal(
      (await api('GET', `/api/v1/events/${eventId}/registrations/${c.id}`)).body.data.status,
      'confirmed',
    );
  });

  // The service's own ledger recomputation (GET /admin/api/ledger/check) must agree with the
  // entries a cancellation wrote, whatever the policy kept: a fee (the part refunded, the
  // platform fee kept) or the whole price (nothing refunded, no refund entry).
  for (const [refund, kept] of [
    [{ feePercent: 40 }, 20_000],
    ['none', 50_000],
  ] as const) {
    it(`cancels under refund ${JSON.stringify(refund)}: ₹${kept / 100} kept, the rest refunded, and the ledger check agrees`, async () => {
      server.clock.set(opened);
      const fields = {
        title: `Keeps ${kept}`,
        startDate: '2027-06-01T10:00:00+05:30',
        price: 500,
        capacity: 5,
        selfService: { cancel: true, cutoffHours: 48, refund },
      };
      const eventId = await createEvent(api, fields, { publish: true });
      const a = await buy(eventId, 'Devi');
      const token = attendeeToken(server.deps.config.secretsKey, a.id, a.id);
      const cancelled = await post(token, 'cancel', {
        csrf: csrf((await page(token)).html, 'cancel'),
        confirm: 'yes',
      });
      assert.equal(cancelled.status, 200, cancelled.html);
      assert.equal(rzp.payments.get(a.paymentId)!.amount_refunded, 50_000 - kept);
      const reg = await registrationRow(server, a.id);
      assert.deepEqual({ status: reg.status, kept: Number(reg.kept_paise) }, { status: 'cancelled', kept });
      const refunds = (await ledgerOf(server, a.id)).filter((e) => e.kind === 'ticket_refund');
      assert.equal(
        refunds.reduce((s, e) => s - Number(e.amount_paise), 0),
        50_000 - kept,
      );
      const check = await call(server.url, 'GET', `/admin/api/ledger/check?accountId=${org.userId}`, {
        token: staff.token,
      });
      assert.equal(check.status, 200, check.text);
      assert.deepEqual(check.body.mismatches, [], check.text);
    });
  }
});
