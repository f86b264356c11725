import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('broadcast (test mode)', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let eventId: string;
  const people: { name: string; email: string }[] = [];

  before(async () => {
    server = await startServer({ env: { BROADCAST_MAX_RECIPIENTS: '8' } });
    org = await organiser(server.url);
    eventId = (await api('POST', '/api/v1/events', { title: 'Broadcast night', description: 'x', startDate: '2026-12-20', maxTeamSize: 2, tracks: [{ title: 'A' }] })).body.data.id;
    for (let i = 0; i < 4; i++) {
      const p = { name: `Person ${i}`, email: uniqueEmail(`b${i}`) };
      people.push(p);
      const body: Record<string, unknown> = { ...p };
      if (i === 3) {
        const member = { name: 'Member', email: uniqueEmail('member') };
        people.push(member);
        body.teamMembers = [member];
      }
      if (i === 0) body.subEventId = '0';
      const r = await api('POST', `/api/v1/events/${eventId}/register`, body);
      assert.equal(r.status, 201, r.text);
      if (i === 1) await api('POST', `/api/v1/events/${eventId}/check-in`, { registrationId: r.body.registrationId });
    }
  });
  after(async () => {
    await server.close();
  });

  function api(method: string, path: string, body?: unknown, key?: string) {
    return call(server.url, method, path, { key: key ?? org.key, body });
  }
  const send = (body: Record<string, unknown>) => api('POST', `/api/v1/events/${eventId}/broadcast`, { subject: 'Doors at 7', message: 'Hello', ...body });

  it('previews by default with the count and at most five samples', async () => {
    const r = await send({});
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.dryRun, true);
    assert.equal(r.body.recipientCount, 5, 'four bookings, one with a team member');
    assert.ok(r.body.sampleRecipients.length <= 5);
    assert.deepEqual(Object.keys(r.body.sampleRecipients[0]).sort(), ['email', 'name']);
  });

  it('narrows by audience and track', async () => {
    assert.equal((await send({ audience: 'checked_in' })).body.recipientCount, 1);
    assert.equal((await send({ audience: 'not_checked_in' })).body.recipientCount, 4);
    assert.equal((await send({ audience: 'pending' })).body.recipientCount, 0);
    assert.equal((await send({ audience: 'all' })).body.recipientCount, 5);
    assert.equal((await send({ subEventId: '0' })).body.recipientCount, 1);
    assert.equal((await send({ audience: 'everyone' })).status, 400);
  });

  it('refuses recipient-list fields and overlong text with 400', async () => {
    for (const f of ['to', 'emails', 'bcc', 'cc', 'recipients']) {
      const r = await send({ [f]: ['x@example.in'] });
      assert.equal(r.status, 400, f);
    }
    assert.equal((await send({ subject: 'x'.repeat(201) })).status, 400);
    assert.equal((await send({ message: 'x'.repeat(20_001) })).status, 400);
    assert.equal((await send({ subject: 'x'.repeat(200), message: 'y'.repeat(20_000) })).status, 200);
  });

  it('sends only with dryRun false and the previewed count; a moved audience is 409', async () => {
    const needsCount = await send({ dryRun: false });
    assert.equal(needsCount.status, 400);
    const moved = await send({ dryRun: false, confirmedRecipientCount: 4 });
    assert.equal(moved.status, 409);
    assert.equal(moved.body.code, 'audience_changed');
    const before = (await api('GET', '/api/v1/sandbox/emails')).body.count;
    const r = await send({ dryRun: false, confirmedRecipientCount: 5, message: 'Line one\nLine two <b>' });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { dryRun: false, sent: 5, failed: 0, recipientCount: 5 });
    const mails = (await api('GET', '/api/v1/sandbox/emails')).body.data.slice(0, 5);
    assert.equal((await api('GET', '/api/v1/sandbox/emails')).body.count, before + 5);
    assert.deepEqual(mails.map((m: any) => m.to.length), [1, 1, 1, 1, 1], 'one mail per recipient');
    assert.deepEqual(new Set(mails.map((m: any) => m.to[0])), new Set(people.map((p) => p.email)));
    assert.ok(mails.every((m: any) => m.subject === 'Doors at 7' && m.text.startsWith('Line one\nLine two <b>')));
  });

  it('answers 413 above BROADCAST_MAX_RECIPIENTS', async () => {
    const big = (await api('POST', '/api/v1/events', { title: 'Big', description: 'x', startDate: '2026-12-20' })).body.data.id;
    for (let i = 0; i < 9; i++) await api('POST', `/api/v1/events/${big}/register`, { name: `P${i}`, email: uniqueEmail('big') });
    const r = await api('POST', `/api/v1/events/${big}/broadcast`, { subject: 's', message: 'm' });
    assert.equal(r.status, 413);
    assert.equal(r.body.code, 'too_many_recipients');
  });

  it('is for full keys only', async () => {
    const checkout = await call(server.url, 'POST', '/dashboard/api/keys', { token: org.token, body: { mode: 'test', class: 'checkout' } });
    const r = await api('POST', `/api/v1/events/${eventId}/broadcast`, { subject: 's', message: 'm' }, checkout.body.key);
    assert.equal(r.status, 403);
  });
});
