// WhatsApp tickets (docs/decisions/16-the-buyers-ticket.md), over HTTP against a real server and the Cloud
// API emulator (helpers/whatsapp-emulator.ts) on loopback: the ticket goes out as the
// template with the QR as its header image and name, event and date as parameters; the
// emulator's signed status webhooks show on the registration; a badly signed webhook is
// refused and records nothing; a refusal is retried as the ticket mail is and ends as a
// dead job staff can see; without settings nothing is sent and nothing fails.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ticketEmailJob } from '../../src/modules/tickets/tickets.jobs.js';
import { whatsappTicketJob } from '../../src/modules/whatsapp/whatsapp.jobs.js';
import { call, organiser, signup, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { everyJob, jobsOf, runJobs } from '../helpers/rows.js';
import { decodeQr } from '../helpers/qr.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';
import { hubSign, startWhatsAppEmulator, type WhatsAppEmulator } from '../helpers/whatsapp-emulator.js';

const TOKEN = 'EAAGtestSystemUserToken';
const PHONE_NUMBER_ID = '106540352242922';
const APP_SECRET = 'whatsapp-app-secret';
const VERIFY_TOKEN = 'verify-me-please';
const TEMPLATE = 'ticket_confirmed';
const settings = (emulator: WhatsAppEmulator) => ({
  WHATSAPP_TOKEN: TOKEN,
  WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
  WHATSAPP_TEMPLATE: TEMPLATE,
  WHATSAPP_APP_SECRET: APP_SECRET,
  WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
  WHATSAPP_API_URL: emulator.url,
});

/** A live organiser with a published free event on this server. */
async function liveEvent(
  server: TestServer,
  staffEmail: string,
  mode: 'test' | 'live' = 'live',
): Promise<{ org: Account & KeyInfo; eventId: string }> {
  const org = await organiser(server.url, mode);
  const staff = await signup(server.url, { email: staffEmail });
  await call(server.url, 'POST', `/admin/api/accounts/${org.userId}/organiser-access`, {
    token: staff.token,
    body: { canPublish: true },
  });
  const fields = { title: 'Live gig — Pune', startDate: '2026-12-12T10:00:00+05:30', location: 'Bandra' };
  return {
    org,
    eventId: await createEvent(keyApi(server.url, org.key), fields, { publish: mode === 'live' }),
  };
}

describe('WhatsApp tickets', () => {
  let emulator: WhatsAppEmulator;
  let server: TestServer;
  let org: Account & KeyInfo;
  let eventId: string;
  const staffEmail = uniqueEmail('staff');

  const register = (body: Record<string, unknown>) =>
    call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
      key: org.key,
      body: { email: uniqueEmail('wa'), ...body },
    });
  const registration = async (id: string) =>
    (await call(server.url, 'GET', `/api/v1/events/${eventId}/registrations/${id}`, { key: org.key })).body
      .data;
  const job = async (registrationId: string) =>
    (await jobsOf(server, whatsappTicketJob.topic, { registrationId }))[0];
  const messageTo = (to: string) => emulator.messages.find((m) => m.to === to);
  /** A booking that opted in, and its message once the job has sent it. */
  const sent = async (phone: string, name = 'Asha Rao') => {
    const r = await register({ name, phone, whatsappOptIn: true });
    assert.equal(r.status, 201, r.text);
    const to = `+91${phone.replace(/\D/g, '').slice(-10)}`;
    await drainJobs(server, async () => messageTo(to) !== undefined);
    return { id: r.body.registrationId as string, message: messageTo(to)! };
  };

  before(async () => {
    emulator = await startWhatsAppEmulator({
      token: TOKEN,
      phoneNumberId: PHONE_NUMBER_ID,
      appSecret: APP_SECRET,
      templates: [{ name: TEMPLATE, language: 'en', header: 'image', body: ['name', 'event', 'date'] }],
    });
    server = await startServer({
      isolatedDatabase: true,
      env: { ...settings(emulator), STAFF_EMAILS: staffEmail },
    });
    emulator.setWebhook(`${server.url}/webhooks/whatsapp`);
    ({ org, eventId } = await liveEvent(server, staffEmail));
  });
  after(async () => {
    await server?.close();
    await emulator?.close();
  });

  it('sends the ticket as the template (QR header, name, event, date) and shows its delivery on the registration', async () => {
    const { id, message } = await sent('98123 45678');
    const reg = await registration(id);
    assert.equal(reg.phone, '+919812345678', 'stored in E.164');
    assert.equal(reg.whatsappOptIn, true);
    assert.equal(message.template, TEMPLATE);
    assert.equal(message.language, 'en');
    assert.deepEqual(message.params, {
      name: 'Asha Rao',
      event: 'Live gig — Pune',
      date: 'Sat 12 Dec 2026, 10:00 am IST',
    });
    const image = emulator.media.get(message.image.id!);
    assert.equal(image?.type, 'image/png');
    assert.equal(decodeQr(image!.bytes), id, 'the header image is the QR of the bare ticket id');
    assert.ok(
      message.opaque && !message.opaque.includes(id),
      'the callback data is the service’s own id, not the ticket id',
    );
    assert.equal(reg.channels[0].status, 'accepted');
    assert.equal((await job(id))?.status, 'done');

    const at = 1_796_000_000;
    assert.deepEqual(await emulator.sendStatuses(message.wamid, ['sent', 'delivered'], { at }), [200, 200]);
    assert.deepEqual((await registration(id)).channels, [
      { channel: 'whatsapp', status: 'delivered', at: new Date(at * 1000).toISOString(), errorCode: null },
    ]);
    // A late duplicate changes nothing; read moves it on.
    assert.deepEqual(
      await emulator.sendStatuses(message.wamid, ['sent', 'delivered'], { at: at + 5 }),
      [200, 200],
    );
    assert.equal((await registration(id)).channels[0].at, new Date(at * 1000).toISOString());
    await emulator.sendStatuses(message.wamid, ['read'], { at: at + 60 });
    assert.equal((await registration(id)).channels[0].status, 'read');
  });

  it('a failed status carries Meta’s code (the webhook body escapes non-ASCII, the signature holds)', async () => {
    const { id, message } = await sent('9000000002');
    const body = emulator.statusBody([{ wamid: message.wamid, status: 'failed', errorCode: 131026 }]);
    assert.match(body, /\\u2014/, 'non-ASCII sent escaped');
    assert.equal((await emulator.deliver(body))[0]!.status, 200);
    const [channel] = (await registration(id)).channels;
    assert.deepEqual([channel.status, channel.errorCode], ['failed', 131026]);
  });

  it('refuses a webhook whose X-Hub-Signature-256 does not hold (403 { error, code }) and records nothing', async () => {
    const { id, message } = await sent('9000000003');
    const body = emulator.statusBody([{ wamid: message.wamid, status: 'delivered' }]);
    for (const signature of [
      null,
      hubSign(body, 'not-the-secret'),
      hubSign(`${body} `, APP_SECRET),
      `sha256=${'0'.repeat(64)}`,
      'garbage',
    ]) {
      const [r] = await emulator.deliver(body, { signature });
      assert.equal(r!.status, 403, String(signature));
      assert.equal(r!.body.code, 'signature_not_verified');
      assert.equal(typeof r!.body.error, 'string');
    }
    assert.equal((await registration(id)).channels[0].status, 'accepted', 'nothing recorded');
    assert.equal((await emulator.deliver(body))[0]!.status, 200, 'the same body, signed, is taken');
    assert.equal((await registration(id)).channels[0].status, 'delivered');
  });

  it('answers Meta’s subscribe handshake only for its verify token', async () => {
    assert.deepEqual(await emulator.handshake(VERIFY_TOKEN, '1158201444'), {
      status: 200,
      text: '1158201444',
    });
    const wrong = await emulator.handshake('guess', '1158201444');
    assert.equal(wrong.status, 403);
    assert.equal(JSON.parse(wrong.text).code, 'verify_token_mismatch');
  });

  it('refuses opt-in without a phone and a phone that is neither E.164 nor Indian (400), writing nothing', async () => {
    const count = async () =>
      (await call(server.url, 'GET', `/api/v1/events/${eventId}/registrations?limit=1`, { key: org.key }))
        .body.count as number;
    const before = await count();
    for (const [body, code] of [
      [{ name: 'N', whatsappOptIn: true }, 'phone_required'],
      [{ name: 'N', phone: '  ', whatsappOptIn: true }, 'phone_required'],
      [{ name: 'N', phone: '12345', whatsappOptIn: true }, 'invalid_phone'],
      [{ name: 'N', phone: '+91 12345' }, 'invalid_phone'],
    ] as const) {
      const r = await register(body);
      assert.deepEqual([r.status, r.body.code], [400, code], JSON.stringify(body));
      assert.equal(typeof r.body.error, 'string');
    }
    assert.equal(await count(), before);
  });

  it('retries a refusal as the ticket mail is retried, and a refusal that lasts ends as a dead job staff see', async () => {
    assert.deepEqual(
      [whatsappTicketJob.maxAttempts, whatsappTicketJob.retryForMs],
      [ticketEmailJob.maxAttempts, ticketEmailJob.retryForMs],
      'the mail’s rules',
    );
    // A pair-rate refusal twice, then accepted.
    emulator.refuse('+919000000004', 131056, 2);
    const passing = await register({ name: 'Retry', phone: '+919000000004', whatsappOptIn: true });
    const delays: number[] = [];
    for (let i = 0; i < 10 && !messageTo('+919000000004'); i++) {
      await server.deps.jobs.runOnce();
      const row = (await job(passing.body.registrationId))!;
      if (row.status !== 'pending') continue;
      delays.push(row.run_at.getTime() - server.clock.now().getTime());
      if (delays.length === 1) {
        const [channel] = (await registration(passing.body.registrationId)).channels;
        assert.deepEqual(
          [channel.status, channel.errorCode],
          ['unsent', 131056],
          'the refusal shows on the registration',
        );
        assert.match(row.last_error ?? '', /131056/);
      }
      server.clock.advance(row.run_at.getTime() - server.clock.now().getTime());
    }
    assert.deepEqual(delays.slice(0, 2), [1000, 2000]);
    assert.equal((await registration(passing.body.registrationId)).channels[0].status, 'accepted');

    // An expired token, refused every time: back-off to an hour, for 72 hours, then dead.
    emulator.refuse('+919000000005', 190, Infinity, 401);
    const started = server.clock.now().getTime();
    const failing = await register({ name: 'Dead', phone: '+919000000005', whatsappOptIn: true });
    let row = (await job(failing.body.registrationId))!;
    for (let i = 0; i < 200 && row.status === 'pending'; i++) {
      await server.deps.jobs.runOnce();
      row = (await job(failing.body.registrationId))!;
      if (row.status === 'pending')
        server.clock.advance(Math.max(0, row.run_at.getTime() - server.clock.now().getTime()));
    }
    assert.equal(row.status, 'dead');
    assert.ok(server.clock.now().getTime() - started >= 72 * 3_600_000, 'retried for 72 hours');
    assert.ok(row.attempts > 10);
    assert.equal(
      emulator.calls.filter((c) => c.code === 190).length,
      row.attempts,
      'one refused send per attempt',
    );
    assert.equal(messageTo('+919000000005'), undefined);
    const [channel] = (await registration(failing.body.registrationId)).channels;
    assert.deepEqual([channel.status, channel.errorCode], ['unsent', 190]);
    const login = await call(server.url, 'POST', '/auth/login', {
      body: { email: staffEmail, password: 'correct horse battery' },
    });
    const dead = await call(server.url, 'GET', '/admin/api/jobs?status=dead', { token: login.body.idToken });
    const listed = dead.body.data.find((j: { id: string }) => j.id === row.id);
    assert.equal(listed?.topic, 'ticket.whatsapp');
    assert.match(listed?.lastError ?? '', /code 190/);
    assert.ok(!String(listed?.lastError).includes(TOKEN), 'the token never appears');
  });

  it('takes the opt-in from the hosted page’s register call too', async () => {
    const slug = (await call(server.url, 'GET', `/api/v1/events/${eventId}`, { key: org.key })).body.data
      .slug;
    const page = (body: Record<string, unknown>) =>
      call(server.url, 'POST', `/e/${slug}/register`, {
        body: { name: 'Page Buyer', email: uniqueEmail('page'), ...body },
        headers: { origin: server.url },
      });
    assert.deepEqual([(await page({ whatsappOptIn: true })).body.code], ['phone_required']);
    const r = await page({ phone: '9000000008', whatsappOptIn: true });
    assert.deepEqual([r.status, r.body.status], [201, 'confirmed']);
    await drainJobs(server, async () => messageTo('+919000000008') !== undefined);
    assert.equal(messageTo('+919000000008')!.params.name, 'Page Buyer');
  });

  it('sends nothing for a test-mode booking (as test mode sends no mail)', async () => {
    const test = await liveEvent(server, uniqueEmail('staff2'), 'test');
    const r = await call(server.url, 'POST', `/api/v1/events/${test.eventId}/register`, {
      key: test.org.key,
      body: { name: 'T', email: uniqueEmail('t'), phone: '9000000006', whatsappOptIn: true },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(await job(r.body.registrationId), undefined);
  });
});

describe('WhatsApp without settings', () => {
  let emulator: WhatsAppEmulator;
  let server: TestServer;
  const staffEmail = uniqueEmail('staff');
  before(async () => {
    emulator = await startWhatsAppEmulator({
      token: TOKEN,
      phoneNumberId: PHONE_NUMBER_ID,
      appSecret: APP_SECRET,
      templates: [],
    });
    server = await startServer({ isolatedDatabase: true, env: { STAFF_EMAILS: staffEmail } });
  });
  after(async () => {
    await server?.close();
    await emulator?.close();
  });

  it('books an opted-in buyer, sends no message, fails nothing, and verifies no webhook', async () => {
    const { org, eventId } = await liveEvent(server, staffEmail);
    const r = await call(server.url, 'POST', `/api/v1/events/${eventId}/register`, {
      key: org.key,
      body: { name: 'N', email: uniqueEmail('n'), phone: '9000000007', whatsappOptIn: true },
    });
    assert.equal(r.status, 201, r.text);
    await runJobs(server);
    const jobs = (await everyJob(server)).map((j) => ({ topic: j.topic, status: j.status }));
    assert.ok(
      jobs.every((j) => j.status === 'done' && j.topic !== whatsappTicketJob.topic),
      JSON.stringify(jobs),
    );
    assert.equal(emulator.calls.length, 0);
    const reg = (
      await call(server.url, 'GET', `/api/v1/events/${eventId}/registrations/${r.body.registrationId}`, {
        key: org.key,
      })
    ).body.data;
    assert.deepEqual([reg.whatsappOptIn, reg.phone, reg.channels], [true, '+919000000007', []]);
    const body = '{"object":"whatsapp_business_account","entry":[]}';
    const hook = await call(server.url, 'POST', '/webhooks/whatsapp', {
      raw: body,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSign(body, APP_SECRET) },
    });
    assert.deepEqual([hook.status, hook.body.code], [403, 'signature_not_verified']);
    assert.match(hook.body.error, /WHATSAPP_APP_SECRET/);
  });
});
