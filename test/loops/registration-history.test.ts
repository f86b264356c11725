// A registration keeps its history (docs/decisions/28-a-persons-day.md, "Closing every loop"): the
// dashboard's registration page lists the booking's events in order from the audit log
// (booked, paid, a partial refund with its amount and reason, a cancellation with what was
// kept, a transfer from whom to whom) and says what was refunded and kept rather than the
// price alone; a transfer leaves none of the giver's contact details on the booking. The
// tax invoice and credit notes are linked from that page and from the attendee's page
// /t/{token}, whose links the token authorises (another booking's token, a mistyped one,
// or the new holder of a transferred ticket get none). GET /dashboard/account/gst is the
// GST settings page with its form, not a 405. Test mode, sandbox payments.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { attendeeToken } from '../../src/lib/attendee-token.js';
import { DashboardClient } from '../helpers/dashboard.js';
import { createEvent, keyApi, paidBooking } from '../helpers/factories.js';
import { organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

const KA = '29AAGCR4375J1ZU';

describe('a registration’s history and its tax documents', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let dash: DashboardClient;
  let eventId: string;

  before(async () => {
    server = await startServer();
    org = await organiser(server.url, 'test');
    const gst = await api('PUT', '/api/v1/gst/settings', {
      gstin: KA,
      legalName: 'Rangashankara Arts LLP',
      address: '36/2 8th Cross, Bengaluru',
    });
    assert.equal(gst.status, 200, gst.text);
    eventId = await createEvent(api, {
      title: 'Hamlet',
      price: 1500,
      venueState: '29',
      startDate: '2030-05-01',
      selfService: { transfer: true, cancel: true, cutoffHours: 24, refund: { feePercent: 10 } },
    });
    dash = new DashboardClient(server.url);
    await dash.login(org.email);
  });
  after(async () => {
    await server?.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const regPage = (id: string) => dash.get(`/dashboard/events/${eventId}/registrations/${id}`);
  const history = (html: string) => {
    const section = /<section[^>]*aria-labelledby="hist-h"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    return [...section.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((m) =>
      m[1]!
        .replace(/<[^>]+>/g, '')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  };
  const links = (html: string, prefix: string) =>
    [...html.matchAll(/href="([^"]+)"/g)]
      .map((m) => m[1]!.replace(/&amp;/g, '&'))
      .filter((h) => h.startsWith(prefix));
  const token = (id: string, ticketId: string) => attendeeToken(server.deps.config.secretsKey, id, ticketId);

  it('lists booked, paid, a partial refund with its reason and a transfer from whom to whom; the giver’s phone leaves with them', async () => {
    const b = await paidBooking(api, eventId, {
      name: 'Asha Rao',
      email: uniqueEmail('asha'),
      phone: '+919812345678',
    });
    const part = await api('POST', `/api/v1/events/${eventId}/registrations/${b.registrationId}/refund`, {
      amount: 300,
      reason: 'The second act was cut',
    });
    assert.equal(part.status, 200, part.text);
    const moved = await api('POST', `/api/v1/events/${eventId}/registrations/${b.registrationId}/transfer`, {
      name: 'Ravi Kumar',
      email: uniqueEmail('ravi'),
    });
    assert.equal(moved.status, 200, moved.text);

    const page = await regPage(b.registrationId);
    assert.equal(page.status, 200);
    const h = history(page.text);
    assert.equal(h.length, 4, h.join(' | '));
    assert.match(h[0]!, /Booked/);
    assert.match(h[1]!, /Paid ₹1,500/);
    assert.match(h[2]!, /Partly refunded ₹300.*The second act was cut/);
    assert.match(h[3]!, /Transferred from Asha Rao .* to Ravi Kumar/);
    assert.match(page.text, /<dt>Refunded<\/dt><dd>₹300<\/dd>/);
    assert.match(page.text, /<dt>Phone<\/dt><dd>—<\/dd>/, 'the giver’s phone is not the new holder’s');
    assert.doesNotMatch(page.text, /9812345678/);

    const read = await api('GET', `/api/v1/events/${eventId}/registrations/${b.registrationId}`);
    assert.deepEqual([read.body.data.name, read.body.data.phone], ['Ravi Kumar', null]);
  });

  it('shows a self-cancellation with what was kept, not the price alone', async () => {
    const b = await paidBooking(api, eventId, { name: 'Meera Iyer', email: uniqueEmail('meera') });
    const t = token(b.registrationId, b.registrationId);
    const ticket = await fetch(`${server.url}/t/${t}`).then((r) => r.text());
    const csrf =
      /action="\/t\/[^"]+\/cancel">\s*<input type="hidden" name="csrf" value="([^"]+)"/.exec(ticket)?.[1] ??
      '';
    const cancel = await fetch(`${server.url}/t/${t}/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams({ csrf, confirm: 'yes' }).toString(),
    });
    assert.equal(cancel.status, 200, await cancel.text());

    const page = await regPage(b.registrationId);
    const h = history(page.text);
    assert.match(h[h.length - 1]!, /Cancelled: ₹1,350 refunded, ₹150 kept \(the attendee\)/);
    assert.match(page.text, /<dt>Refunded<\/dt><dd>₹1,350<\/dd>/);
    assert.match(page.text, /<dt>Kept<\/dt><dd>₹150<\/dd>/);
  });

  it('links the invoice and credit notes from the registration’s page, as PDFs', async () => {
    const b = await paidBooking(api, eventId, { name: 'Kiran Das', email: uniqueEmail('kiran') });
    await api('POST', `/api/v1/events/${eventId}/registrations/${b.registrationId}/refund`, {
      amount: 200,
      reason: 'Seat moved',
    });
    const page = await regPage(b.registrationId);
    const docs = links(
      page.text,
      `/dashboard/events/${eventId}/registrations/${b.registrationId}/documents/`,
    );
    assert.equal(docs.length, 2, 'the invoice and the credit note');
    assert.match(page.text, /Tax invoice TIXI\d{4}-\d{6}/);
    assert.match(page.text, /Credit note TIXC\d{4}-\d{6}/);
    for (const href of docs) {
      const pdf = await dash.get(href);
      assert.equal(pdf.status, 200, href);
      assert.equal(pdf.res.headers.get('content-type'), 'application/pdf');
    }
    // Another account's session gets nothing.
    const other = new DashboardClient(server.url);
    await other.signup(uniqueEmail('other'));
    const theirs = await other.get(docs[0]!);
    assert.ok([403, 404].includes(theirs.status), `another account: ${theirs.status}`);
    assert.notEqual(theirs.res.headers.get('content-type'), 'application/pdf');
  });

  it('links them from /t/{token}, authorised by the token only', async () => {
    const a = await paidBooking(api, eventId, { name: 'Lata Menon', email: uniqueEmail('lata') });
    const b = await paidBooking(api, eventId, { name: 'Sunil Rao', email: uniqueEmail('sunil') });
    await api('POST', `/api/v1/events/${eventId}/registrations/${a.registrationId}/refund`, {
      amount: 100,
      reason: 'Late start',
    });
    const tokenA = token(a.registrationId, a.registrationId);
    const html = await fetch(`${server.url}/t/${tokenA}`).then((r) => r.text());
    const docs = links(html, `/t/${tokenA}/documents/`);
    assert.equal(docs.length, 2, 'the invoice and the credit note');
    for (const href of docs) {
      const r = await fetch(server.url + href);
      assert.equal(r.status, 200, href);
      assert.equal(r.headers.get('content-type'), 'application/pdf');
    }
    const number = docs[0]!.split('/').pop()!;
    const tokenB = token(b.registrationId, b.registrationId);
    assert.equal(
      (await fetch(`${server.url}/t/${tokenB}/documents/${number}`)).status,
      404,
      'another booking’s token does not open it',
    );
    assert.equal(
      (await fetch(`${server.url}/t/${tokenA.slice(0, -2)}xx/documents/${number}`)).status,
      404,
      'a mistyped token does not',
    );
    assert.equal(
      (await fetch(`${server.url}/t/${a.registrationId}/documents/${number}`)).status,
      404,
      'the registration id alone does not',
    );

    // After a transfer the new holder's page shows none of the giver's documents.
    const moved = await api('POST', `/api/v1/events/${eventId}/registrations/${b.registrationId}/transfer`, {
      name: 'Nisha Pai',
      email: uniqueEmail('nisha'),
    });
    const newToken = token(b.registrationId, moved.body.data.ticketCode);
    const theirs = await fetch(`${server.url}/t/${newToken}`).then((r) => r.text());
    assert.equal(links(theirs, `/t/${newToken}/documents/`).length, 0);
    const bNumber = (await api('GET', `/api/v1/events/${eventId}/registrations/${b.registrationId}/invoice`))
      .body.data.number;
    assert.equal((await fetch(`${server.url}/t/${newToken}/documents/${bNumber}`)).status, 404);
  });
});

describe('the GST settings page', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.close();
  });

  it('GET /dashboard/account/gst shows the settings with a form that saves them', async () => {
    const c = new DashboardClient(server.url);
    await c.signup(uniqueEmail('gstpage'));
    const page = await c.get('/dashboard/account/gst');
    assert.equal(page.status, 200);
    assert.match(page.text, /<form method="post" action="\/dashboard\/account\/gst">/);
    assert.match(page.text, /name="gstin"/);
    const saved = await c.post(
      '/dashboard/account/gst',
      {
        _csrf: DashboardClient.csrf(page.text),
        gstin: KA,
        legalName: 'Page Arts LLP',
        address: 'Mysuru',
        state: '',
        seriesPrefix: 'PA',
      },
      { referer: `${server.url}/dashboard/account/gst` },
    );
    assert.equal(saved.status, 303);
    assert.equal(saved.location, '/dashboard/account/gst');
    const shown = await c.get('/dashboard/account/gst');
    assert.match(shown.text, /GST settings saved\./);
    assert.match(shown.text, /id="g-gstin" name="gstin"[^>]*value="29AAGCR4375J1ZU"/);
    assert.match(shown.text, /Page Arts LLP/);
    assert.equal(
      (await c.post('/dashboard/account/gst', { gstin: '', legalName: 'X', address: 'Y' })).status,
      403,
      'a post without the token is refused',
    );
    // Signed out, the page asks for sign-in like the others.
    const anon = await new DashboardClient(server.url).get('/dashboard/account/gst');
    assert.equal(anon.status, 303);
  });
});
