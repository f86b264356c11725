// The door's pure rules: which bookings are refused and why, the words a refusal says,
// and how a scanned QR value is read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  parseQrValue,
  refusal,
  refusalMessage,
  type RefusalReason,
} from '../../src/modules/checkin/checkin.service.js';
import { refusalOf } from '../../src/modules/checkin/door-sync.service.js';
import { AppError } from '../../src/lib/errors.js';

type Scan = Parameters<typeof refusal>[0];
type Status = Scan['booking']['status'];
const STATUSES: Status[] = ['pending', 'confirmed', 'cancelled', 'refunded'];

const scan = (status: Status, transferred = false): Scan => ({
  booking: {
    id: 'reg_x',
    event_id: 'ev_x',
    status,
    ticket_type: 'General',
    ticket_code: transferred ? 'tkt_new' : null,
    sub_event_id: null,
  },
  people: [{ id: 'att_x', idx: 0, name: 'A', email: 'a@example.in', checked_in_at: null, seat: null }],
  only: undefined,
  transferred,
});

describe('check-in refusal rules', () => {
  it('admits a confirmed booking and refuses every other status with its own reason', () => {
    const reasons = Object.fromEntries(STATUSES.map((s) => [s, refusal(scan(s)) ?? 'admitted']));
    assert.deepEqual(reasons, {
      pending: 'not_confirmed',
      confirmed: 'admitted',
      cancelled: 'cancelled',
      refunded: 'refunded',
    });
  });

  it('refuses the old QR of a transferred ticket whatever the booking’s status', () => {
    for (const s of STATUSES) assert.equal(refusal(scan(s, true)), 'transferred', s);
  });

  it('the door roster and the scan apply the same rule to a booking’s status', () => {
    for (const s of STATUSES) assert.equal(refusalOf(s), refusal(scan(s)) ?? null, s);
  });

  it('each reason has its own message for the person at the door', () => {
    const reasons: RefusalReason[] = ['transferred', 'not_confirmed', 'cancelled', 'refunded'];
    const messages = reasons.map(refusalMessage);
    assert.equal(new Set(messages).size, reasons.length);
    assert.match(refusalMessage('transferred'), /new holder/);
    assert.match(refusalMessage('not_confirmed'), /not confirmed/);
  });
});

const invalidQr = (message: RegExp) => (err: unknown) =>
  err instanceof AppError && err.status === 400 && err.code === 'invalid_qr' && message.test(err.message);

describe('parseQrValue', () => {
  it('takes a bare id, trimmed', () => {
    assert.equal(parseQrValue('reg_abcdefghijklmnopqrstuv'), 'reg_abcdefghijklmnopqrstuv');
    assert.equal(parseQrValue('  att_abc\n'), 'att_abc');
  });

  it('takes the id out of a JSON payload: registrationId, then ticketCode, qr, id', () => {
    assert.equal(parseQrValue('{"registrationId":"reg_1","ticketCode":"tkt_2","qr":"q","id":"i"}'), 'reg_1');
    assert.equal(parseQrValue('{"ticketCode":"tkt_2","qr":"q","id":"i"}'), 'tkt_2');
    assert.equal(parseQrValue('{"qr":"q","id":"i"}'), 'q');
    assert.equal(parseQrValue(' {"id":" reg_3 "} '), 'reg_3', 'both the payload and the id are trimmed');
  });

  it('refuses JSON that does not parse, or that carries no id as a non-empty string', () => {
    assert.throws(() => parseQrValue('{"registrationId":'), invalidQr(/does not parse/));
    for (const bad of [
      '{}',
      '{"registrationId":""}',
      '{"registrationId":42}',
      '{"other":"reg_1"}',
      '{"registrationId":null,"id":7}',
    ]) {
      assert.throws(() => parseQrValue(bad), invalidQr(/carries no registrationId/), bad);
    }
  });

  it('refuses an empty value and one longer than 200 characters', () => {
    for (const bad of ['', '   ', 'x'.repeat(201)])
      assert.throws(
        () => parseQrValue(bad),
        invalidQr(/must be the QR value/),
        JSON.stringify(bad.slice(0, 10)),
      );
    assert.equal(parseQrValue('x'.repeat(200)), 'x'.repeat(200), '200 is allowed');
  });

  it('refuses control characters, lone surrogates and over-long ids inside a JSON payload as invalid_qr', () => {
    for (const bad of [
      'reg_\u0000x',
      'reg_\u001bx',
      'a\u0085b',
      'tkt_\ud800',
      'tkt_\udc00x',
      `{"id":"${'z'.repeat(201)}"}`,
      `{"id":"reg_\\u0000"}`,
      'q'.repeat(5000),
    ]) {
      assert.throws(
        () => parseQrValue(bad),
        (e: any) => e.code === 'invalid_qr',
        JSON.stringify(bad.slice(0, 12)),
      );
    }
    assert.equal(parseQrValue('tkt_\ud83d\ude00'), 'tkt_\ud83d\ude00', 'a whole surrogate pair is text');
  });
});
