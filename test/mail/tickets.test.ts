import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { simpleParser } from 'mailparser';
import { MailRefusedError } from '../../src/modules/mail/mailer.js';
import { createMailer } from '../../src/modules/mail/transports.js';
import { renderTicketMail } from '../../src/modules/tickets/ticket-mail.js';
import { call, organiser, signup, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { jobsOf } from '../helpers/rows.js';
import { decodeQr } from '../helpers/qr.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';
import { startSmtp, type SmtpSink } from '../helpers/smtp.js';
import { freePort } from '../helpers/process.js';

describe('ticket mail', () => {
  it('renders the event, escapes HTML, and carries a QR of the bare ticket id inline and attached', async () => {
    const mail = renderTicketMail({
      event: {
        title: 'Jazz <script>alert(1)</script>',
        startDate: '2026-12-05',
        endDate: null,
        location: 'Blue Frog & Co',
      },
      holder: { name: 'Asha "A" Rao', email: 'asha@example.in' },
      ticketId: 'reg_abcdefghijklmnopqrstuv',
      ticketType: 'VIP',
      baseUrl: 'http://localhost:3000',
      timeZone: 'Asia/Kolkata',
      booking: {
        id: 'reg_abcdefghijklmnopqrstuv',
        quantity: 1,
        amountPaise: 0,
        currency: 'INR',
        paymentId: null,
        confirmedAt: null,
      },
      now: new Date(),
    });
    assert.match(mail.subject, /Jazz/);
    assert.ok(!mail.html!.includes('<script>'));
    assert.ok(mail.html!.includes('Blue Frog &amp; Co'));
    assert.ok(
      mail.text.includes('Sat 5 Dec 2026') &&
        mail.text.includes('VIP') &&
        mail.text.includes('Blue Frog & Co'),
    );
    const png = mail.attachments![0]!;
    assert.equal(png.filename, 'ticket-reg_abcdefghijklmnopqrstuv.png');
    assert.ok(mail.html!.includes(`cid:${png.cid}`));
    assert.equal(decodeQr(png.content), 'reg_abcdefghijklmnopqrstuv');
  });

  it('writes an .eml file per mail when no SMTP server is configured', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'mail-'));
    const mailer = createMailer({ mailFrom: 'tickets@localhost', dataDir: dir });
    const mail = renderTicketMail({
      event: { title: 'Eml', startDate: '2026-12-05', endDate: null, location: null },
      holder: { name: 'N', email: 'n@example.in' },
      ticketId: 'reg_eml',
      ticketType: 'General',
      baseUrl: 'x',
      timeZone: 'Asia/Kolkata',
      booking: {
        id: 'reg_eml',
        quantity: 1,
        amountPaise: 0,
        currency: 'INR',
        paymentId: null,
        confirmedAt: null,
      },
      now: new Date(),
    });
    await mailer.send(mail);
    const files = readdirSync(join(dir, 'mail')).filter((f) => f.endsWith('.eml'));
    assert.equal(files.length, 1);
    const parsed = await simpleParser(readFileSync(join(dir, 'mail', files[0]!)));
    assert.equal(parsed.subject, 'Your ticket: Eml');
    assert.equal(decodeQr(parsed.attachments[0]!.content), 'reg_eml');
  });

  it('fails fast when the SMTP server is down', async () => {
    const port = await freePort();
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      mailFrom: 'tickets@localhost',
      dataDir: '/tmp',
    });
    // Fast by what it fails on: the refused connect itself, with no greeting or socket
    // timeout waited out, and not as a refusal of the recipient (the job is retried).
    await assert.rejects(
      mailer.send({ to: 'x@example.in', subject: 's', text: 't' }),
      (err: Error & { code?: string; syscall?: string; command?: string }) => {
        assert.ok(!(err instanceof MailRefusedError), 'a transient failure, not a refusal');
        assert.deepEqual([err.code, err.syscall, err.command], ['ESOCKET', 'connect', 'CONN']);
        assert.match(err.message, /ECONNREFUSED/);
        return true;
      },
    );
    await mailer.close();
  });
});

