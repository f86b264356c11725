// The hosted page's payment outside the gateway (docs/decisions/24-payment-outside-the-gateway.md):
// the page offers the event's enabled offline methods beside the gateway, with the organiser's
// instructions; registering with one answers how to pay (amount, reference, pay-by, the
// instructions, and for UPI to the organiser the upi://pay link and its QR), a method the event
// does not take is refused at its field, and a gateway booking on the same page is unchanged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { REFERENCE_PATTERN } from '../../src/modules/registrations/offline-reference.js';
import { call, createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEventData, keyApi } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

const DAY = 86_400_000;
const OFFLINE = {
  enabled: true,
  methods: ['bank_transfer', 'upi_to_organiser'],
  instructions: 'HDFC Bank, account 50100012345678, IFSC HDFC0000123',
  payWithinDays: 3,
  upiId: 'chessclub@okhdfc',
  upiName: 'Chess Club',
};

describe('the hosted page with payment outside the gateway', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let pk: string;
  before(async () => {
    server = await startServer();
    org = await organiser(server.url, 'test');
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
  });
  after(async () => server.close());
  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const register = (slug: string, body: Record<string, unknown>) =>
    call(server.url, 'POST', `/e/${slug}/register`, {
      body: { key: pk, name: 'Priya', email: uniqueEmail('page'), ...body },
      headers: { origin: server.url },
    });

  it('offers the enabled methods beside the gateway, with the instructions', async () => {
    const ev = await createEventData(api, { price: 500, offlinePayment: OFFLINE }, { publish: true });
    const page = await call(server.url, 'GET', `/e/${ev.slug}?key=${pk}`);
    assert.equal(page.status, 200);
    const html = page.text;
    assert.match(html, /<fieldset class="choices" id="payment-method" role="radiogroup"/);
    assert.match(html, /name="paymentMethod" id="pm-gateway" value="gateway" checked/);
    assert.match(html, /value="bank_transfer"/);
    assert.match(html, /value="upi_to_organiser"/);
    assert.doesNotMatch(html, /value="cash_at_venue"/, 'only the enabled methods');
    assert.match(html, /HDFC Bank, account 50100012345678/);
    assert.match(html, /within 3 days/);

    const plain = await createEventData(api, { price: 500 }, { publish: true });
    const none = (await call(server.url, 'GET', `/e/${plain.slug}?key=${pk}`)).text;
    assert.doesNotMatch(none, /name="paymentMethod"/, 'an event without offline payment offers no choice');
    const free = await createEventData(api, { price: 0, offlinePayment: OFFLINE }, { publish: true });
    const freePage = (await call(server.url, 'GET', `/e/${free.slug}?key=${pk}`)).text;
    assert.doesNotMatch(freePage, /name="paymentMethod"/, 'nothing to pay, nothing to choose');
  });

  it('books with the method and answers how to pay: UPI with its link and QR', async () => {
    const ev = await createEventData(api, { price: 500, offlinePayment: OFFLINE }, { publish: true });
    const now = server.clock.now().getTime();
    const r = await register(ev.slug, { paymentMethod: 'upi_to_organiser' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.status, 'awaiting_payment');
    assert.equal(r.body.amount, 50000);
    assert.equal(r.body.currency, 'INR');
    assert.equal(r.body.orderId, undefined, 'no gateway order');
    assert.equal(r.body.ticket, undefined, 'no ticket until paid');
    const due = r.body.awaitingPayment;
    assert.equal(due.method, 'upi_to_organiser');
    assert.match(due.reference, REFERENCE_PATTERN);
    assert.equal(new Date(due.payBy).getTime(), now + 3 * DAY);
    assert.match(due.payByText, /IST$/);
    assert.equal(r.body.instructions, OFFLINE.instructions);
    assert.equal(
      r.body.upi.link,
      `upi://pay?pa=chessclub%40okhdfc&pn=Chess%20Club&am=500.00&cu=INR&tn=${due.reference}`,
    );
    assert.match(r.body.upi.qr, /^data:image\/png;base64,iVBORw0KGgo/);
    assert.doesNotMatch(r.text, /reg_|@example/, 'no id or personal data');

    const listed = (await api('GET', `/api/v1/events/${ev.id}/registrations`)).body.data;
    assert.equal(listed.length, 1);
    assert.equal(listed[0].status, 'pending');
    assert.deepEqual(listed[0].awaitingPayment, {
      method: 'upi_to_organiser',
      reference: due.reference,
      payBy: due.payBy,
    });
  });

  it('bank transfer has no UPI; a method not taken is refused at its field; the gateway still books', async () => {
    const ev = await createEventData(api, { price: 500, offlinePayment: OFFLINE }, { publish: true });
    const bank = await register(ev.slug, { paymentMethod: 'bank_transfer' });
    assert.equal(bank.status, 201, bank.text);
    assert.equal(bank.body.status, 'awaiting_payment');
    assert.equal(bank.body.awaitingPayment.method, 'bank_transfer');
    assert.equal(bank.body.upi, null);

    const cash = await register(ev.slug, { paymentMethod: 'cash_at_venue' });
    assert.equal(cash.status, 400, cash.text);
    assert.equal(cash.body.code, 'payment_method_not_offered');
    assert.equal(cash.body.field, 'paymentMethod');
    const odd = await register(ev.slug, { paymentMethod: 'cheque' });
    assert.equal(odd.status, 400, odd.text);

    const gateway = await register(ev.slug, { paymentMethod: 'gateway' });
    assert.equal(gateway.status, 201, gateway.text);
    assert.equal(gateway.body.status, 'payment_required');
    assert.match(gateway.body.orderId, /^order_/);
    const byDefault = await register(ev.slug, {});
    assert.equal(byDefault.body.status, 'payment_required');
  });
});
