// Door sync never jams (docs/decisions/21-trust-and-safety-third-round.md), through HTTP: each scan of a batch is answered on its
// own, so a scan the door cannot read (too long, control characters, unknown) is refused and
// every other scan still applies; sync records are a pass's own, so another pass holder
// cannot answer for a device by using its id; and nobody is shown a device's id.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { passApi } from '../helpers/callers.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('door sync: one bad scan never stops the others', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let eventId: string;

  before(async () => {
    server = await startServer();
    org = await organiser(server.url);
    eventId = await createEvent(api, { title: 'Sync night' });
  });
  after(async () => {
    await server.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const asPass = passApi(() => server.url);
  const sync = (token: string, deviceId: string, scans: unknown[]) =>
    asPass('POST', `/api/v1/events/${eventId}/door/sync`, token, { deviceId, scans });
  async function book(name = 'Guest'): Promise<string> {
    const r = await api('POST', `/api/v1/events/${eventId}/register`, { name, email: uniqueEmail('sync') });
    assert.equal(r.status, 201, r.text);
    return r.body.registrationId;
  }
  async function pass(label: string): Promise<string> {
    const r = await api('POST', `/api/v1/events/${eventId}/door-passes`, { label });
    assert.equal(r.status, 201, r.text);
    return new URL(r.body.data.url).pathname.split('/')[2]!;
  }
  const isIn = async (id: string) =>
    (await api('GET', `/api/v1/events/${eventId}/check-in?registrationId=${id}`)).body.data
      .checkedIn as boolean;

  it('a batch with unreadable and unknown scans applies every good scan and refuses each bad one', async () => {
    const token = await pass('Gate A');
    const [a, b, c] = [await book('Ada'), await book('Bo'), await book('Cy')];
    const r = await sync(token, 'phone-1', [
      { seq: 1, ticketId: a, action: 'admit' },
      { seq: 2, ticketId: 'x'.repeat(600), action: 'admit' },
      { seq: 3, ticketId: `${b}\u0000`, action: 'admit' },
      { seq: 4, ticketId: 'reg_\u0007bell', action: 'admit' },
      { seq: 5, ticketId: '', action: 'admit' },
      { seq: 6, ticketId: 'reg_nobodyhasthis', action: 'admit' },
      { seq: 7, ticketKey: 'not-a-hash', action: 'admit' },
      { seq: 8, ticketId: '{"registrationId":', action: 'admit' },
      { seq: 10, ticketId: b, action: 'admit' },
      { seq: 11, action: 'admit' },
      { seq: 12, ticketId: `{"registrationId":"${'y'.repeat(300)}"}`, action: 'admit' },
      { seq: 13, ticketId: c, action: 'admit' },
      { seq: 14, ticketId: a, action: 'undo' },
    ]);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.data.results.map((x: any) => [x.seq, x.status, x.reason]),
      [
        [1, 'admitted', undefined],
        [2, 'refused', 'invalid_qr'],
        [3, 'refused', 'invalid_qr'],
        [4, 'refused', 'invalid_qr'],
        [5, 'refused', 'invalid_qr'],
        [6, 'refused', 'ticket_not_found'],
        [7, 'refused', 'ticket_not_found'],
        [8, 'refused', 'invalid_qr'],
        [10, 'admitted', undefined],
        [11, 'refused', 'invalid_qr'],
        [12, 'refused', 'invalid_qr'],
        [13, 'admitted', undefined],
        [14, 'undone', undefined],
      ],
    );
    assert.deepEqual([await isIn(a), await isIn(b), await isIn(c)], [false, true, true]);
    // The same batch again answers the same and changes nothing.
    const again = await sync(token, 'phone-1', [
      { seq: 3, ticketId: `${b}\u0000`, action: 'admit' },
      { seq: 14, ticketId: a, action: 'undo' },
    ]);
    assert.deepEqual(
      again.body.data.results.map((x: any) => x.status),
      ['refused', 'undone'],
    );
  });

  it('keeps a sane limit on the whole batch', async () => {
    const token = await pass('Gate L');
    const many = Array.from({ length: 501 }, (_, i) => ({ seq: i, ticketId: 'x', action: 'admit' }));
    assert.equal((await sync(token, 'd', many)).status, 400);
    // A body that is not Unicode text is refused whole by the JSON parser; the door screen
    // then sends its scans one at a time and sets aside the one refused alone.
    const unpaired = await sync(token, 'd', [{ seq: 1, ticketId: 'tkt_\ud800', action: 'admit' }]);
    assert.deepEqual([unpaired.status, unpaired.body.code], [400, 'invalid_json']);
    const huge = await sync(token, 'd', [{ seq: 1, ticketId: 'x'.repeat(1_100_000), action: 'admit' }]);
    assert.equal(huge.status, 413);
    assert.equal(huge.body.code, 'payload_too_large');
  });

  it('another pass using a victim device’s id and coming sequence numbers cannot answer for it', async () => {
    const victim = await pass('Gate V');
    const attacker = await pass('Gate X');
    const t = await book('Tara');
    // The attacker goes first, under the victim's device id and sequence number.
    const x = await sync(attacker, 'victim-phone', [{ seq: 1, ticketId: 'reg_junk', action: 'admit' }]);
    assert.equal(x.body.data.results[0].status, 'refused');
    const v = await sync(victim, 'victim-phone', [{ seq: 1, ticketId: t, action: 'admit' }]);
    assert.deepEqual(v.body.data.results, [{ seq: 1, status: 'admitted' }], 'the victim’s own scan applies');
    assert.equal(await isIn(t), true);
    const log = await server.deps.db
      .selectFrom('checkin_log')
      .select('actor')
      .where('attendee_id', '=', t)
      .execute();
    assert.equal(log.length, 1);
  });

  it('two passes racing with the same device id and sequence number each get their own answer', async () => {
    const p1 = await pass('Race 1');
    const p2 = await pass('Race 2');
    const [t1, t2] = [await book('Uma'), await book('Vik')];
    const [r1, r2] = await Promise.all([
      sync(p1, 'same-device', [{ seq: 7, ticketId: t1, action: 'admit' }]),
      sync(p2, 'same-device', [{ seq: 7, ticketId: t2, action: 'admit' }]),
    ]);
    assert.deepEqual([r1.status, r2.status], [200, 200]);
    assert.deepEqual(
      [r1.body.data.results[0].status, r2.body.data.results[0].status],
      ['admitted', 'admitted'],
    );
    assert.deepEqual([await isIn(t1), await isIn(t2)], [true, true]);
  });

  it('other passes see a device’s label, never its id', async () => {
    const gate = await pass('Gate S');
    const other = await pass('Gate T');
    const t = await book('Wen');
    assert.equal(
      (await sync(gate, 'secret-device-4242', [{ seq: 1, ticketId: t, action: 'admit' }])).body.data
        .results[0].status,
      'admitted',
    );
    const roster = await asPass('GET', `/api/v1/events/${eventId}/door/roster`, other);
    assert.equal(roster.status, 200, roster.text);
    assert.ok(!roster.text.includes('secret-device-4242'), 'no device id in the roster');
    const entry = roster.body.data.entries.find((e: any) => e.key === sha256(t));
    assert.equal(entry.members[0].checkedInBy, `Gate S · device ${sha256('secret-device-4242').slice(0, 4)}`);
    const again = await sync(other, 'mine', [{ seq: 1, ticketId: t, action: 'admit' }]);
    assert.equal(again.body.data.results[0].status, 'already_admitted');
    assert.ok(!again.text.includes('secret-device-4242'), 'no device id in a sync answer');
  });
});
