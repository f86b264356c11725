// An event's payment outside the gateway (docs/decisions/24-payment-outside-the-gateway.md):
// `offlinePayment` on create, update and read, with its defaults, and every way it can be
// wrong answered 400 with a code (never a 5xx).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { organiser, type Account, type KeyInfo } from '../helpers/http.js';
import { createEventData, keyApi } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('offline payment settings of an event', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  before(async () => {
    server = await startServer();
    org = await organiser(server.url, 'test');
  });
  after(async () => server.close());
  const api = keyApi(
    () => server.url,
    () => org.key,
  );

  it('is off by default, with a three-day window', async () => {
    const ev = await createEventData(api);
    assert.deepEqual(ev.offlinePayment, {
      enabled: false,
      methods: [],
      instructions: '',
      payWithinDays: 3,
      upiId: null,
      upiName: null,
    });
  });

  it('is stored on create, read back, and changed field by field on update', async () => {
    const ev = await createEventData(api, {
      price: 500,
      offlinePayment: {
        enabled: true,
        methods: ['bank_transfer', 'upi_to_organiser'],
        instructions: 'HDFC 50100012345678, IFSC HDFC0000123',
        payWithinDays: 5,
        upiId: 'Club@OKHDFC',
        upiName: 'Chess Club',
      },
    });
    const want = {
      enabled: true,
      methods: ['bank_transfer', 'upi_to_organiser'],
      instructions: 'HDFC 50100012345678, IFSC HDFC0000123',
      payWithinDays: 5,
      upiId: 'club@okhdfc',
      upiName: 'Chess Club',
    };
    assert.deepEqual(ev.offlinePayment, want);
    assert.deepEqual((await api('GET', `/api/v1/events/${ev.id}`)).body.data.offlinePayment, want);
    const patched = await api('PATCH', `/api/v1/events/${ev.id}`, {
      offlinePayment: { methods: ['cash_at_venue'], payWithinDays: 1 },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.data.offlinePayment, {
      ...want,
      methods: ['cash_at_venue'],
      payWithinDays: 1,
    });
  });

  it('refuses settings that do not hold together with 400 and a code', async () => {
    const ev = await createEventData(api, { price: 500 });
    const bad: [unknown, string][] = [
      [{ enabled: true, methods: [] }, 'invalid_offline_payment'],
      [{ enabled: true, methods: ['upi_to_organiser'] }, 'invalid_offline_payment'],
      [{ enabled: true, methods: ['cash_at_venue'], payWithinDays: 0 }, ''],
      [{ enabled: true, methods: ['cash_at_venue'], payWithinDays: 31 }, ''],
      [{ enabled: true, methods: ['cash_at_venue'], payWithinDays: 2.5 }, ''],
      [{ enabled: true, methods: ['cheque'] }, ''],
      [{ enabled: true, methods: ['cash_at_venue'], instructions: 'x'.repeat(2001) }, ''],
      [{ enabled: true, methods: ['upi_to_organiser'], upiId: 'not a upi id' }, 'invalid_upi_id'],
      [{ enabled: true, methods: ['cash_at_venue'], surprise: 1 }, ''],
    ];
    for (const [offlinePayment, code] of bad) {
      const r = await api('PATCH', `/api/v1/events/${ev.id}`, { offlinePayment });
      assert.equal(r.status, 400, `${JSON.stringify(offlinePayment)}: ${r.text}`);
      assert.equal(typeof r.body.error, 'string');
      assert.equal(typeof r.body.code, 'string');
      if (code) assert.equal(r.body.code, code, r.text);
      const created = await api('POST', '/api/v1/events', {
        title: 'E',
        description: 'x',
        startDate: '2026-12-20',
        offlinePayment,
      });
      assert.equal(created.status, 400, created.text);
    }
    // Instructions of exactly 2,000 characters are taken.
    const ok = await api('PATCH', `/api/v1/events/${ev.id}`, {
      offlinePayment: { enabled: true, methods: ['cash_at_venue'], instructions: 'x'.repeat(2000) },
    });
    assert.equal(ok.status, 200, ok.text);
  });
});
