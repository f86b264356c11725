// Keyed hosted pages are framed only by their pinned origin (docs/decisions/14-trust-and-safety-second-round.md), and
// their calls are refused from anywhere else, whatever `origin=` declares.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, createKey, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEventData, keyApi } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';

const HOST = 'https://shop.example.in';
const EVIL = 'https://evil.example.net';

describe('keyed hosted pages are framed only by their pinned origin', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let pk: string;
  let pinned: string;

  before(async () => {
    server = await startServer({ isolatedDatabase: true });
    org = await organiser(server.url, 'test');
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
    pinned = (
      await createKey(server.url, org.token, { mode: 'test', class: 'checkout', allowedOrigin: HOST })
    ).key;
  });
  after(async () => {
    await server.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const paidEvent = (fields: Record<string, unknown> = {}) =>
    createEventData(api, { title: 'Gig', description: 'Music', price: 1000, ...fields });

  const frameAncestors = (r: { headers: Headers }) =>
    /frame-ancestors ([^;]*)/.exec(r.headers.get('content-security-policy') ?? '')?.[1];

  it('answers frame-ancestors <the pinned origin>, whatever origin= declares', async () => {
    const ev = await paidEvent();
    for (const declared of [
      '',
      `&origin=${encodeURIComponent(HOST)}`,
      `&origin=${encodeURIComponent(EVIL)}`,
    ]) {
      const r = await call(server.url, 'GET', `/e/${ev.slug}?key=${pinned}${declared}`);
      assert.equal(r.status, 200, declared);
      assert.equal(frameAncestors(r), HOST, declared);
      const config = JSON.parse(
        /<script type="application\/json" id="svc-config">(.*?)<\/script>/s.exec(r.text)![1]!,
      );
      assert.equal(config.origin, HOST, 'the page posts its messages to the pin only');
    }
    const open = await call(server.url, 'GET', `/e/${ev.slug}?key=${pk}&origin=${encodeURIComponent(HOST)}`);
    assert.equal(frameAncestors(open), '*', 'a key without a pin may be embedded anywhere');
  });

  it('refuses the page’s calls unless Origin (or Sec-Fetch-Site: same-origin) fits the key', async () => {
    const ev = await paidEvent();
    const register = (headers: Record<string, string>, origin = HOST) =>
      call(server.url, 'POST', `/e/${ev.slug}/register`, {
        body: { key: pinned, origin, name: 'A', email: uniqueEmail() },
        headers,
      });

    const refused: Record<string, string>[] = [
      { origin: EVIL },
      { origin: 'null' },
      {},
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of refused) {
      const r = await register(headers);
      assert.deepEqual([r.status, r.body.code], [403, 'origin_not_allowed'], JSON.stringify(headers));
    }
    const fromItself = await register({ origin: server.url });
    assert.equal(fromItself.status, 201, fromItself.text);
    assert.equal((await register({ origin: HOST })).status, 201, 'the pinned origin itself');
    assert.equal(
      (await register({ 'sec-fetch-site': 'same-origin' }, EVIL)).status,
      201,
      'no Origin, but the page itself; origin= is ignored',
    );

    const orderId = fromItself.body.orderId as string;
    const status = (headers: Record<string, string>) =>
      call(
        server.url,
        'GET',
        `/e/${ev.slug}/orders/${orderId}?key=${pinned}&origin=${encodeURIComponent(HOST)}`,
        { headers },
      );
    assert.deepEqual((await status({ 'sec-fetch-site': 'same-origin' })).body, { status: 'pending' });
    assert.equal((await status({ 'sec-fetch-site': 'cross-site' })).status, 403);
    assert.equal((await status({})).status, 403);
    const sandbox = (headers: Record<string, string>) =>
      call(server.url, 'POST', `/e/${ev.slug}/sandbox-checkout`, {
        body: { key: pinned, origin: HOST, orderId, outcome: 'success' },
        headers,
      });
    assert.equal((await sandbox({ origin: EVIL })).status, 403);
    const paid = await sandbox({ origin: server.url });
    assert.equal(paid.status, 200, paid.text);
    const payment = (headers: Record<string, string>) =>
      call(server.url, 'POST', `/e/${ev.slug}/payment`, {
        body: { key: pinned, origin: HOST, ...paid.body },
        headers,
      });
    assert.equal((await payment({ origin: EVIL })).status, 403);
    assert.deepEqual((await payment({ origin: server.url })).body, { status: 'confirmed' });

    // A key without a pin is not held to an origin.
    const open = await call(server.url, 'POST', `/e/${ev.slug}/register`, {
      body: { key: pk, name: 'A', email: uniqueEmail() },
    });
    assert.equal(open.status, 201, open.text);
  });

  it('takes the sold-out page’s waitlist form from the page itself (Origin: null, Sec-Fetch-Site: same-origin), and links back to the event', async () => {
    const ev = await paidEvent({ price: 0, capacity: 1, waitlist: { enabled: true } });
    assert.equal(
      (await api('POST', `/api/v1/events/${ev.id}/register`, { name: 'First', email: uniqueEmail() })).status,
      201,
    );
    const page = await call(
      server.url,
      'GET',
      `/e/${ev.slug}?key=${pinned}&embed=inline&origin=${encodeURIComponent(EVIL)}`,
    );
    // The form carries the key, the origin the page posts to (the pin, whatever origin= said) and the embedding.
    const hidden = Object.fromEntries(
      [...page.text.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
    );
    assert.deepEqual(hidden, { key: pinned, origin: HOST, embed: 'inline' });
    const join = (headers: Record<string, string>, email = uniqueEmail('wait')) =>
      call(server.url, 'POST', `/e/${ev.slug}/waitlist`, {
        raw: new URLSearchParams({ ...hidden, name: 'Meera', email }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });
    const back = `/e/${ev.slug}?key=${pinned}&amp;origin=${encodeURIComponent(HOST)}&amp;embed=inline`;
    // What Chromium sends for a form posted from a page whose referrer policy is no-referrer.
    const joined = await join({ origin: 'null', 'sec-fetch-site': 'same-origin' });
    assert.equal(joined.status, 200, joined.text);
    assert.match(joined.text, /You are number 1 on the waitlist/);
    assert.ok(joined.text.includes(`href="${back}"`), 'a link back to the event, as the widget had it');
    const refused: Record<string, string>[] = [
      { origin: 'null' },
      { origin: 'null', 'sec-fetch-site': 'cross-site' },
      { origin: EVIL },
      {},
    ];
    for (const headers of refused) {
      const r = await join(headers);
      assert.equal(r.status, 403, JSON.stringify(headers));
      assert.ok(r.text.includes(`href="${back}"`), `a refusal links back too: ${JSON.stringify(headers)}`);
    }
  });
});
