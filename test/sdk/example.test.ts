// The SDK's example (sdk/example.ts) completes a paid test-mode booking against a real server:
// a typed client that type-checks gets no 400 for a body its types allowed.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { paidBookingExample } from '../../sdk/example.js';
import { verifyWebhook } from '../../sdk/index.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('the SDK', { timeout: 120_000 }, () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ isolatedDatabase: true });
  });
  after(async () => {
    await server.close();
  });

  it('runs the paid flow in test mode: booked, paid in the sandbox, confirmed', async () => {
    const registration = await paidBookingExample(server.url, 'sdk-example@example.in');
    assert.equal(registration.status, 'confirmed');
    assert.equal(registration.amount, 499);
  });

  it('verifies a webhook delivery as the service signs it, and refuses a changed body or an old timestamp', () => {
    const secret = 'whsec_example';
    const body = JSON.stringify({
      id: 'evt_1',
      type: 'registration.confirmed',
      createdAt: '2026-11-25T00:00:00Z',
      mode: 'test',
      data: {},
    });
    const ts = 1_790_000_000;
    const signature = `sha256=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`;
    const now = new Date(ts * 1000 + 60_000);
    assert.equal(
      verifyWebhook(body, { signature, timestamp: String(ts) }, secret, { now }).type,
      'registration.confirmed',
    );
    assert.throws(
      () =>
        verifyWebhook(body.replace('evt_1', 'evt_2'), { signature, timestamp: String(ts) }, secret, { now }),
      /does not verify/,
    );
    assert.throws(
      () =>
        verifyWebhook(body, { signature, timestamp: String(ts) }, secret, {
          now: new Date(ts * 1000 + 600_000),
        }),
      /tolerance/,
    );
  });
});
