// What the ticket mail tells the buyer (docs/decisions/16-the-buyers-ticket.md), read back over SMTP with a
// mail parser: the date in words in the event's time zone, what was paid (or "free"), a
// receipt line, an .ics attachment a calendar parser accepts (UID = the ticket id, the
// venue, a one-hour alarm) and the link to the attendee's own page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import ICAL from 'ical.js';
import type { ParsedMail } from 'mailparser';
import { attendeeTokenMatches, attendeeTokenRegistration } from '../../src/lib/attendee-token.js';
import { call, organiser, signup, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { gatewayEnv, startRazorpayEmulator, type RazorpayEmulator } from '../helpers/razorpay-emulator.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';
import { startSmtp, type SmtpSink } from '../helpers/smtp.js';

const creds = { keyId: 'rzp_live_MailContent01', keySecret: 'mailcontentsecret000001' };

describe('the ticket mail, as the buyer reads it', () => {
  let rzp: RazorpayEmulator;
  let smtp: SmtpSink;
  let server: TestServer;
  let org: Account & KeyInfo;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    rzp = await startRazorpayEmulator(creds);
    smtp = await startSmtp();
    server = await startServer({
      isolatedDatabase: true,
      env: {
        ...gatewayEnv(rzp, creds),
        SMTP_URL: smtp.url,
        STAFF_EMAILS: staffEmail,
        BASE_URL: 'https://tickets.example.in',
      },
    });
    org = await organiser(server.url, 'live');
    const staff = await signup(server.url, { email: staffEmail });
    await call(server.url, 'POST', `/admin/api/accounts/${org.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
  });
  after(async () => {
    await server.close();
    await smtp.close();
    await rzp.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const liveEvent = (fields: Record<string, unknown>) =>
    createEvent(
      api,
      {
        title: 'Monsoon Meetup',
        description: 'Talks',
        location: 'Hall 3, Bengaluru',
        startDate: '2026-12-12T10:00+05:30',
        endDate: '2026-12-12T17:30+05:30',
        maxTeamSize: 3,
        ...fields,
      },
      { publish: true },
    );
  async function mailTo(email: string): Promise<ParsedMail> {
    await drainJobs(server, async () => smtp.messages.some((m) => m.envelopeTo.includes(email)));
    return smtp.messages.find((m) => m.envelopeTo.includes(email))!;
  }
  function calendarOf(mail: ParsedMail) {
    const file = mail.attachments.find((a) => a.filename === 'event.ics');
    assert.ok(file, 'an .ics attachment');
    assert.match(file!.contentType, /^text\/calendar/);
    const vevent = new ICAL.Component(ICAL.parse(file!.content.toString('utf8'))).getFirstSubcomponent(
      'vevent',
    )!;
    return { vevent, event: new ICAL.Event(vevent) };
  }

  it('a paid booking: the date in words, the amount, a receipt, the calendar file and the attendee page', async () => {
    const eventId = await liveEvent({ price: 499 });
    const buyer = uniqueEmail('buyer');
    const member = uniqueEmail('member');
    const s = (
      await api('POST', `/api/v1/events/${eventId}/register`, {
        name: 'Asha Rao',
        email: buyer,
        teamMembers: [{ name: 'Ravi Rao', email: member }],
      })
    ).body;
    const payment = rzp.pay(s.orderId);
    const confirmed = await api('POST', `/api/v1/events/${eventId}/register`, {
      registrationId: s.registrationId,
      orderId: s.orderId,
      paymentId: payment.id,
    });
    assert.equal(confirmed.status, 200, confirmed.text);

    const mail = await mailTo(buyer);
    const text = mail.text!;
    assert.match(text, /^Date: Sat 12 Dec 2026, 10:00 am – 5:30 pm IST$/m);
    assert.doesNotMatch(text, /2026-12-12T/, 'no machine timestamps');
    assert.match(text, /^Amount paid: ₹998 for 2 people$/m);
    assert.match(
      text,
      new RegExp(
        `^Receipt: ₹998 received on \\d+ \\w+ 20\\d\\d for booking ${s.registrationId}, payment ${payment.id}\\.`,
        'm',
      ),
    );
    assert.ok(String(mail.html).includes('Sat 12 Dec 2026, 10:00 am – 5:30 pm IST'));

    const { vevent, event } = calendarOf(mail);
    assert.equal(event.uid, s.registrationId, 'UID is the ticket id');
    assert.equal(event.summary, 'Monsoon Meetup');
    assert.equal(event.location, 'Hall 3, Bengaluru');
    assert.equal(event.startDate.toJSDate().toISOString(), '2026-12-12T04:30:00.000Z');
    assert.equal(event.endDate.toJSDate().toISOString(), '2026-12-12T12:00:00.000Z');
    assert.equal(String(vevent.getFirstSubcomponent('valarm')!.getFirstPropertyValue('trigger')), '-PT1H');

    const link =
      /^Your ticket page \(transfer or cancel where the organiser allows\): (https:\/\/tickets\.example\.in\/t\/(\S+))$/m.exec(
        text,
      );
    assert.ok(link, text);
    const token = link![2]!;
    assert.equal(attendeeTokenRegistration(token), s.registrationId);
    assert.ok(
      attendeeTokenMatches(server.deps.config.secretsKey, token, s.registrationId, s.registrationId),
      'a token for this booking and its current ticket id',
    );
    assert.notEqual(token, s.registrationId, 'the link is not the ticket id');

    // The team member's own ticket: the amount as part of the booking, no receipt, their own UID.
    const theirs = await mailTo(member);
    assert.match(theirs.text!, /^Amount paid: paid with the team booking \(₹998 for 2 people\)$/m);
    assert.doesNotMatch(theirs.text!, /^Receipt:/m);
    const ticketIds = (
      await api('GET', `/api/v1/events/${eventId}/registrations/${s.registrationId}`)
    ).body.data.teamMembers.map((m: { id: string }) => m.id);
    assert.equal(calendarOf(theirs).event.uid, ticketIds[0]);
  });

  it('a free booking says "free" and carries no receipt; a bare date is a whole-day entry', async () => {
    const eventId = await liveEvent({ startDate: '2026-12-19', endDate: '2026-12-20' });
    const email = uniqueEmail('free');
    const r = await api('POST', `/api/v1/events/${eventId}/register`, { name: 'Free Buyer', email });
    assert.equal(r.status, 201, r.text);
    const mail = await mailTo(email);
    assert.match(mail.text!, /^Amount: free$/m);
    assert.match(mail.text!, /^Date: Sat 19 Dec 2026 – Sun 20 Dec 2026$/m);
    assert.doesNotMatch(mail.text!, /^Receipt:/m);
    const { event } = calendarOf(mail);
    assert.equal(event.uid, r.body.registrationId);
    assert.equal(event.startDate.isDate, true);
    assert.equal(event.startDate.toString(), '2026-12-19');
    assert.equal(event.endDate.toString(), '2026-12-21');
  });
});
