// Wallet passes (docs/decisions/16-the-buyers-ticket.md), over HTTP against a real server whose settings are
// stand-in credentials this test makes (helpers/wallet-keys.ts): the .pkpass's signature
// verifies with openssl against the test's root through the WWDR-like intermediate it
// carries, its manifest hashes every file, pass.json says the ticket; the Google link's JWT
// verifies with the service account's public key and carries an EventTicketObject. Both
// carry the bare ticket id as the QR. A wrong, unknown or retired token is 404.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { importSPKI, jwtVerify } from 'jose';
import { GOOGLE_SAVE_URL } from '../../src/modules/wallet/google-wallet.js';
import { walletLinks } from '../../src/lib/wallet-links.js';
import { call, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';
import {
  cmsVerifies,
  ISSUER_ID,
  makeWalletKeys,
  PASS_TYPE_ID,
  SA_EMAIL,
  signatureSubjects,
  TEAM_ID,
  unzip,
  type WalletKeys,
} from '../helpers/wallet-keys.js';

const BASE_URL = 'https://tickets.example.in';

describe('wallet passes', () => {
  let keys: WalletKeys;
  let server: TestServer;
  let org: Account & KeyInfo;
  let eventId: string;

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  /** A confirmed booking's id and its wallet links, as the page and mail get them. */
  const book = async (name = 'Asha Rao') => {
    const r = await api('POST', `/api/v1/events/${eventId}/register`, { name, email: uniqueEmail('w') });
    assert.equal(r.status, 201, r.text);
    return {
      id: r.body.registrationId as string,
      links: walletLinks(server.deps.config, { id: r.body.registrationId, ticket_code: null }),
    };
  };
  /** The path of a link made for BASE_URL, asked of the test server. */
  const get = (link: string) => fetch(server.url + new URL(link).pathname, { redirect: 'manual' });

  before(async () => {
    keys = makeWalletKeys();
    server = await startServer({ env: { ...keys.env, BASE_URL } });
    org = await organiser(server.url);
    eventId = await createEvent(api, {
      title: 'Pune Tech Summit',
      startDate: '2026-12-05T10:00:00+05:30',
      endDate: '2026-12-05T17:30:00+05:30',
      location: 'Hall A, Pune',
    });
  });
  after(async () => {
    await server?.close();
    keys?.close();
  });

  it('GET /t/{token}/pass.pkpass: a signed event ticket whose barcode is the bare ticket id', async () => {
    const { id, links } = await book();
    assert.match(links.applePass!, new RegExp(`^${BASE_URL}/t/${id}\\.[A-Za-z0-9_-]{22}/pass\\.pkpass$`));
    const res = await get(links.applePass!);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/vnd.apple.pkpass');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const files = unzip(Buffer.from(await res.arrayBuffer()));
    for (const f of ['pass.json', 'manifest.json', 'signature', 'icon.png', 'icon@2x.png', 'logo.png'])
      assert.ok(files.has(f), `${f} in the pass`);

    // The manifest lists every other file with its SHA-1, and nothing else.
    const manifest = JSON.parse(files.get('manifest.json')!.toString()) as Record<string, string>;
    assert.deepEqual(
      Object.keys(manifest).sort(),
      [...files.keys()].filter((f) => f !== 'manifest.json' && f !== 'signature').sort(),
    );
    for (const [name, sha1] of Object.entries(manifest))
      assert.equal(sha1, createHash('sha1').update(files.get(name)!).digest('hex'), name);

    // Signed by the pass certificate, the intermediate included, chaining to the root.
    const signature = files.get('signature')!;
    assert.equal(
      cmsVerifies(signature, files.get('manifest.json')!, keys.rootPem),
      true,
      'openssl cms -verify',
    );
    assert.equal(
      cmsVerifies(
        signature,
        Buffer.from(files.get('manifest.json')!.toString().replace('"pass.json"', '"pass.jsom"')),
        keys.rootPem,
      ),
      false,
      'a changed manifest fails',
    );
    const other = makeWalletKeys();
    assert.equal(
      cmsVerifies(signature, files.get('manifest.json')!, other.rootPem),
      false,
      'another root fails',
    );
    other.close();
    assert.deepEqual(
      signatureSubjects(signature)
        .map((s) => /CN = ([^,]+)/.exec(s)![1])
        .sort(),
      [`Pass Type ID: ${PASS_TYPE_ID}`, 'Test Worldwide Developer Relations G4'],
    );

    const pass = JSON.parse(files.get('pass.json')!.toString());
    assert.equal(pass.formatVersion, 1);
    assert.equal(pass.passTypeIdentifier, PASS_TYPE_ID);
    assert.equal(pass.teamIdentifier, TEAM_ID);
    assert.equal(pass.serialNumber, id);
    assert.equal(pass.description, 'Ticket: Pune Tech Summit');
    assert.deepEqual(pass.barcodes, [
      { format: 'PKBarcodeFormatQR', message: id, messageEncoding: 'iso-8859-1', altText: id },
    ]);
    assert.deepEqual(pass.eventTicket.primaryFields, [
      { key: 'event', label: 'EVENT', value: 'Pune Tech Summit' },
    ]);
    const when = pass.eventTicket.secondaryFields[0];
    assert.equal(when.value, '2026-12-05T10:00:00+05:30', 'the event’s own time, offset kept');
    assert.equal(when.ignoresTimeZone, true);
    assert.deepEqual(
      pass.eventTicket.auxiliaryFields.map((f: { value: string }) => f.value),
      ['Asha Rao', 'General'],
    );
    assert.equal(
      pass.eventTicket.backFields.find((f: { key: string }) => f.key === 'venue').value,
      'Hall A, Pune',
    );
    assert.deepEqual(
      pass.relevantDates.map((d: { startDate: string }) => new Date(d.startDate).toISOString()),
      ['2026-12-05T04:30:00.000Z'],
    );
  });

  it('GET /t/{token}/google-wallet: a redirect to a save link whose JWT verifies and carries the ticket', async () => {
    const { id, links } = await book('Ravi Kumar');
    const res = await get(links.googleWallet!);
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    const location = res.headers.get('location')!;
    assert.ok(location.startsWith(GOOGLE_SAVE_URL), location);
    assert.ok(location.length < 1800, `the link stays short (${location.length} characters)`);
    const jwt = location.slice(GOOGLE_SAVE_URL.length);
    const { payload, protectedHeader } = await jwtVerify(
      jwt,
      await importSPKI(keys.googlePublicPem, 'RS256'),
      { audience: 'google', issuer: SA_EMAIL },
    );
    assert.equal(protectedHeader.alg, 'RS256');
    assert.equal(payload.typ, 'savetowallet');
    assert.deepEqual(payload.origins, [BASE_URL]);
    assert.equal(payload.iat, Math.floor(server.clock.now().getTime() / 1000));
    const body = payload.payload as { eventTicketObjects: any[]; eventTicketClasses: any[] };
    const [object] = body.eventTicketObjects;
    const [cls] = body.eventTicketClasses;
    assert.equal(object.id, `${ISSUER_ID}.${id}`);
    assert.equal(object.classId, cls.id);
    assert.equal(cls.id, `${ISSUER_ID}.event_${eventId}`);
    assert.equal(object.state, 'ACTIVE');
    assert.deepEqual(object.barcode, { type: 'QR_CODE', value: id, alternateText: id });
    assert.equal(object.ticketHolderName, 'Ravi Kumar');
    assert.equal(cls.eventName.defaultValue.value, 'Pune Tech Summit');
    assert.deepEqual(cls.dateTime, { start: '2026-12-05T10:00:00+05:30', end: '2026-12-05T17:30:00+05:30' });
    assert.equal(cls.reviewStatus, 'UNDER_REVIEW');
    // Signed by another key, the same JWT does not verify.
    const other = makeWalletKeys();
    await assert.rejects(jwtVerify(jwt, await importSPKI(other.googlePublicPem, 'RS256')));
    other.close();
  });

  it('the ticket mail offers both wallets to the booking’s primary', async () => {
    const { id, links } = await book();
    for (let i = 0; i < 50 && (await server.deps.jobs.runOnce()) > 0; i++);
    const mails = (await api('GET', '/api/v1/sandbox/emails')).body.data as {
      subject: string;
      text: string;
    }[];
    const mail = mails.find((m) => m.subject.startsWith('Your ticket') && m.text.includes(id));
    assert.ok(mail, 'the ticket mail was kept by test mode');
    assert.ok(mail!.text.includes(`Add to Apple Wallet: ${links.applePass}`), mail!.text);
    assert.ok(mail!.text.includes(`Save to Google Wallet: ${links.googleWallet}`), mail!.text);
  });

  it('a wrong, unknown or bent token is 404 with { error, code }, never a 5xx', async () => {
    const { id, links } = await book();
    const token = new URL(links.applePass!).pathname.split('/')[2]!;
    const mac = token.split('.')[1]!;
    const flipped = `${id}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    const someoneElse = (await book()).id;
    for (const bad of [
      flipped,
      `${someoneElse}.${mac}`,
      `reg_${'Q'.repeat(16)}.${mac}`,
      'x',
      'reg_.',
      `${id}.`,
      encodeURIComponent('reg_a/b.c'),
      'a'.repeat(100),
      `${token}x`,
    ]) {
      for (const suffix of ['pass.pkpass', 'google-wallet']) {
        const r = await call(server.url, 'GET', `/t/${bad}/${suffix}`);
        assert.equal(r.status, 404, `${bad}/${suffix}: ${r.status} ${r.text.slice(0, 100)}`);
        assert.equal(typeof r.body.error, 'string');
        assert.equal(typeof r.body.code, 'string');
      }
    }
    const long = await call(server.url, 'GET', `/t/${'a'.repeat(101)}/pass.pkpass`);
    assert.deepEqual(
      [long.status, long.body.code],
      [414, 'uri_too_long'],
      'an over-long token is refused before any lookup',
    );
  });

  it('a transfer retires the old links; the new holder’s pass carries the new ticket id', async () => {
    const { id, links } = await book('First Holder');
    const t = await api('POST', `/api/v1/events/${eventId}/registrations/${id}/transfer`, {
      name: 'New Holder',
      email: uniqueEmail('new'),
    });
    assert.equal(t.status, 200, t.text);
    const ticketCode = t.body.data.ticketCode as string;
    assert.equal((await get(links.applePass!)).status, 404);
    assert.equal((await get(links.googleWallet!)).status, 404);
    const fresh = walletLinks(server.deps.config, { id, ticket_code: ticketCode });
    const res = await get(fresh.applePass!);
    assert.equal(res.status, 200);
    const pass = JSON.parse(
      unzip(Buffer.from(await res.arrayBuffer()))
        .get('pass.json')!
        .toString(),
    );
    assert.equal(pass.barcodes[0].message, ticketCode);
    assert.equal(pass.serialNumber, ticketCode);
    assert.equal(pass.eventTicket.auxiliaryFields[0].value, 'New Holder');
  });

  it('a Day 2 booking’s pass and Google class carry Day 2’s start and end, not the event’s', async () => {
    const twoDays = await createEvent(api, {
      title: 'Two-day fest',
      startDate: '2026-12-20T18:30+05:30',
      endDate: '2026-12-21T21:00+05:30',
      tracks: [
        { title: 'Day 1', startsAt: '2026-12-20T18:30+05:30', endsAt: '2026-12-20T21:00+05:30' },
        { title: 'Day 2', startsAt: '2026-12-21T18:30+05:30', endsAt: '2026-12-21T21:00+05:30' },
      ],
    });
    const r = await api('POST', `/api/v1/events/${twoDays}/register`, {
      name: 'Day Two',
      email: uniqueEmail('d2'),
      subEventId: '1',
    });
    assert.equal(r.status, 201, r.text);
    const links = walletLinks(server.deps.config, { id: r.body.registrationId, ticket_code: null });
    const pass = JSON.parse(
      unzip(Buffer.from(await (await get(links.applePass!)).arrayBuffer()))
        .get('pass.json')!
        .toString(),
    );
    assert.equal(pass.eventTicket.secondaryFields[0].value, '2026-12-21T18:30:00+05:30');
    assert.deepEqual(
      pass.relevantDates.map((d: { startDate: string; endDate: string }) => [
        new Date(d.startDate).toISOString(),
        new Date(d.endDate).toISOString(),
      ]),
      [['2026-12-21T13:00:00.000Z', '2026-12-21T15:30:00.000Z']],
      'Day 2, 6:30 to 9:00 pm IST',
    );
    assert.equal(pass.eventTicket.auxiliaryFields[1].value, 'General · Day 2');
    const jwt = (await get(links.googleWallet!)).headers.get('location')!.slice(GOOGLE_SAVE_URL.length);
    const { payload } = await jwtVerify(jwt, await importSPKI(keys.googlePublicPem, 'RS256'), {
      audience: 'google',
      issuer: SA_EMAIL,
    });
    const [cls] = (payload.payload as { eventTicketClasses: any[] }).eventTicketClasses;
    assert.equal(cls.id, `${ISSUER_ID}.event_${twoDays}_track_1`, 'each session a class of its own');
    assert.deepEqual(cls.dateTime, { start: '2026-12-21T18:30:00+05:30', end: '2026-12-21T21:00:00+05:30' });
  });

  it('a seated booking’s pass names the seat, and its Google object carries section, row and seat', async () => {
    const plan = await api('POST', '/api/v1/seating-plans', {
      name: 'Hall A',
      grid: { sections: [{ name: 'Stalls', rows: 3, seatsPerRow: 4, category: 'Gold' }] },
    });
    assert.equal(plan.status, 201, plan.text);
    const seated = await createEvent(api, {
      title: 'Seated summit',
      startDate: '2026-12-06',
      seatingPlanId: plan.body.data.id,
      specialPrices: [{ name: 'Gold', price: 0 }],
    });
    const held = await api('POST', `/api/v1/events/${seated}/seats/hold`, { seats: ['Stalls-C-4'] });
    assert.equal(held.status, 201, held.text);
    const r = await api('POST', `/api/v1/events/${seated}/register`, {
      name: 'Seated One',
      email: uniqueEmail('seat'),
      holdToken: held.body.data.holdToken,
    });
    assert.equal(r.status, 201, r.text);
    const links = walletLinks(server.deps.config, { id: r.body.registrationId, ticket_code: null });
    const pass = JSON.parse(
      unzip(Buffer.from(await (await get(links.applePass!)).arrayBuffer()))
        .get('pass.json')!
        .toString(),
    );
    assert.deepEqual(
      pass.eventTicket.auxiliaryFields.map((f: { label: string; value: string }) => [f.label, f.value]),
      [
        ['NAME', 'Seated One'],
        ['TICKET', 'Gold'],
        ['SEAT', 'Stalls · Row C, seat 4'],
      ],
    );
    const jwt = (await get(links.googleWallet!)).headers.get('location')!.slice(GOOGLE_SAVE_URL.length);
    const { payload } = await jwtVerify(jwt, await importSPKI(keys.googlePublicPem, 'RS256'), {
      audience: 'google',
      issuer: SA_EMAIL,
    });
    const [object] = (payload.payload as { eventTicketObjects: any[] }).eventTicketObjects;
    assert.deepEqual(
      [object.seatInfo.section, object.seatInfo.row, object.seatInfo.seat].map((t) => t.defaultValue.value),
      ['Stalls', 'C', '4'],
    );
  });

  it('a cancelled booking’s link answers 409 not_confirmed', async () => {
    const { id, links } = await book();
    assert.equal((await api('POST', `/api/v1/events/${eventId}/registrations/${id}/cancel`)).status, 200);
    const r = await call(server.url, 'GET', new URL(links.applePass!).pathname);
    assert.deepEqual([r.status, r.body.code], [409, 'not_confirmed']);
  });
});

describe('wallet passes without settings', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.close();
  });

  it('offers no links, and the routes answer 404 wallet_not_configured even for a good token', async () => {
    const org = await organiser(server.url);
    const noWallet = await createEvent(keyApi(server.url, org.key), {
      title: 'No wallet',
      startDate: '2026-12-05',
    });
    const r = await call(server.url, 'POST', `/api/v1/events/${noWallet}/register`, {
      key: org.key,
      body: { name: 'N', email: uniqueEmail('n') },
    });
    const registration = { id: r.body.registrationId as string, ticket_code: null };
    assert.deepEqual(walletLinks(server.deps.config, registration), {});
    // A good token, made as if the links had been offered.
    const withWallets = { ...server.deps.config, wallet: { apple: {} as never, google: {} as never } };
    for (const link of Object.values(walletLinks(withWallets, registration))) {
      const res = await call(server.url, 'GET', new URL(link).pathname);
      assert.deepEqual([res.status, res.body.code], [404, 'wallet_not_configured'], link);
    }
  });
});
