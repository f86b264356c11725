// Joining the waiting room in two steps (docs/decisions/26-a-fair-waiting-room.md): a join sends a
// one-time code and makes no place; the code given back makes or finds the verified contact's
// place. Each refusal's code, through HTTP, with the queue in PostgreSQL and in Redis; the code
// read from the mail the service kept (test mode), sent over SMTP (live) or by WhatsApp (the
// Cloud API emulator).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEventData, keyApi } from '../helpers/factories.js';
import { organiser, type Account, type KeyInfo } from '../helpers/http.js';
import {
  joinQueue,
  mailedCode,
  queueStatus,
  REDIS_URL,
  redisAnswers,
  verifyQueue,
} from '../helpers/queue.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';
import { startSmtp, type SmtpSink } from '../helpers/smtp.js';
import { startWhatsAppEmulator, type WhatsAppEmulator } from '../helpers/whatsapp-emulator.js';

const redisUp = await redisAnswers();
const backends: { name: string; env: Record<string, string>; skip: string | false }[] = [
  { name: 'PostgreSQL', env: {}, skip: false },
  {
    name: 'Redis',
    env: { REDIS_URL },
    skip: !redisUp && !process.env.TEST_REDIS_URL && `no Redis answers at ${REDIS_URL}`,
  },
];

/** A six-digit code that is not `code`. */
const other = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

