// Parsing is bounded before it starts (docs/decisions/14-trust-and-safety-second-round.md): nesting deeper than 64 levels is refused by a
// linear scan before JSON.parse; the gateway webhook checks its signature over the raw bytes
// before it parses anything, and limits badly signed requests per address; routes without
// credentials take at most 64 KiB.
import assert from 'node:assert/strict';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { jsonTooDeep, MAX_JSON_DEPTH } from '../../src/http/json-body.js';
import { call, organiser, type Account, type KeyInfo } from '../helpers/http.js';
import { signWebhook } from '../helpers/razorpay-emulator.js';
import { startServer, type TestServer } from '../helpers/server.js';

const WEBHOOK_SECRET = 'bounded-parsing-webhook-secret';
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const objects = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

/**
 * Runs `fn` while watching JSON.parse: answers whether it was ever handed text that starts
 * with `prefix` (the bodies below; the test's own answers start otherwise).
 */
async function watchingJsonParse<T>(
  prefix: string,
  fn: () => Promise<T>,
): Promise<{ result: T; parsed: boolean }> {
  const original = JSON.parse;
  let parsed = false;
  JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
    if (typeof text === 'string' && text.startsWith(prefix)) parsed = true;
    return original(text, reviver);
  }) as typeof JSON.parse;
  try {
    return { result: await fn(), parsed };
  } finally {
    JSON.parse = original;
  }
}

