// The organiser's preview of a hosted page (docs/decisions/28-a-persons-day.md): an event's dashboard page
// links `/e/{slug}?preview=<token>`, signed for that event of that account and valid for a day
// on the injected clock. It opens a test event's page without a key or a site; bookings made
// there are test bookings through the sandbox. A tampered, foreign or expired token answers a
// clear 403 page, the same whether or not the slug exists.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardClient } from '../helpers/dashboard.js';
import { call, uniqueEmail } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { PREVIEW_TTL_MS, previewToken } from '../../src/lib/preview-token.js';

describe('previews of the hosted page from the dashboard', () => {
  let server: TestServer;
  let owner: DashboardClient;
  const ownerEmail = uniqueEmail('previewer');

  before(async () => {
    server = await startServer({ isolatedDatabase: true });
    owner = new DashboardClient(server.url);
    await owner.signup(ownerEmail);
  });
  after(async () => {
    await server.close();
  });

  /** An event made through the dashboard's form (test mode), and its overview's preview link. */
  async function eventWithPreview(c: DashboardClient, fields: Record<string, string> = {}) {
    const form = await c.get('/dashboard/events/new');
    const made = await c.post('/dashboard/events', {
      _csrf: DashboardClient.csrf(form.text),
      title: 'Sitar at Dusk',
      description: 'An evening of ragas.',
      startDate: '2030-11-02T18:00',
      capacity: '40',
      price: '250',
      maxTeamSize: '1',
      ...fields,
    });
    const id = /\/dashboard\/events\/(ev_[A-Za-z0-9_-]+)/.exec(made.location ?? '')?.[1];
    assert.ok(id, `an event was made: ${made.status} ${made.text.slice(0, 200)}`);
    const overview = await c.get(`/dashboard/events/${id}`);
    assert.equal(overview.status, 200);
    const href = /id="open-preview" href="([^"]+)"/.exec(overview.text)?.[1]?.replaceAll('&amp;', '&');
    assert.ok(href, 'the overview links a preview');
    const slug = /^\/e\/([a-z0-9-]+)\?preview=/.exec(href)?.[1];
    assert.ok(slug, href);
    return {
      id,
      slug,
      href,
      token: new URL(href, server.url).searchParams.get('preview')!,
      overview: overview.text,
    };
  }

  const config = (html: string) =>
    JSON.parse(/<script type="application\/json" id="svc-config">(.*?)<\/script>/s.exec(html)![1]!);
  const frameAncestors = (r: { headers: Headers }) =>
    /frame-ancestors ([^;]*)/.exec(r.headers.get('content-security-policy') ?? '')?.[1];

  it('links a preview from a test event’s overview instead of “No preview here”; the link opens the page that 404s without it', async () => {
    const ev = await eventWithPreview(owner);
    assert.doesNotMatch(ev.overview, /No preview here/);
    assert.match(ev.overview, /<iframe class="embed-preview" src="\/e\/[a-z0-9-]+\?preview=/);
    assert.equal(
      (await call(server.url, 'GET', `/e/${ev.slug}`)).status,
      404,
      'without the link a test event is not shown',
    );
    const page = await call(server.url, 'GET', ev.href);
    assert.equal(page.status, 200, page.text.slice(0, 300));
    assert.match(page.text, /Sitar at Dusk/);
    assert.match(page.text, /id="preview-note"/);
    assert.equal(
      frameAncestors(page),
      "'self'",
      'only the service’s own pages (the dashboard) frame a preview',
    );
    assert.equal(config(page.text).preview, ev.token, 'the page’s calls carry the token');
    assert.equal(config(page.text).key, null, 'no key is needed or shown');
  });

  it('books a test booking from the preview: paid through the sandbox’s checkout, confirmed, shown in the dashboard', async () => {
    const ev = await eventWithPreview(owner);
    const headers = { origin: server.url };
    const buyer = uniqueEmail('buyer');
    const r = await call(server.url, 'POST', `/e/${ev.slug}/register`, {
      body: { preview: ev.token, name: 'Asha Rao', email: buyer },
      headers,
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.status, 'payment_required');
    assert.equal(r.body.amount, 25000);
    const quote = await call(server.url, 'POST', `/e/${ev.slug}/quote`, {
      body: { preview: ev.token, quantity: 1 },
      headers,
    });
    assert.deepEqual([quote.status, quote.body.total], [200, 25000]);
    const status = await call(
      server.url,
      'GET',
      `/e/${ev.slug}/orders/${r.body.orderId}?preview=${encodeURIComponent(ev.token)}`,
      { headers },
    );
    assert.deepEqual([status.status, status.body.status], [200, 'pending']);
    const paid = await call(server.url, 'POST', `/e/${ev.slug}/sandbox-checkout`, {
      body: { preview: ev.token, orderId: r.body.orderId, outcome: 'success' },
      headers,
    });
    assert.equal(paid.status, 200, paid.text);
    const confirmed = await call(server.url, 'POST', `/e/${ev.slug}/payment`, {
      body: { preview: ev.token, ...paid.body },
      headers,
    });
    assert.deepEqual([confirmed.status, confirmed.body.status], [200, 'confirmed'], confirmed.text);
    const list = await owner.get(`/dashboard/events/${ev.id}/registrations`);
    assert.match(list.text, new RegExp(buyer.replace(/[.+]/g, '\\$&')));
    assert.match(list.text, /confirmed/);
  });

  it('refuses the preview’s calls from another site', async () => {
    const ev = await eventWithPreview(owner);
    for (const headers of [
      { origin: 'https://evil.example.net' },
      { 'sec-fetch-site': 'cross-site' },
      {},
    ] as Record<string, string>[]) {
      const r = await call(server.url, 'POST', `/e/${ev.slug}/register`, {
        body: { preview: ev.token, name: 'A', email: uniqueEmail() },
        headers,
      });
      assert.deepEqual([r.status, r.body.code], [403, 'origin_not_allowed'], JSON.stringify(headers));
    }
  });

  it('answers a clear 403 page for a tampered token, another event’s token, another account’s token and a made-up slug alike', async () => {
    const ev = await eventWithPreview(owner);
    const other = await eventWithPreview(owner, { title: 'Tabla at Noon' });
    const [eventId, expires, mac] = ev.token.split('.') as [string, string, string];
    const flipped = `${eventId}.${expires}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    const longer = `${eventId}.${Number(expires) + 86_400}.${mac}`;
    const stranger = new DashboardClient(server.url);
    await stranger.signup(uniqueEmail('stranger'));
    const strangers = await eventWithPreview(stranger);
    // Made with the service's own secret for the right event, but for another account.
    const wrongAccount = previewToken(
      server.deps.config.secretsKey,
      ev.id,
      'usr_someone_else',
      server.clock.now(),
    );
    const cases: [string, string][] = [
      [ev.slug, flipped],
      [ev.slug, longer],
      [ev.slug, other.token],
      [ev.slug, strangers.token],
      [ev.slug, wrongAccount],
      [ev.slug, 'nonsense'],
      ['no-such-event-anywhere', ev.token],
      ['no-such-event-anywhere', flipped],
    ];
    for (const [slug, token] of cases) {
      const r = await call(server.url, 'GET', `/e/${slug}?preview=${encodeURIComponent(token)}`);
      assert.equal(r.status, 403, `${slug} ${token}`);
      assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(r.text, /This preview link is not valid|this preview link is not valid/);
      assert.match(r.text, /open the preview again from the event’s page in the dashboard/);
      const call403 = await call(server.url, 'POST', `/e/${slug}/register`, {
        body: { preview: token, name: 'A', email: uniqueEmail() },
        headers: { origin: server.url },
      });
      assert.deepEqual([call403.status, call403.body.code], [403, 'preview_invalid'], `${slug} ${token}`);
    }
    // The stranger's own link still works: it was only refused for another event.
    assert.equal((await call(server.url, 'GET', strangers.href)).status, 200);
  });

  it('lasts 24 hours by the injected clock, then answers “expired”; the overview then gives a fresh link', async () => {
    const ev = await eventWithPreview(owner);
    server.clock.advance(PREVIEW_TTL_MS - 1000);
    assert.equal((await call(server.url, 'GET', ev.href)).status, 200, 'a second before the day is over');
    server.clock.advance(1000);
    const late = await call(server.url, 'GET', ev.href);
    assert.equal(late.status, 403);
    assert.match(late.text, /this preview link has expired/i);
    const r = await call(server.url, 'POST', `/e/${ev.slug}/register`, {
      body: { preview: ev.token, name: 'A', email: uniqueEmail() },
      headers: { origin: server.url },
    });
    assert.deepEqual([r.status, r.body.code], [403, 'preview_expired']);
    await owner.login(ownerEmail); // the day outlived the session too
    const again = await owner.get(`/dashboard/events/${ev.id}`);
    const fresh = /id="open-preview" href="([^"]+)"/.exec(again.text)![1]!.replaceAll('&amp;', '&');
    assert.notEqual(fresh, ev.href);
    assert.equal((await call(server.url, 'GET', fresh)).status, 200);
  });
});
