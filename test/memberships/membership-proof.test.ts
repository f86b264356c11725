// Members-only proof stays secret (docs/decisions/14-trust-and-safety-second-round.md): a checkout key never learns the
// id of a membership that already exists, the proof members-only tiers accept.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { keyApi } from '../helpers/factories.js';

describe('members-only proof stays secret', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let pk: string;

  before(async () => {
    server = await startServer({ isolatedDatabase: true });
    org = await organiser(server.url, 'test');
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
  });
  after(async () => {
    await server.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );

  it('answers a checkout key’s subscribe for an existing membership with existing: true only; a full key still sees it', async () => {
    const planId = (
      await api('POST', '/api/v1/memberships/plans', {
        name: 'Annual',
        amount: 1200,
        kind: 'fixed_term',
        termMonths: 12,
      })
    ).body.data.id;
    const email = uniqueEmail('member');
    const s = await api('POST', '/api/v1/memberships/subscribe', { planId, name: 'Member', email });
    assert.equal(s.status, 201, s.text);
    const membershipId = s.body.membershipId as string;

    // Waiting for payment: a browser that only knows the email learns nothing more.
    const pending = await api(
      'POST',
      '/api/v1/memberships/subscribe',
      { planId, name: 'Attacker', email },
      pk,
    );
    assert.equal(pending.status, 200, pending.text);
    assert.deepEqual(pending.body, { success: true, existing: true });

    assert.equal(
      (await api('POST', `/api/v1/sandbox/orders/${s.body.orderId}/paid`)).body.result,
      'confirmed',
    );
    const active = await api(
      'POST',
      '/api/v1/memberships/subscribe',
      { planId, name: 'Attacker', email },
      pk,
    );
    assert.equal(active.status, 200, active.text);
    assert.deepEqual(active.body, { success: true, existing: true });
    assert.doesNotMatch(active.text, new RegExp(membershipId));

    const full = await api('POST', '/api/v1/memberships/subscribe', { planId, name: 'Member', email });
    assert.equal(full.status, 200);
    assert.equal(full.body.membershipId, membershipId, 'the organiser’s own server still sees it');
    assert.equal(full.body.data.email, email);

    // In the renewal window a checkout key gets the renewal's order to pay, not the id.
    await api('POST', '/api/v1/sandbox/clock', { advanceDays: 350 });
    try {
      const renew = await api(
        'POST',
        '/api/v1/memberships/subscribe',
        { planId, name: 'Attacker', email },
        pk,
      );
      assert.equal(renew.status, 201, renew.text);
      assert.deepEqual(Object.keys(renew.body).sort(), ['amount', 'currency', 'keyId', 'orderId', 'success']);
      assert.doesNotMatch(renew.text, new RegExp(membershipId));
      // A new person's membership answers its own id, as before (it proves nothing until paid).
      const fresh = await api(
        'POST',
        '/api/v1/memberships/subscribe',
        { planId, name: 'New', email: uniqueEmail('new') },
        pk,
      );
      assert.equal(fresh.status, 201);
      assert.match(fresh.body.membershipId, /^mem_/);
    } finally {
      await api('DELETE', '/api/v1/sandbox/clock');
    }
  });
});
