import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  attendeePageUrl,
  attendeeToken,
  attendeeTokenMatches,
  attendeeTokenRegistration,
} from '../../src/lib/attendee-token.js';

const key = Buffer.alloc(32, 7);
const other = Buffer.alloc(32, 8);

describe('attendee page tokens', () => {
  it('names the registration, never the ticket id, with at least 128 bits of mac', () => {
    const t = attendeeToken(key, 'reg_abc', 'tkt_secret');
    assert.ok(!t.includes('tkt_secret'));
    assert.equal(attendeeTokenRegistration(t), 'reg_abc');
    assert.ok(t.split('.')[1]!.length * 6 >= 128);
  });

  it('matches only its registration, its ticket id and the service key', () => {
    const t = attendeeToken(key, 'reg_abc', 'tkt_1');
    assert.equal(attendeeTokenMatches(key, t, 'reg_abc', 'tkt_1'), true);
    assert.equal(attendeeTokenMatches(key, t, 'reg_abd', 'tkt_1'), false);
    assert.equal(
      attendeeTokenMatches(key, t, 'reg_abc', 'tkt_2'),
      false,
      'a transfer (new ticket id) retires the link',
    );
    assert.equal(attendeeTokenMatches(key, t, 'reg_abc', null), false);
    assert.equal(attendeeTokenMatches(other, t, 'reg_abc', 'tkt_1'), false);
    const flipped = t.slice(0, -1) + (t.endsWith('A') ? 'B' : 'A');
    assert.equal(attendeeTokenMatches(key, flipped, 'reg_abc', 'tkt_1'), false);
  });

  it('refuses what does not have the shape', () => {
    for (const bad of [
      '',
      'reg_abc',
      'reg_abc.',
      'tkt_1.AAAAAAAAAAAAAAAAAAAAAA',
      'reg_abc.AAAA',
      `reg_abc.${'A'.repeat(23)}`,
      'reg_a/b.AAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      assert.equal(attendeeTokenRegistration(bad), undefined, bad);
    }
  });

  it('builds the page address under BASE_URL', () => {
    assert.equal(
      attendeePageUrl('https://tickets.example.in/', 'reg_a.x'),
      'https://tickets.example.in/t/reg_a.x',
    );
  });
});