describe('ticket emails over SMTP (live mode)', () => {
  let server: TestServer;
  let smtp: SmtpSink;
  let org: Account & KeyInfo;
  let eventId: string;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    smtp = await startSmtp();
    server = await startServer({
      isolatedDatabase: true,
      env: { SMTP_URL: smtp.url, STAFF_EMAILS: staffEmail, MAIL_FROM: 'tickets@organiser.in' },
    });
    org = await organiser(server.url, 'live');
    const staff = await signup(server.url, { email: staffEmail });
    await call(server.url, 'POST', `/admin/api/accounts/${org.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
    eventId = await createEvent(
      keyApi(server.url, org.key),
      { title: 'Live gig', startDate: '2026-12-05', location: 'Bandra', maxTeamSize: 3 },
      { publish: true },
    );
  });
  after(async () => {
    await server.close();
    await smtp.close();
  });

  it('mails one ticket per person, each QR decoding to that person’s own id', async () => {
    const primary = uniqueEmail('primary');
    const members = [
      { name: 'Member One', email: uniqueEmail('m1') },
      { name: 'Member Two', email: uniqueEmail('m2') },
    ];
    const r = await call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
      key: org.key,
      body: { name: 'Primary', email: primary, teamMembers: members },
    });
    assert.equal(r.status, 201, r.text);
    const before = smtp.messages.length;
    await drainJobs(server, async () => smtp.messages.length >= before + 3);
    const got = smtp.messages.slice(before);
    assert.equal(got.length, 3);
    const byRecipient = new Map(got.map((m) => [m.envelopeTo[0], m]));
    const expected = new Map([
      [primary, r.body.ticketIds[0]],
      [members[0]!.email, r.body.ticketIds[1]],
      [members[1]!.email, r.body.ticketIds[2]],
    ]);
    for (const [email, ticketId] of expected) {
      const m = byRecipient.get(email);
      assert.ok(m, `mail for ${email}`);
      assert.deepEqual(m!.envelopeTo, [email], 'one recipient per mail');
      assert.equal(m!.subject, 'Your ticket: Live gig');
      assert.ok(m!.text!.includes('Bandra'), m!.text);
      const png = m!.attachments.find((a) => a.contentType === 'image/png');
      assert.ok(png);
      assert.equal(decodeQr(png!.content), ticketId);
      // mailparser turns the HTML's cid: reference into a data: URI of the related part.
      assert.equal(png!.related, true, 'the QR is an inline (related) part');
      assert.ok(String(m!.html).includes('data:image/png'), 'the HTML shows the QR inline');
    }
  });

  it('delays mail through an SMTP outage and loses none', async () => {
    const port = smtp.port;
    await smtp.close();
    const r = await call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
      key: org.key,
      body: { name: 'Outage', email: uniqueEmail('outage') },
    });
    assert.equal(r.status, 201);
    await server.deps.jobs.runOnce();
    const [job] = await jobsOf(server, 'ticket.email', { attendeeId: r.body.registrationId });
    assert.ok(job, 'the ticket mail is queued');
    assert.equal(job.status, 'pending');
    assert.ok(job.attempts >= 1 && job.last_error, 'the failure is recorded and the job waits to retry');
    smtp = await startSmtp(port);
    server.clock.advance(60_000);
    await drainJobs(server, async () => smtp.messages.length >= 1);
    assert.equal(
      smtp.messages[0]!.envelopeTo[0],
      job.payload &&
        (
          await call(server.url, 'GET', `/api/v1/events/${eventId}/registrations/${r.body.registrationId}`, {
            key: org.key,
          })
        ).body.data.email,
    );
  });

  it('sends no ticket mail for an event whose ticket emails staff switched off', async () => {
    const staffLogin = await call(server.url, 'POST', '/auth/login', {
      body: { email: staffEmail, password: 'correct horse battery' },
    });
    const off = await call(server.url, 'POST', `/admin/api/events/${eventId}/ticket-emails`, {
      token: staffLogin.body.idToken,
      body: { enabled: false },
    });
    assert.equal(off.status, 200);
    assert.equal(
      (await call(server.url, 'GET', `/api/v1/events/${eventId}`, { key: org.key })).body.data
        .ticketEmailsEnabled,
      false,
    );
    const before = smtp.messages.length;
    await call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
      key: org.key,
      body: { name: 'Quiet', email: uniqueEmail('quiet') },
    });
    for (let i = 0; i < 5; i++) await server.deps.jobs.runOnce();
    assert.equal(smtp.messages.length, before);
    await call(server.url, 'POST', `/admin/api/events/${eventId}/ticket-emails`, {
      token: staffLogin.body.idToken,
      body: { enabled: true },
    });
  });
});

describe('ticket emails in test mode', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.close();
  });

  it('keeps the mail for GET /api/v1/sandbox/emails instead of sending it', async () => {
    const org = await organiser(server.url);
    const eventId = await createEvent(keyApi(server.url, org.key), {
      title: 'Sandbox gig',
      startDate: '2026-12-05',
    });
    const email = uniqueEmail('sbx');
    const r = await call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
      key: org.key,
      body: { name: 'S', email },
    });
    await drainJobs(
      server,
      async () => (await call(server.url, 'GET', '/api/v1/sandbox/emails', { key: org.key })).body.count > 0,
    );
    const mails = (await call(server.url, 'GET', '/api/v1/sandbox/emails', { key: org.key })).body.data;
    assert.equal(mails.length, 1);
    assert.deepEqual(mails[0].to, [email]);
    assert.equal(mails[0].subject, 'Your ticket: Sandbox gig');
    assert.deepEqual(mails[0].attachments, [`ticket-${r.body.registrationId}.png`, 'event.ics']);
    const live = await call(server.url, 'POST', '/dashboard/api/keys', {
      token: org.token,
      body: { mode: 'live', class: 'full' },
    });
    assert.equal(
      (await call(server.url, 'GET', '/api/v1/sandbox/emails', { key: live.body.key })).status,
      403,
      'sandbox routes are for test keys',
    );
  });
});