describe('the nesting scan', () => {
  it(`allows ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1}`, () => {
    assert.equal(jsonTooDeep(nested(MAX_JSON_DEPTH)), false);
    assert.equal(jsonTooDeep(nested(MAX_JSON_DEPTH + 1)), true);
    assert.equal(jsonTooDeep(objects(MAX_JSON_DEPTH)), false);
    assert.equal(jsonTooDeep(objects(MAX_JSON_DEPTH + 1)), true);
    // Siblings do not add up: depth, not count.
    assert.equal(jsonTooDeep(`[${Array.from({ length: 1000 }, () => nested(60)).join(',')}]`), false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    assert.equal(jsonTooDeep(JSON.stringify({ a: '['.repeat(1000) })), false);
    assert.equal(jsonTooDeep(JSON.stringify({ a: '"' + '{'.repeat(1000) + '\\' })), false);
    assert.equal(
      jsonTooDeep(`["\\\\", ${nested(MAX_JSON_DEPTH)}]`),
      true,
      'an escaped backslash ends before the quote',
    );
    assert.equal(jsonTooDeep(`["\\"${'['.repeat(100)}"]`), false, 'an escaped quote does not end the string');
  });

  it('scans a million levels, and a megabyte of escapes, in one pass', () => {
    assert.equal(jsonTooDeep(nested(1_000_000)), true);
    assert.equal(jsonTooDeep(`"${'\\"'.repeat(500_000)}"`), false);
    assert.equal(
      jsonTooDeep(']'.repeat(500_000) + '['.repeat(500_000)),
      false,
      'text that closes more than it opened is refused by JSON.parse at once',
    );
  });
});

describe('bounded parsing over HTTP', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  const attack = nested(500_000);
  before(async () => {
    server = await startServer({ env: { RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET } });
    org = await organiser(server.url);
  });
  after(async () => {
    await server.close();
  });

  const post = (path: string, raw: string, headers: Record<string, string> = {}) =>
    call(server.url, 'POST', path, { raw, headers: { 'content-type': 'application/json', ...headers } });

  it('the million-byte bracket body answers 4xx on the webhook, /auth/login and /api/v1/events, never reaching JSON.parse', async (t) => {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const { result, parsed } = await watchingJsonParse('[[[[', async () => ({
      webhook: await post('/webhooks/razorpay', attack, { 'x-razorpay-signature': 'ab'.repeat(32) }),
      login: await post('/auth/login', attack),
      noKey: await post('/api/v1/events', attack),
      withKey: await post('/api/v1/events', attack, { 'x-api-key': org.key }),
    }));
    delay.disable();
    t.diagnostic(`event-loop delay while answering: max ${(delay.max / 1e6).toFixed(1)} ms`);
    assert.deepEqual([result.webhook.status, result.webhook.body.code], [413, 'payload_too_large']);
    assert.deepEqual([result.login.status, result.login.body.code], [413, 'payload_too_large']);
    assert.deepEqual([result.noKey.status, result.noKey.body.code], [401, 'missing_api_key']);
    assert.deepEqual(
      [result.withKey.status, result.withKey.body.code],
      [400, 'invalid_json'],
      result.withKey.text,
    );
    assert.match(result.withKey.body.error, /64 levels/);
    assert.equal(parsed, false, 'JSON.parse was handed the body');
  });

  it('a small body one level too deep is refused before JSON.parse on every JSON parser', async () => {
    const deep = nested(MAX_JSON_DEPTH + 1);
    const { result, parsed } = await watchingJsonParse('[[[[', async () => ({
      login: await post('/auth/login', deep),
      events: await post('/api/v1/events', deep, { 'x-api-key': org.key }),
      // A route whose parser keeps every key (answers to an event's questions).
      register: await post('/api/v1/events/ev_nosuchevent/register', deep, { 'x-api-key': org.key }),
    }));
    for (const r of Object.values(result))
      assert.deepEqual([r.status, r.body.code], [400, 'invalid_json'], r.text);
    assert.equal(parsed, false);
    // 64 levels are parsed, and refused by the schema instead.
    const ok = await post('/api/v1/events', nested(MAX_JSON_DEPTH), { 'x-api-key': org.key });
    assert.equal(ok.status, 400);
    assert.notEqual(ok.body.code, 'invalid_json', ok.text);
  });

  it('an unpaired surrogate escape is still refused', async () => {
    const r = await post('/api/v1/events', JSON.stringify({ title: 'x' }).replace('"x"', '"\\ud800"'), {
      'x-api-key': org.key,
    });
    assert.deepEqual([r.status, r.body.code], [400, 'invalid_json'], r.text);
    assert.match(r.body.error, /surrogate/);
  });

  it('routes without credentials take at most 64 KiB; routes with a key up to 1 MiB', async () => {
    const big = JSON.stringify({ email: 'a@example.in', password: 'x'.repeat(70 * 1024) });
    const login = await post('/auth/login', big);
    assert.deepEqual([login.status, login.body.code], [413, 'payload_too_large']);
    const small = await post(
      '/auth/login',
      JSON.stringify({ email: 'nobody@example.in', password: 'x'.repeat(60 * 1024) }),
    );
    assert.notEqual(small.status, 413);
    const keyed = await post('/api/v1/events', JSON.stringify({ title: 'x'.repeat(200 * 1024) }), {
      'x-api-key': org.key,
    });
    assert.equal(keyed.status, 400, keyed.text);
    assert.notEqual(keyed.body.code, 'payload_too_large');
  });

  it('the webhook checks the signature over the raw bytes before parsing anything', async () => {
    const deep = nested(MAX_JSON_DEPTH + 1);
    const { result: unsigned, parsed } = await watchingJsonParse('[[[[', () =>
      post('/webhooks/razorpay', deep, { 'x-razorpay-signature': signWebhook('other', WEBHOOK_SECRET) }),
    );
    assert.deepEqual([unsigned.status, unsigned.body.code], [400, 'invalid_signature']);
    assert.equal(parsed, false, 'a badly signed body was parsed');
    // A correctly signed body is then held to the same depth rule.
    const signed = await post('/webhooks/razorpay', deep, {
      'x-razorpay-signature': signWebhook(deep, WEBHOOK_SECRET),
    });
    assert.deepEqual([signed.status, signed.body.code], [400, 'invalid_json']);
    // The bytes signed are the bytes received: non-ASCII text is not re-encoded before the check.
    const body = JSON.stringify({ event: 'payment.failed', payload: { note: 'दिल्ली ₹' } });
    const good = await post('/webhooks/razorpay', body, {
      'x-razorpay-signature': signWebhook(body, WEBHOOK_SECRET),
    });
    assert.deepEqual([good.status, good.body.result], [200, 'ignored'], good.text);
  });
});

describe('badly signed webhooks are limited per address, correctly signed ones never', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET } });
  });
  after(async () => {
    await server.close();
  });

  const notify = (body: string, signature: string) =>
    call(server.url, 'POST', '/webhooks/razorpay', {
      raw: body,
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature },
    });

  it('20 bad signatures a minute answer 400, the next 429; signed notifications pass throughout', async () => {
    // Start at the beginning of a window, so the whole run is inside one.
    server.clock.set(new Date(Math.ceil(server.clock.now().getTime() / 60_000) * 60_000));
    const body = JSON.stringify({ event: 'payment.failed', payload: {} });
    const signed = signWebhook(body, WEBHOOK_SECRET);
    for (let i = 0; i < 20; i++) {
      assert.equal((await notify(body, signed)).status, 200, 'a signed notification is never counted');
      assert.equal((await notify(body, 'ab'.repeat(32))).status, 400);
    }
    const limited = await notify(body, 'ab'.repeat(32));
    assert.deepEqual([limited.status, limited.body.code], [429, 'rate_limited']);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    const noHeader = await notify(body, '');
    assert.equal(noHeader.status, 429);
    assert.equal((await notify(body, signed)).status, 200, 'the gateway is never locked out');
    server.clock.advance(60_000);
    assert.equal((await notify(body, 'ab'.repeat(32))).status, 400, 'a new window counts afresh');
  });
});
