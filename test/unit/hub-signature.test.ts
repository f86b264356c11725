import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { hubSignature, verifyHubSignature } from '../../src/modules/whatsapp/hub-signature.js';

describe('X-Hub-Signature-256', () => {
  const secret = 'app-secret';
  // Meta escapes non-ASCII: the bytes as sent are what is signed.
  const raw = Buffer.from(
    '{"entry":[{"changes":[{"value":{"statuses":[{"id":"wamid.1","status":"read","name":"Jos\\u00e9"}]}}]}]}',
  );

  it('is sha256= and the hex HMAC of the raw bytes', () => {
    assert.equal(
      hubSignature(raw, secret),
      `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`,
    );
    assert.equal(verifyHubSignature(raw, hubSignature(raw, secret), secret), true);
    assert.equal(
      verifyHubSignature(raw, hubSignature(raw, secret).toUpperCase().replace('SHA256=', 'sha256='), secret),
      true,
      'hex in either case',
    );
  });

  it('refuses another body, another secret, a re-serialised body and malformed headers', () => {
    const good = hubSignature(raw, secret);
    const reparsed = Buffer.from(JSON.stringify(JSON.parse(raw.toString())));
    assert.notEqual(reparsed.toString(), raw.toString(), 'parsing and writing again changes the bytes');
    for (const [body, header, key] of [
      [Buffer.concat([raw, Buffer.from(' ')]), good, secret],
      [raw, good, 'other-secret'],
      [reparsed, good, secret],
      [raw, undefined, secret],
      [raw, '', secret],
      [raw, good.slice(7), secret],
      [raw, `sha1=${good.slice(7)}`, secret],
      [raw, `${good}0`, secret],
      [raw, `sha256=${'z'.repeat(64)}`, secret],
    ] as const) {
      assert.equal(verifyHubSignature(body, header, key), false, `${header} ${key}`);
    }
  });
});