for (const backend of backends) {
  describe(`verifying a contact, queue in ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let org: Account & KeyInfo;
    before(async () => {
      server = await startServer({ isolatedDatabase: true, env: backend.env });
      org = await organiser(server.url, 'test');
    });
    after(async () => server.close());
    const roomEvent = () =>
      createEventData(keyApi(server.url, org.key), { onSale: { waitingRoom: { enabled: true } } });
    const joined = async (slug: string, email: string) => {
      const r = await joinQueue(server.url, slug, email);
      assert.equal(r.status, 202, r.text);
      return {
        id: r.body.verificationId as string,
        code: await mailedCode(server.url, r.body.verificationId),
      };
    };

    it('sends a code and makes no place until it comes back; places queue in verification order', async () => {
      const ev = await roomEvent();
      const r = await joinQueue(server.url, ev.slug, 'Rohan@Example.in');
      assert.equal(r.status, 202, r.text);
      assert.match(r.body.verificationId, /^wv_/);
      assert.equal(r.body.channel, 'email');
      assert.equal(r.body.sentTo, 'r***@example.in');
      assert.equal(Date.parse(r.body.expiresAt), server.clock.now().getTime() + 10 * 60_000);
      const rohan = await mailedCode(server.url, r.body.verificationId);
      const asha = await joined(ev.slug, 'asha@example.in');
      const never = await joined(ev.slug, 'never@example.in');
      // Asha verifies first: she is ahead; a contact that never verifies holds no place.
      const a = await verifyQueue(server.url, ev.slug, asha.id, asha.code);
      assert.equal(a.status, 200, a.text);
      const b = await verifyQueue(server.url, ev.slug, r.body.verificationId, ` ${rohan} `);
      assert.equal(b.status, 200, b.text);
      assert.equal((await queueStatus(server.url, ev.slug, a.body.statusToken)).position, 1);
      const rs = await queueStatus(server.url, ev.slug, b.body.statusToken);
      assert.deepEqual([rs.position, rs.ahead], [2, 1]);
      assert.ok(never.code);
    });

    it('answers the same place to the same contact on another device, a code once', async () => {
      const ev = await roomEvent();
      const first = await joined(ev.slug, 'meera@example.in');
      const second = await joined(ev.slug, ' MEERA@example.in');
      const p1 = await verifyQueue(server.url, ev.slug, first.id, first.code);
      const p2 = await verifyQueue(server.url, ev.slug, second.id, second.code);
      assert.equal(p1.status, 200, p1.text);
      assert.equal(p2.body.placeId, p1.body.placeId);
      const again = await verifyQueue(server.url, ev.slug, first.id, first.code);
      assert.equal(again.status, 400);
      assert.equal(again.body.code, 'invalid_verification');
    });

    it('refuses a wrong code, then spends the verification at the fifth', async () => {
      const ev = await roomEvent();
      const v = await joined(ev.slug, 'guess@example.in');
      for (let left = 4; left >= 1; left--) {
        const r = await verifyQueue(server.url, ev.slug, v.id, other(v.code));
        assert.equal(r.status, 400, r.text);
        assert.equal(r.body.code, 'invalid_code');
        assert.equal(r.body.attemptsLeft, left);
      }
      const fifth = await verifyQueue(server.url, ev.slug, v.id, other(v.code));
      assert.equal(fifth.status, 429, fifth.text);
      assert.equal(fifth.body.code, 'too_many_attempts');
      const right = await verifyQueue(server.url, ev.slug, v.id, v.code);
      assert.equal(right.body.code, 'too_many_attempts');
    });

    it('refuses an expired code and an unknown verification', async () => {
      const ev = await roomEvent();
      const v = await joined(ev.slug, 'late@example.in');
      server.clock.advance(10 * 60_000);
      const late = await verifyQueue(server.url, ev.slug, v.id, v.code);
      assert.equal(late.status, 400, late.text);
      assert.equal(late.body.code, 'code_expired');
      for (const id of ['wv_unknownVerification01', 'not-an-id']) {
        const r = await verifyQueue(server.url, ev.slug, id, '123456');
        assert.equal(r.status, 400, r.text);
        assert.equal(r.body.code, 'invalid_verification');
      }
      // A verification of another event is unknown here.
      const elsewhere = await roomEvent();
      const w = await joined(elsewhere.slug, 'wanderer@example.in');
      const r = await verifyQueue(server.url, ev.slug, w.id, w.code);
      assert.equal(r.body.code, 'invalid_verification');
    });

    it('sends one contact at most five codes an hour for an event, each after a solved challenge', async () => {
      // A minute of its own for the per-address limit (20 a minute) the other tests' joins count against.
      server.clock.advance(60_000);
      const ev = await roomEvent();
      for (let i = 0; i < 5; i++) {
        const r = await joinQueue(server.url, ev.slug, 'target@example.in');
        assert.equal(r.status, 202, r.text);
      }
      const sixth = await joinQueue(server.url, ev.slug, ' TARGET@example.in');
      assert.equal(sixth.status, 429, sixth.text);
      assert.equal(sixth.body.code, 'too_many_codes');
      assert.ok(Number(sixth.headers.get('retry-after')) >= 1);
      // Another contact, and the same one at another event, are not held back by it.
      assert.equal((await joinQueue(server.url, ev.slug, 'other@example.in')).status, 202);
      assert.equal((await joinQueue(server.url, (await roomEvent()).slug, 'target@example.in')).status, 202);
      server.clock.advance(3_600_000);
      const later = await joinQueue(server.url, ev.slug, 'target@example.in');
      assert.equal(later.status, 202, later.text);
    });

    it('refuses WhatsApp without a phone, a bad phone, and WhatsApp where it is not configured', async () => {
      const ev = await roomEvent();
      const cases: [Record<string, string>, string][] = [
        [{ channel: 'whatsapp' }, 'phone_required'],
        [{ phone: '12345', channel: 'whatsapp' }, 'invalid_phone'],
        [{ phone: '9876543210', channel: 'whatsapp' }, 'channel_unavailable'],
      ];
      for (const [more, code] of cases) {
        const r = await joinQueue(server.url, ev.slug, 'wa@example.in', more);
        assert.equal(r.status, 400, r.text);
        assert.equal(r.body.code, code);
      }
    });
  });
}

describe('codes of a live sale, by mail over SMTP and by WhatsApp', () => {
  const TOKEN = 'EAAGtestSystemUserToken';
  const PHONE_NUMBER_ID = '106540352242922';
  let emulator: WhatsAppEmulator;
  let smtp: SmtpSink;
  let server: TestServer;
  before(async () => {
    emulator = await startWhatsAppEmulator({
      token: TOKEN,
      phoneNumberId: PHONE_NUMBER_ID,
      appSecret: 'whatsapp-app-secret',
      templates: [
        { name: 'ticket_confirmed', language: 'en', header: 'image', body: ['name', 'event', 'date'] },
        { name: 'queue_code', language: 'en', header: 'none', body: ['code'] },
      ],
    });
    smtp = await startSmtp();
    server = await startServer({
      // Its own database on PostgreSQL: no other file's server runs these code jobs with its own mailer.
      isolatedDatabase: true,
      env: {
        SMTP_URL: smtp.url,
        WHATSAPP_TOKEN: TOKEN,
        WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
        WHATSAPP_TEMPLATE: 'ticket_confirmed',
        WHATSAPP_CODE_TEMPLATE: 'queue_code',
        WHATSAPP_API_URL: emulator.url,
      },
    });
  });
  after(async () => {
    await server.close();
    await smtp.close();
    await emulator.close();
  });

  it('mails the code, and sends it by WhatsApp to a phone that asks: one place per verified phone', async () => {
    const org = await organiser(server.url, 'live');
    const ev = await createEventData(keyApi(server.url, org.key), {
      onSale: { waitingRoom: { enabled: true } },
    });
    const m = await joinQueue(server.url, ev.slug, 'priya@example.in');
    assert.equal(m.status, 202, m.text);
    const mailTo = () => smtp.messages.find((x) => x.envelopeTo.includes('priya@example.in'));
    await drainJobs(server, async () => mailTo() !== undefined);
    const mailed = /\b(\d{6})\b/.exec(mailTo()!.text ?? '')![1]!;
    assert.equal((await verifyQueue(server.url, ev.slug, m.body.verificationId, mailed)).status, 200);

    const w = await joinQueue(server.url, ev.slug, 'priya@example.in', {
      phone: '98765 43210',
      channel: 'whatsapp',
    });
    assert.equal(w.status, 202, w.text);
    assert.equal(w.body.channel, 'whatsapp');
    assert.equal(w.body.sentTo, '+91******3210');
    const sent = () =>
      emulator.messages.filter((x) => x.to === '+919876543210' && x.template === 'queue_code');
    await drainJobs(server, async () => sent().length === 1);
    const p1 = await verifyQueue(server.url, ev.slug, w.body.verificationId, sent()[0]!.params.code!);
    assert.equal(p1.status, 200, p1.text);
    // The same phone with another email: the phone's place again.
    const w2 = await joinQueue(server.url, ev.slug, 'other@example.in', {
      phone: '+919876543210',
      channel: 'whatsapp',
    });
    await drainJobs(server, async () => sent().length === 2);
    const p2 = await verifyQueue(server.url, ev.slug, w2.body.verificationId, sent()[1]!.params.code!);
    assert.equal(p2.body.placeId, p1.body.placeId);
  });
});
