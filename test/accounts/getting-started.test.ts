// Getting started without waiting (docs/decisions/17-the-organisers-office.md): a brand-new account sells itself
// a test ticket end to end with no staff anywhere; publishing access for live events is asked
// for with a message, reviewed by staff with the account's facts, granted or declined with a
// reason, and the organiser is mailed either way.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { call, createKey, signup, uniqueEmail } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEvent, createEventData, keyApi, payInSandbox } from '../helpers/factories.js';
import { forcePublished, runJobs } from '../helpers/rows.js';

describe('getting started', () => {
  let server: TestServer;
  const staffEmail = uniqueEmail('staff');
  let staffToken = '';

  before(async () => {
    server = await startServer({ env: { STAFF_EMAILS: staffEmail } });
    staffToken = (await signup(server.url, { email: staffEmail })).token;
  });
  after(async () => {
    await server.close();
  });

  /** The mails the service wrote for `to` (the file sink under DATA_DIR), after running due jobs. */
  async function mailsTo(to: string): Promise<string[]> {
    await runJobs(server, { topic: 'account.publishing_decision' });
    const dir = join(server.dataDir, 'mail');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .map((n) =>
        readFileSync(join(dir, n), 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=3D/gi, '='),
      )
      .filter((t) => t.toLowerCase().includes(to.toLowerCase()) && /publish live events/.test(t));
  }

  it('a brand-new account completes a test-mode paid booking on its own event, with no staff involved', async () => {
    // No verification, no grant: a new account and its test key.
    const account = await signup(server.url, { verified: false });
    const { key } = await createKey(server.url, account.token, { mode: 'test', class: 'full' });
    const api = keyApi(server.url, key);
    const published = await createEventData(
      api,
      {
        title: 'First Workshop',
        description: 'Trying it out.',
        startDate: '2030-02-01',
        price: 750,
        capacity: 20,
      },
      { publish: true },
    );
    assert.equal(published.status, 'published');
    const id = published.id;

    const step1 = await call(server.url, 'POST', `/api/v1/events/${id}/register`, {
      key,
      body: { name: 'Meera Iyer', email: 'meera@example.in' },
    });
    assert.equal(step1.status, 201, step1.text);
    assert.equal(step1.body.amount, 75_000);
    const paymentId = await payInSandbox(api, step1.body.orderId);
    const step2 = await call(server.url, 'POST', `/api/v1/events/${id}/register`, {
      key,
      body: { registrationId: step1.body.registrationId, orderId: step1.body.orderId, paymentId },
    });
    assert.equal(step2.status, 200, step2.text);
    const reg = await call(
      server.url,
      'GET',
      `/api/v1/events/${id}/registrations/${step1.body.registrationId}`,
      { key },
    );
    assert.equal(reg.body.data?.status ?? reg.body.status, 'confirmed');

    const me = await call(server.url, 'GET', '/api/v1/me', { key });
    assert.equal(me.body.canPublish, false, 'nobody granted anything');
    assert.equal(me.body.emailVerified, false);
    const requests = await call(server.url, 'GET', '/admin/api/publishing-requests?status=granted', {
      token: staffToken,
    });
    assert.equal(
      requests.body.data.filter((r: { account: { userId: string } }) => r.account.userId === account.userId)
        .length,
      0,
    );
  });

  it('a paid live event is not published without live payments, and a buyer never reads a setting’s name', async () => {
    const account = await signup(server.url);
    const live = await createKey(server.url, account.token, { mode: 'live' });
    assert.equal(
      (
        await call(server.url, 'POST', `/admin/api/accounts/${account.userId}/organiser-access`, {
          token: staffToken,
          body: { canPublish: true },
        })
      ).status,
      200,
    );
    const ev = await createEventData(keyApi(server.url, live.key), {
      title: 'Paid Live Gig',
      startDate: '2030-05-01',
      price: 300,
    });
    const refused = await call(server.url, 'PATCH', `/api/v1/events/${ev.id}`, {
      key: live.key,
      body: { status: 'published' },
    });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'payments_not_configured');
    assert.doesNotMatch(refused.body.error, /RAZORPAY|KEY_ID|KEY_SECRET/);
    // Published before the keys went away: the hosted page's booking answers a buyer in plain words.
    await forcePublished(server, ev.id);
    const booking = await call(server.url, 'POST', `/e/${ev.slug}/register`, {
      body: { name: 'Buyer', email: uniqueEmail('buyer') },
      headers: { origin: server.url },
    });
    assert.equal(booking.status, 409, booking.text);
    assert.equal(booking.body.code, 'payments_not_configured');
    assert.equal(
      booking.body.error,
      'online payments are not available for this event at the moment; please contact the organiser',
    );
    const hosted = await call(server.url, 'GET', `/e/${ev.slug}`);
    assert.doesNotMatch(hosted.text, /RAZORPAY_|KEY_SECRET|not configured/);
  });

  it('asks for publishing access; staff see it with the account’s facts and decline it with a reason; the organiser is mailed', async () => {
    const account = await signup(server.url, { name: 'Kavya Organiser' });
    const live = await createKey(server.url, account.token, { mode: 'live' });
    const ev = await createEvent(keyApi(server.url, live.key), {
      title: 'Free Meetup',
      startDate: '2030-03-01',
    });
    assert.equal(
      (
        await call(server.url, 'PATCH', `/api/v1/events/${ev}`, {
          key: live.key,
          body: { status: 'published' },
        })
      ).status,
      403,
      'a live event needs the grant',
    );

    assert.equal(
      (
        await call(server.url, 'POST', '/dashboard/api/publishing-access', {
          token: account.token,
          body: { message: '' },
        })
      ).status,
      400,
    );
    const asked = await call(server.url, 'POST', '/dashboard/api/publishing-access', {
      token: account.token,
      body: { message: 'I run the Kochi JS meetup, about 80 people a month.' },
    });
    assert.equal(asked.status, 201, asked.text);
    assert.equal(asked.body.data.status, 'pending');
    const again = await call(server.url, 'POST', '/dashboard/api/publishing-access', {
      token: account.token,
      body: { message: 'Please?' },
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'publishing_request_pending');

    assert.equal(
      (await call(server.url, 'GET', '/admin/api/publishing-requests', { token: account.token })).status,
      403,
      'staff only',
    );
    const list = await call(server.url, 'GET', '/admin/api/publishing-requests', { token: staffToken });
    assert.equal(list.status, 200, list.text);
    const mine = list.body.data.find((r: { id: string }) => r.id === asked.body.data.id);
    assert.ok(mine, 'the pending request is listed');
    assert.equal(mine.message, 'I run the Kochi JS meetup, about 80 people a month.');
    assert.deepEqual(
      {
        email: mine.account.email,
        name: mine.account.name,
        emailVerified: mine.account.emailVerified,
        canPublish: mine.account.canPublish,
        events: mine.account.events,
      },
      {
        email: account.email,
        name: 'Kavya Organiser',
        emailVerified: true,
        canPublish: false,
        events: { test: 0, live: 1 },
      },
    );

    assert.equal(
      (
        await call(server.url, 'POST', `/admin/api/publishing-requests/${asked.body.data.id}/decline`, {
          token: staffToken,
          body: {},
        })
      ).status,
      400,
      'a decline needs a reason',
    );
    const declined = await call(
      server.url,
      'POST',
      `/admin/api/publishing-requests/${asked.body.data.id}/decline`,
      { token: staffToken, body: { reason: 'Please add a link to the meetup page.' } },
    );
    assert.equal(declined.status, 200, declined.text);
    assert.equal(declined.body.data.status, 'declined');
    assert.equal(declined.body.data.reason, 'Please add a link to the meetup page.');
    const twice = await call(
      server.url,
      'POST',
      `/admin/api/publishing-requests/${asked.body.data.id}/grant`,
      { token: staffToken },
    );
    assert.equal(twice.status, 409);
    assert.equal(twice.body.code, 'publishing_request_decided');
    assert.equal(
      (
        await call(server.url, 'POST', '/admin/api/publishing-requests/pubreq_nope/grant', {
          token: staffToken,
        })
      ).status,
      404,
    );

    const mails = await mailsTo(account.email);
    assert.equal(mails.length, 1);
    assert.match(mails[0]!, /declined/);
    assert.match(mails[0]!, /Please add a link to the meetup page\./);
    const mine2 = await call(server.url, 'GET', '/dashboard/api/publishing-access', { token: account.token });
    assert.equal(mine2.body.canPublish, false);
    assert.equal(mine2.body.requests[0].reason, 'Please add a link to the meetup page.');
    assert.equal(
      (
        await call(server.url, 'PATCH', `/api/v1/events/${ev}`, {
          key: live.key,
          body: { status: 'published' },
        })
      ).status,
      403,
    );
  });

  it('asks again after a decline; a grant lets the account publish live events at once and mails it', async () => {
    const account = await signup(server.url);
    const live = await createKey(server.url, account.token, { mode: 'live' });
    const first = await call(server.url, 'POST', '/dashboard/api/publishing-access', {
      token: account.token,
      body: { message: 'Workshops in Pune.' },
    });
    await call(server.url, 'POST', `/admin/api/publishing-requests/${first.body.data.id}/decline`, {
      token: staffToken,
      body: { reason: 'Tell us more.' },
    });
    const second = await call(server.url, 'POST', '/dashboard/api/publishing-access', {
      token: account.token,
      body: { message: 'Workshops in Pune: https://example.in/workshops' },
    });
    assert.equal(second.status, 201, second.text);

    const granted = await call(
      server.url,
      'POST',
      `/admin/api/publishing-requests/${second.body.data.id}/grant`,
      { token: staffToken },
    );
    assert.equal(granted.status, 200, granted.text);
    assert.equal(granted.body.data.status, 'granted');
    const ev = await createEvent(keyApi(server.url, live.key), {
      title: 'Pune Workshop',
      startDate: '2030-04-01',
    });
    assert.equal(
      (
        await call(server.url, 'PATCH', `/api/v1/events/${ev}`, {
          key: live.key,
          body: { status: 'published' },
        })
      ).status,
      200,
    );

    const mails = await mailsTo(account.email);
    assert.equal(mails.length, 2, 'one mail per decision');
    assert.ok(mails.some((m) => /You can now publish live events/.test(m)));
    const more = await call(server.url, 'POST', '/dashboard/api/publishing-access', {
      token: account.token,
      body: { message: 'And again.' },
    });
    assert.equal(more.status, 409);
    assert.equal(more.body.code, 'already_can_publish');

    // Both decisions are in the account's audit log (live mode), with the staff member as actor.
    const log = await call(server.url, 'GET', '/api/v1/audit-log?targetType=account', { key: live.key });
    assert.equal(log.status, 200, log.text);
    const decisions = (
      log.body.data as {
        action: string;
        actor: { kind: string; display: string };
        after: Record<string, unknown>;
      }[]
    )
      .filter((e) => e.action.startsWith('account.publishing_request_'))
      .map((e) => [e.action, e.actor.kind, e.actor.display, e.after.publishingRequest]);
    assert.deepEqual(decisions, [
      ['account.publishing_request_grant', 'staff', staffEmail, 'granted'],
      ['account.publishing_request_decline', 'staff', staffEmail, 'declined'],
    ]);
  });
});
