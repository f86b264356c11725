import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, organiser, signup, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi, organiserWithEvent } from '../helpers/factories.js';
import { pendingJobs } from '../helpers/rows.js';
import { startSmtp, type SmtpSink } from '../helpers/smtp.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('broadcast (test mode)', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let eventId: string;
  const people: { name: string; email: string }[] = [];

  before(async () => {
    server = await startServer({ env: { BROADCAST_MAX_RECIPIENTS: '8' } });
    ({ org, eventId } = await organiserWithEvent(server.url, {
      title: 'Broadcast night',
      maxTeamSize: 2,
      tracks: [{ title: 'A' }],
    }));
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
      if (i === 1)
        await api('POST', `/api/v1/events/${eventId}/check-in`, { registrationId: r.body.registrationId });
    }
  });
  after(async () => {
    await server.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const send = (body: Record<string, unknown>) =>
    api('POST', `/api/v1/events/${eventId}/broadcast`, { subject: 'Doors at 7', message: 'Hello', ...body });

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
    assert.match(r.body.broadcastId, /^bc_/);
    assert.deepEqual(r.body, {
      dryRun: false,
      sent: 5,
      failed: 0,
      recipientCount: 5,
      broadcastId: r.body.broadcastId,
    });
    const mails = (await api('GET', '/api/v1/sandbox/emails')).body.data.slice(0, 5);
    assert.equal((await api('GET', '/api/v1/sandbox/emails')).body.count, before + 5);
    assert.deepEqual(
      mails.map((m: any) => m.to.length),
      [1, 1, 1, 1, 1],
      'one mail per recipient',
    );
    assert.deepEqual(new Set(mails.map((m: any) => m.to[0])), new Set(people.map((p) => p.email)));
    assert.ok(
      mails.every((m: any) => m.subject === 'Doors at 7' && m.text.startsWith('Line one\nLine two <b>')),
    );

    // A retried request is the same broadcast: nobody gets a second copy.
    const again = await send({
      dryRun: false,
      confirmedRecipientCount: 5,
      message: 'Line one\nLine two <b>',
    });
    assert.equal(again.status, 200);
    assert.equal(again.body.broadcastId, r.body.broadcastId);
    assert.equal((await api('GET', '/api/v1/sandbox/emails')).body.count, before + 5);
    const progress = await api('GET', `/api/v1/events/${eventId}/broadcasts/${r.body.broadcastId}`);
    assert.equal(progress.status, 200, progress.text);
    assert.deepEqual(
      [
        progress.body.data.recipientCount,
        progress.body.data.delivered,
        progress.body.data.queued,
        progress.body.data.failed,
        progress.body.data.done,
      ],
      [5, 5, 0, 0, true],
    );
    // A new Idempotency-Key makes a deliberate repeat a new broadcast.
    const deliberate = await call(server.url, 'POST', `/api/v1/events/${eventId}/broadcast`, {
      key: org.key,
      headers: { 'idempotency-key': 'second-time' },
      body: {
        subject: 'Doors at 7',
        message: 'Line one\nLine two <b>',
        dryRun: false,
        confirmedRecipientCount: 5,
      },
    });
    assert.notEqual(deliberate.body.broadcastId, r.body.broadcastId);
    assert.equal((await api('GET', '/api/v1/sandbox/emails')).body.count, before + 10);
    const other = await createEvent(api, { title: 'Other' });
    assert.equal((await api('GET', `/api/v1/events/${other}/broadcasts/${r.body.broadcastId}`)).status, 404);
  });

  it('answers 413 above BROADCAST_MAX_RECIPIENTS', async () => {
    const big = await createEvent(api, { title: 'Big' });
    for (let i = 0; i < 9; i++)
      await api('POST', `/api/v1/events/${big}/register`, { name: `P${i}`, email: uniqueEmail('big') });
    const r = await api('POST', `/api/v1/events/${big}/broadcast`, { subject: 's', message: 'm' });
    assert.equal(r.status, 413);
    assert.equal(r.body.code, 'too_many_recipients');
  });

  it('is for full keys only', async () => {
    const checkout = await call(server.url, 'POST', '/dashboard/api/keys', {
      token: org.token,
      body: { mode: 'test', class: 'checkout' },
    });
    const r = await api(
      'POST',
      `/api/v1/events/${eventId}/broadcast`,
      { subject: 's', message: 'm' },
      checkout.body.key,
    );
    assert.equal(r.status, 403);
  });
});

