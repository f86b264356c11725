import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalisePhone } from '../../src/lib/phone.js';

describe('phone numbers', () => {
  it('takes E.164 and 10-digit Indian mobiles as people write them, and gives E.164', () => {
    for (const [given, want] of [
      ['+919812345678', '+919812345678'],
      ['+91 98123 45678', '+919812345678'],
      ['+91-98123-45678', '+919812345678'],
      ['98123 45678', '+919812345678'],
      ['(981) 234-5678', '+919812345678'],
      ['6000000000', '+916000000000'],
      ['+1 (650) 555-1234', '+16505551234'],
      ['+447700900123', '+447700900123'],
      ['+9180.2345.6789', '+918023456789'],
      [' +919812345678\n', '+919812345678'],
    ] as const) {
      assert.equal(normalisePhone(given), want, given);
    }
  });

  it('refuses what is neither', () => {
    for (const bad of [
      '',
      '12345',
      '5812345678',
      '09812345678',
      '919812345678',
      '+0919812345678',
      '+91981234567',
      '+9198123456789',
      '+1234567',
      '+1234567890123456',
      '98123x45678',
      '+91 98123 45678 ext 2',
      '٩٨١٢٣٤٥٦٧٨',
    ]) {
      assert.equal(normalisePhone(bad), undefined, JSON.stringify(bad));
    }
  });
});
