// GST settings (docs/decisions/17-the-organisers-office.md) through the API: checked GSTINs and states, per account and mode;
// the events' tax fields and the buyer's billing details refused when wrong; test mode's
// own series and "TEST MODE" documents; the GSTR-1 summary route.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi, payInSandbox } from '../helpers/factories.js';
import { field, pdfText } from '../helpers/pdf.js';
import { startServer, type TestServer } from '../helpers/server.js';

const KA = '29AAGCR4375J1ZU';
const MH = '27AAPFU0939F1ZV';

describe('GST settings', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  before(async () => {
    server = await startServer();
    org = await organiser(server.url, 'test');
  });
  after(async () => {
    await server?.close();
  });
  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const put = (body: Record<string, unknown>, key = org.key) =>
    api('PUT', '/api/v1/gst/settings', { legalName: 'Org LLP', address: 'Bengaluru', ...body }, key);

  it('reads as unregistered until set; a GSTIN sets the state; test and live keep their own', async () => {
    const empty = await api('GET', '/api/v1/gst/settings');
    assert.equal(empty.status, 200);
    assert.deepEqual(
      [empty.body.data.registered, empty.body.data.gstin, empty.body.data.seriesPrefix],
      [false, null, 'TIX'],
    );
    const set = await put({ gstin: ` ${KA.toLowerCase()} `, seriesPrefix: 'ev1' });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(
      [
        set.body.data.registered,
        set.body.data.gstin,
        set.body.data.state,
        set.body.data.stateName,
        set.body.data.seriesPrefix,
      ],
      [true, KA, '29', 'Karnataka', 'EV1'],
    );
    assert.equal((await api('GET', '/api/v1/gst/settings')).body.data.gstin, KA);
    // The prefix stays when left out; null unregisters.
    const again = await put({ gstin: null, state: '27' });
    assert.deepEqual(
      [again.body.data.registered, again.body.data.state, again.body.data.seriesPrefix],
      [false, '27', 'EV1'],
    );
    const live = await organiser(server.url, 'live');
    assert.equal(
      (await call(server.url, 'GET', '/api/v1/gst/settings', { key: live.key })).body.data.registered,
      false,
    );
  });

  it('refuses a GSTIN with a wrong check character or shape, a state that is not its own, a bad prefix', async () => {
    for (const [gstin, words] of [
      ['24AANFA2641L1ZK', /check character/],
      ['27AAPFU0939F1Z', /is not a GSTIN/],
      ['72AAPFU0939F1ZV', /state code/],
    ] as const) {
      const r = await put({ gstin });
      assert.deepEqual([r.status, r.body.code], [400, 'invalid_gstin'], gstin);
      assert.match(r.body.error, words);
    }
    const mismatch = await put({ gstin: KA, state: '27' });
    assert.deepEqual([mismatch.status, mismatch.body.code], [400, 'invalid_state']);
    assert.equal((await put({ gstin: null, state: '99' })).body.code, 'invalid_state');
    assert.equal((await put({ gstin: KA, seriesPrefix: 'A-B' })).body.code, 'invalid_field');
    assert.equal((await put({ gstin: KA, legalName: '  ' })).body.code, 'invalid_field');
    assert.equal((await put({ gstin: KA, extra: 1 })).status, 400);
    const checkout = await call(server.url, 'GET', '/api/v1/gst/settings', {
      key: (await organiserCheckoutKey()).key,
    });
    assert.equal(checkout.status, 403);
  });

  async function organiserCheckoutKey() {
    const r = await call(server.url, 'POST', '/dashboard/api/keys', {
      token: org.token,
      body: { mode: 'test', class: 'checkout' },
    });
    return { key: r.body.key as string };
  }

  it('checks the events’ tax fields', async () => {
    const base = { title: 'T', description: 'x', startDate: '2026-12-01' };
    // fixture-exception: the event's tax fields, as creation takes and answers them, are the subject
    const ok = await api('POST', '/api/v1/events', {
      ...base,
      taxCategory: 'premium_sporting',
      supplierGstin: MH.toLowerCase(),
      sac: '999652',
      venueState: '27',
      specialPrices: [{ name: 'VIP', price: 10, sac: '9996' }],
    });
    assert.equal(ok.status, 201, ok.text);
    assert.deepEqual(
      [
        ok.body.data.taxCategory,
        ok.body.data.supplierGstin,
        ok.body.data.sac,
        ok.body.data.venueState,
        ok.body.data.specialPrices[0].sac,
      ],
      ['premium_sporting', MH, '999652', '27', '9996'],
    );
    const cleared = await api('PATCH', `/api/v1/events/${ok.body.data.id}`, {
      supplierGstin: null,
      sac: null,
    });
    assert.deepEqual(
      [cleared.body.data.supplierGstin, cleared.body.data.sac, cleared.body.data.venueState],
      [null, null, '27'],
    );
    for (const [body, code] of [
      [{ taxCategory: 'luxury' }, 'invalid_request'],
      [{ supplierGstin: '27AAPFU0939F1ZA' }, 'invalid_gstin'],
      [{ sac: '123456' }, 'invalid_sac'],
      [{ sac: '99962' }, 'invalid_sac'],
      [{ venueState: '00' }, 'invalid_state'],
      [{ specialPrices: [{ name: 'X', price: 1, sac: '8888' }] }, 'invalid_sac'],
    ] as const) {
      // fixture-exception: creation's refusals are the subject
      const r = await api('POST', '/api/v1/events', { ...base, ...body });
      assert.equal(r.status, 400, JSON.stringify(body));
      if (code !== 'invalid_request') assert.equal(r.body.code, code, JSON.stringify(body));
    }
  });

  it('test mode: its own series, documents marked TEST MODE, the buyer’s GSTIN checked; GSTR-1 of the month', async () => {
    const t = await organiser(server.url, 'test');
    const tapi = keyApi(server.url, t.key);
    assert.equal(
      (await tapi('PUT', '/api/v1/gst/settings', { gstin: KA, legalName: 'Trial LLP', address: 'Mysuru' }))
        .status,
      200,
    );
    const ev = await createEvent(tapi, {
      title: 'Trial',
      startDate: '2026-12-01',
      price: 1180,
      venueState: '27',
    });
    const bad = await tapi('POST', `/api/v1/events/${ev}/register`, {
      name: 'B',
      email: uniqueEmail('b'),
      billing: { gstin: '07AAACH7409R1Z4' },
    });
    assert.deepEqual([bad.status, bad.body.code], [400, 'invalid_gstin']);
    const mismatch = await tapi('POST', `/api/v1/events/${ev}/register`, {
      name: 'B',
      email: uniqueEmail('b'),
      billing: { gstin: '07AAACH7409R1Z3', state: '29' },
    });
    assert.deepEqual([mismatch.status, mismatch.body.code], [400, 'invalid_state']);
    const regs: string[] = [];
    for (const billing of [undefined, { gstin: '07AAACH7409R1Z3', name: 'Co Ltd', address: 'Delhi' }]) {
      const s = await tapi('POST', `/api/v1/events/${ev}/register`, {
        name: 'Buyer',
        email: uniqueEmail('b'),
        ...(billing ? { billing } : {}),
      });
      assert.equal(s.status, 201, s.text);
      const paymentId = await payInSandbox(tapi, s.body.orderId);
      assert.equal(
        (
          await tapi('POST', `/api/v1/events/${ev}/register`, {
            registrationId: s.body.registrationId,
            orderId: s.body.orderId,
            paymentId,
          })
        ).status,
        200,
      );
      regs.push(s.body.registrationId);
    }
    const res = await fetch(`${server.url}/api/v1/events/${ev}/registrations/${regs[0]}/invoice?format=pdf`, {
      headers: { 'x-api-key': t.key },
    });
    const text = pdfText(Buffer.from(await res.arrayBuffer()));
    assert.match(text, /TEST MODE - not a tax document/);
    assert.match(
      field(text, 'Invoice number')!,
      /^TIXI\d{4}-000001$/,
      'test mode counts from 1 in its own series',
    );
    assert.equal(field(text, 'IGST @ 18%'), 'INR 180.00');
    const invoice = (await tapi('GET', `/api/v1/events/${ev}/registrations/${regs[0]}/invoice`)).body.data;
    // Another mode's key sees no such event.
    assert.equal(
      (
        await call(server.url, 'GET', `/api/v1/events/${ev}/registrations/${regs[0]}/invoice`, {
          key: (await organiser(server.url, 'live')).key,
        })
      ).status,
      404,
    );

    const summary = await tapi('GET', `/api/v1/gst/gstr1?month=${invoice.date.slice(0, 7)}`);
    assert.equal(summary.status, 200, summary.text);
    assert.equal(summary.body.data.mode, 'test');
    const [s] = summary.body.data.suppliers;
    assert.equal(s.gstin, KA);
    assert.deepEqual(
      s.b2b.map((b: any) => [b.recipientGstin, b.invoices.length, b.invoices[0].igst]),
      [['07AAACH7409R1Z3', 1, 180]],
    );
    assert.deepEqual(s.b2cs, [
      {
        placeOfSupply: '27',
        supplyType: 'inter_state',
        rate: 18,
        value: 1180,
        taxableValue: 1000,
        igst: 180,
        cgst: 0,
        sgst: 0,
        utgst: 0,
      },
    ]);
    assert.equal(
      (await tapi('GET', `/api/v1/gst/gstr1?month=${invoice.date.slice(0, 7)}&gstin=${MH}`)).body.data
        .suppliers.length,
      0,
    );
    assert.equal((await tapi('GET', '/api/v1/gst/gstr1?month=2026-13')).body.code, 'invalid_month');
    assert.equal(
      (await tapi('GET', '/api/v1/gst/gstr1?month=2026-12&gstin=nope')).body.code,
      'invalid_gstin',
    );
  });
});
