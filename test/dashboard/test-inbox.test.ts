// The Test inbox (docs/decisions/28-a-persons-day.md): the account's test-mode mails as they would be sent,
// in the dashboard — the HTML body in a sandboxed frame with a policy that runs no script, the
// QR code shown inline, the attachments downloadable — and only the account's own.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardClient } from '../helpers/dashboard.js';
import { call, uniqueEmail } from '../helpers/http.js';
import { decodeQr } from '../helpers/qr.js';
import { drainJobs, startServer, type TestServer } from '../helpers/server.js';

describe('the Test inbox', () => {
  let server: TestServer;
  let owner: DashboardClient;
  let stranger: DashboardClient;
  let mailId = '';
  let inboxText = '';
  const buyer = uniqueEmail('buyer');

  before(async () => {
    server = await startServer({ isolatedDatabase: true });
    owner = new DashboardClient(server.url);
    await owner.signup(uniqueEmail('inbox-owner'));
    stranger = new DashboardClient(server.url);
    await stranger.signup(uniqueEmail('inbox-stranger'));
  });
  after(async () => {
    await server.close();
  });

  it('lists nothing at first, and says where test mails come from', async () => {
    const r = await owner.get('/dashboard/test-inbox');
    assert.equal(r.status, 200);
    assert.match(r.text, /<h1>Test inbox<\/h1>/);
    assert.match(r.text, /id="inbox-empty"/);
    assert.match(r.text, /aria-current="page">Test inbox/);
  });

  it('shows the ticket mail of a booking made from the preview, with its HTML body, QR code and files', async () => {
    const form = await owner.get('/dashboard/events/new');
    const made = await owner.post('/dashboard/events', {
      _csrf: DashboardClient.csrf(form.text),
      title: 'Inbox Evening',
      description: 'x',
      startDate: '2030-11-02T18:00',
      capacity: '10',
      price: '0',
      maxTeamSize: '1',
    });
    const eventId = /\/dashboard\/events\/(ev_[A-Za-z0-9_-]+)/.exec(made.location ?? '')![1]!;
    const overview = await owner.get(`/dashboard/events/${eventId}`);
    const href = /id="open-preview" href="([^"]+)"/.exec(overview.text)![1]!.replaceAll('&amp;', '&');
    const slug = /^\/e\/([a-z0-9-]+)\?/.exec(href)![1]!;
    const preview = new URL(href, server.url).searchParams.get('preview')!;
    const booked = await call(server.url, 'POST', `/e/${slug}/register`, {
      body: { preview, name: 'Asha Rao', email: buyer },
      headers: { origin: server.url },
    });
    assert.deepEqual([booked.status, booked.body.status], [201, 'confirmed'], booked.text);
    await drainJobs(server, async () => /id="inbox"/.test((await owner.get('/dashboard/test-inbox')).text));

    const inbox = await owner.get('/dashboard/test-inbox');
    inboxText = inbox.text;
    assert.match(inbox.text, new RegExp(buyer.replace(/[.+]/g, '\\$&')));
    assert.match(inbox.text, /Inbox Evening/);
    const link = /<a href="(\/dashboard\/test-inbox\/[^"]+)">[^<]*Inbox Evening/.exec(inbox.text)?.[1];
    assert.ok(link, 'the subject links the mail');
    mailId = decodeURIComponent(link.split('/').pop()!);

    const page = await owner.get(link);
    assert.equal(page.status, 200);
    assert.match(
      page.text,
      /<iframe class="mail-frame" id="mail-frame" sandbox="allow-popups allow-popups-to-escape-sandbox" src="\/dashboard\/test-inbox\/[^"]+\/body"/,
    );
    assert.doesNotMatch(page.text.replace(/sandbox="[^"]*"/, ''), /allow-scripts|allow-same-origin/);
    assert.match(page.text, /Plain text version/);
    const files = [
      ...page.text.matchAll(/<a href="(\/dashboard\/test-inbox\/[^"]+\/files\/\d+)" download="([^"]+)"/g),
    ].map((m) => ({ href: m[1]!, name: m[2]! }));
    assert.ok(
      files.some((f) => /\.png$/.test(f.name)),
      JSON.stringify(files),
    );
    assert.ok(
      files.some((f) => /\.ics$/.test(f.name)),
      JSON.stringify(files),
    );

    const body = await owner.get(`${link}/body`);
    assert.equal(body.status, 200);
    const csp = body.res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /frame-ancestors 'self'/);
    assert.match(csp, /(^|; )sandbox allow-popups allow-popups-to-escape-sandbox($|;)/);
    assert.doesNotMatch(csp, /script-src/, 'no script source at all: default-src none covers it');
    assert.equal(body.res.headers.get('x-frame-options'), 'SAMEORIGIN');
    assert.doesNotMatch(body.text, /<script/i);
    assert.doesNotMatch(body.text, /cid:/, 'inline images are shown from data URLs');
    const qr = /src="data:image\/png;base64,([^"]+)"/.exec(body.text)?.[1];
    assert.ok(qr, 'the QR code is in the body');
    assert.match(decodeQr(Buffer.from(qr, 'base64')) ?? '', /^reg_/);
    assert.match(body.text, /<a target="_blank" rel="noopener noreferrer"/, 'links open outside the frame');

    const ics = files.find((f) => /\.ics$/.test(f.name))!;
    const file = await owner.get(ics.href);
    assert.equal(file.status, 200);
    assert.match(file.res.headers.get('content-type') ?? '', /^text\/calendar/);
    assert.match(file.res.headers.get('content-disposition') ?? '', /^attachment; filename="[^"]+\.ics"/);
    assert.equal(file.res.headers.get('content-security-policy'), "default-src 'none'; sandbox");
    assert.match(file.text, /BEGIN:VCALENDAR/);
    const png = files.find((f) => /\.png$/.test(f.name))!;
    const image = await fetch(server.url + png.href, { headers: { cookie: owner.cookieHeader() } });
    assert.equal(image.status, 200);
    assert.match(decodeQr(Buffer.from(await image.arrayBuffer())) ?? '', /^reg_/);
  });

  it('shows only the account’s own mails: another account sees none of them and gets 404 for each', async () => {
    assert.ok(mailId, 'the mail of the previous test');
    const theirs = await stranger.get('/dashboard/test-inbox');
    assert.equal(theirs.status, 200);
    assert.doesNotMatch(theirs.text, /Inbox Evening/);
    assert.doesNotMatch(theirs.text, new RegExp(buyer.replace(/[.+]/g, '\\$&')));
    const base = `/dashboard/test-inbox/${encodeURIComponent(mailId)}`;
    for (const path of [base, `${base}/body`, `${base}/files/0`, `${base}/files/1`]) {
      const r = await stranger.get(path);
      assert.equal(r.status, 404, path);
      assert.doesNotMatch(r.text, /Inbox Evening|BEGIN:VCALENDAR/, path);
    }
    // Nobody signed in: the sign-in page, never the mail.
    const anonymous = new DashboardClient(server.url);
    for (const path of [base, `${base}/body`, `${base}/files/0`]) {
      const r = await anonymous.get(path);
      assert.equal(r.status, 303, path);
      assert.match(r.location ?? '', /^\/dashboard\/login/);
    }
    assert.ok(inboxText.length > 0);
  });

  it('answers 404 for an unknown mail or file, and a plain page for a bad index', async () => {
    for (const path of [
      '/dashboard/test-inbox/nope',
      '/dashboard/test-inbox/nope/body',
      `/dashboard/test-inbox/${encodeURIComponent(mailId)}/files/99`,
      `/dashboard/test-inbox/${encodeURIComponent(mailId)}/files/x`,
    ]) {
      const r = await owner.get(path);
      assert.equal(r.status, 404, path);
      assert.equal(
        r.res.headers.get('x-frame-options'),
        'DENY',
        `${path}: an error page is a dashboard page`,
      );
    }
  });
});