describe('broadcast (live mode, through SMTP)', () => {
  let server: TestServer;
  let smtp: SmtpSink;
  let org: Account & KeyInfo;
  let eventId: string;
  const staffEmail = uniqueEmail('staff');
  const attendees: string[] = [];

  before(async () => {
    smtp = await startSmtp();
    // Its own database: the broadcast jobs must run with this server's SMTP settings.
    server = await startServer({
      isolatedDatabase: true,
      env: { SMTP_URL: smtp.url, STAFF_EMAILS: staffEmail },
    });
    org = await organiser(server.url, 'live');
    const staff = await signup(server.url, { email: staffEmail });
    await call(server.url, 'POST', `/admin/api/accounts/${org.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
    const api = keyApi(
      () => server.url,
      () => org.key,
    );
    eventId = await createEvent(api, { title: 'Live <b>night</b>', maxTeamSize: 2 }, { publish: true });
    for (let i = 0; i < 3; i++) {
      const email = uniqueEmail(`live${i}`);
      attendees.push(email);
      const body: Record<string, unknown> = { name: `P${i}`, email };
      if (i === 2) {
        const member = uniqueEmail('member');
        attendees.push(member);
        body.teamMembers = [{ name: 'Member', email: member }];
      }
      assert.equal((await api('POST', `/api/v1/events/${eventId}/register`, body)).status, 201);
    }
  });
  after(async () => {
    await server.close();
    await smtp.close();
  });

  const sendNow = (subject: string, message = 'm') =>
    call(server.url, 'POST', `/api/v1/events/${eventId}/broadcast`, {
      key: org.key,
      body: { subject, message, dryRun: false, confirmedRecipientCount: 4 },
    });
  const progress = async (broadcastId: string) =>
    (await call(server.url, 'GET', `/api/v1/events/${eventId}/broadcasts/${broadcastId}`, { key: org.key }))
      .body.data;
  /** Runs the mail jobs (moving the clock over their back-off) until no mail is queued. */
  async function deliver(broadcastId: string) {
    for (let i = 0; i < 40 && !(await progress(broadcastId)).done; i++) {
      await server.deps.jobs.runOnce();
      server.clock.advance(2_000);
    }
    return progress(broadcastId);
  }

  it('queues one mail per attendee in the request and delivers each, addressed to that attendee alone, with text and escaped HTML', async () => {
    const preview = await call(server.url, 'POST', `/api/v1/events/${eventId}/broadcast`, {
      key: org.key,
      body: { subject: 'Gate change', message: 'Use gate 2.\n<script>x</script>' },
    });
    assert.equal(preview.body.recipientCount, 4);
    const r = await sendNow('Gate change', 'Use gate 2.\n<script>x</script>');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {
      dryRun: false,
      sent: 4,
      failed: 0,
      recipientCount: 4,
      broadcastId: r.body.broadcastId,
    });
    assert.equal(
      smtp.messages.filter((m) => m.subject === 'Gate change').length,
      0,
      'nothing is sent inside the request',
    );
    assert.deepEqual((await progress(r.body.broadcastId)).queued, 4);
    const p = await deliver(r.body.broadcastId);
    assert.deepEqual([p.delivered, p.failed, p.queued, p.done], [4, 0, 0, true]);
    const mails = smtp.messages.filter((m) => m.subject === 'Gate change');
    assert.equal(mails.length, 4);
    assert.deepEqual(new Set(mails.map((m) => m.envelopeTo.join(','))), new Set(attendees));
    for (const m of mails) {
      assert.equal(m.envelopeTo.length, 1, 'one recipient per mail');
      assert.equal((m.to as { value: unknown[] }).value.length, 1, 'no visible list of others');
      assert.equal(m.cc, undefined);
      assert.ok(m.text!.startsWith('Use gate 2.\n<script>x</script>'), 'line breaks kept in the text part');
      assert.ok(String(m.html).includes('Use gate 2.<br>'));
      assert.ok(!String(m.html).includes('<script>'), 'the HTML part is escaped');
    }
    // The request retried (a client timeout): the same broadcast, nobody mailed twice.
    const again = await sendNow('Gate change', 'Use gate 2.\n<script>x</script>');
    assert.equal(again.body.broadcastId, r.body.broadcastId);
    await deliver(r.body.broadcastId);
    for (let i = 0; i < 5; i++) await server.deps.jobs.runOnce();
    assert.equal(smtp.messages.filter((m) => m.subject === 'Gate change').length, 4);
  });

  it('answers at once while SMTP is down, and delivers each mail once when it is back', async () => {
    await smtp.close();
    const r = await sendNow('Down then up');
    assert.equal(r.status, 200);
    assert.deepEqual([r.body.sent, r.body.failed, r.body.recipientCount], [4, 0, 4]);
    for (let i = 0; i < 3; i++) await server.deps.jobs.runOnce();
    let p = await progress(r.body.broadcastId);
    assert.deepEqual([p.queued, p.delivered, p.failed], [4, 0, 0], 'still queued, retried later');
    const jobs = await pendingJobs(server, 'broadcast.mail');
    assert.ok(jobs.length >= 4 && jobs.every((j) => j.attempts >= 1 && j.last_error !== null));
    smtp = await startSmtp(smtp.port);
    server.clock.advance(10 * 60_000);
    p = await deliver(r.body.broadcastId);
    assert.deepEqual([p.delivered, p.failed, p.queued], [4, 0, 0]);
    const mails = smtp.messages.filter((m) => m.subject === 'Down then up');
    assert.equal(mails.length, 4);
    assert.deepEqual(new Set(mails.map((m) => m.envelopeTo[0])), new Set(attendees));
  });

  it('never mails twice a recipient whose attempt stopped mid-send (a crash), and refuses nobody else', async () => {
    const r = await sendNow('Crash mid-send');
    // A worker marked this recipient as being sent and died before recording the result.
    await server.deps.db
      .updateTable('broadcast_recipients')
      .set({ status: 'sending' })
      .where('broadcast_id', '=', r.body.broadcastId)
      .where('email', '=', attendees[0]!)
      .execute();
    const p = await deliver(r.body.broadcastId);
    assert.deepEqual([p.delivered, p.failed, p.queued], [3, 1, 0]);
    const mails = smtp.messages.filter((m) => m.subject === 'Crash mid-send');
    assert.equal(mails.length, 3);
    assert.ok(!mails.some((m) => m.envelopeTo[0] === attendees[0]));
  });
});
