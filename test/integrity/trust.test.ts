// Trust and safety in registrations and events (docs/decisions/11-trust-and-safety.md): bounded, linear
// input checks; question names that behave like any other; members-only tiers need proof
// from a browser; checkout keys read only published events; lists are pages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  call,
  createKey,
  organiser,
  signup,
  uniqueEmail,
  type Account,
  type KeyInfo,
} from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { watchScans } from '../helpers/scan-watch.js';
import { MAX_EMAIL_LENGTH } from '../../src/modules/mail/email-check.js';

describe('trust and safety in registrations and events', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let checkout: KeyInfo;
  const staffEmail = uniqueEmail('staff');
  let staff: Account;

  before(async () => {
    server = await startServer({ env: { STAFF_EMAILS: staffEmail } });
    org = await organiser(server.url);
    checkout = await createKey(server.url, org.token, { mode: 'test', class: 'checkout' });
    staff = await signup(server.url, { email: staffEmail });
  });
  after(async () => {
    await server.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const event = (fields: Record<string, unknown> = {}, key = org.key) =>
    createEvent(keyApi(server.url, key), { title: 'Gig', description: 'Music', ...fields });

  it('checks an email answer without scanning past its length cap and bounds every answer’s length', async () => {
    const id = await event({ customFields: [{ name: 'work', type: 'email' }, { name: 'note' }] });
    // Work counted, not timed: while these requests run, no regular expression or string
    // scan in the process reads the answer (a string starting "a@") beyond the email
    // check's cap; a backtracking pattern run over it would read all of it.
    const watch = watchScans();
    let slow, big;
    try {
      slow = await api('POST', `/api/v1/events/${id}/register`, {
        name: 'A',
        email: uniqueEmail(),
        customFields: { work: `a@${'.'.repeat(1900)} ` },
      });
      big = await api('POST', `/api/v1/events/${id}/register`, {
        name: 'A',
        email: uniqueEmail(),
        customFields: { work: `a@${'.'.repeat(50_000)} ` },
      });
    } finally {
      watch.stop();
    }
    assert.equal(slow.status, 400, slow.text);
    assert.match(
      slow.body.error,
      /customFields\.work must be an email address/,
      'refused by the email check',
    );
    assert.equal(big.status, 400);
    assert.match(
      big.body.error,
      /customFields\.work must NOT have more than 2000 characters/,
      'refused by the length bound, before the email check',
    );
    const answerRead = watch.longest((s) => s.startsWith('a@.'));
    assert.ok(
      answerRead <= MAX_EMAIL_LENGTH + 64,
      `a string of ${answerRead} characters of the answer was scanned`,
    );
    const long = await api('POST', `/api/v1/events/${id}/register`, {
      name: 'A',
      email: uniqueEmail(),
      customFields: { work: `${'a'.repeat(3000)}@example.in` },
    });
    assert.equal(long.status, 400, 'an email answer has a maximum length too');
    const ok = await api('POST', `/api/v1/events/${id}/register`, {
      name: 'A',
      email: uniqueEmail(),
      customFields: { work: 'me@work.in', note: 'hi' },
    });
    assert.equal(ok.status, 201, ok.text);
    const doc = (await api('GET', '/api/v1/openapi.json')).body;
    const text = JSON.stringify(doc);
    assert.ok(text.includes('"membershipId"'), 'membershipId is documented');
  });

  it('treats questions named constructor, __proto__ and toString like any other', async () => {
    const id = await event({
      customFields: [
        { name: 'constructor', required: true },
        { name: '__proto__', required: true },
        { name: 'toString' },
        { name: 'hasOwnProperty', type: 'select', options: ['a', 'b'] },
      ],
    });
    const shown = (await api('GET', `/api/v1/events/${id}`)).body.data.customFields.map((f: any) => f.name);
    assert.deepEqual(shown, ['constructor', '__proto__', 'toString', 'hasOwnProperty']);
    const answers = JSON.parse('{"constructor":"c","__proto__":"p","hasOwnProperty":"b"}');
    const r = await api('POST', `/api/v1/events/${id}/register`, {
      name: 'A',
      email: uniqueEmail(),
      customFields: answers,
    });
    assert.equal(r.status, 201, r.text);
    const reg = (await api('GET', `/api/v1/events/${id}/registrations/${r.body.registrationId}`)).body.data;
    assert.deepEqual(Object.entries(reg.customFields).sort(), [
      ['__proto__', 'p'],
      ['constructor', 'c'],
      ['hasOwnProperty', 'b'],
    ]);
    const missing = await api('POST', `/api/v1/events/${id}/register`, {
      name: 'A',
      email: uniqueEmail(),
      customFields: { constructor: 'c' },
    });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.code, 'missing_custom_field');
    // The hosted page names the questions and its JSON call takes the same answers.
    const slug = (await api('GET', `/api/v1/events/${id}`)).body.data.slug;
    const page = await call(server.url, 'POST', `/e/${slug}/register`, {
      body: { key: checkout.key, name: 'B', email: uniqueEmail(), customFields: answers },
    });
    assert.equal(page.status, 201, page.text);
  });

  it('refuses text with an unpaired UTF-16 surrogate with 400 on the API’s JSON parsers, and takes paired ones', async () => {
    // JSON can spell "\ud800", which is not Unicode: PostgreSQL refuses it inside json (a
    // track's fields were a 500) and turns it into U+FFFD inside text.
    const id = await event({ customFields: [{ name: 'note' }] });
    const lone = ['\ud800', 'a\udfffb', '\udc00\ud800', 'x\ud83c'];
    for (const s of lone) {
      const track = await api('POST', `/api/v1/events/${id}/tracks`, { title: s });
      assert.equal(track.status, 400, `${JSON.stringify(s)}: ${track.text}`);
      assert.equal(track.body.code, 'invalid_json');
      assert.match(track.body.error, /surrogate/);
      // fixture-exception: the creation's refusal of a lone surrogate is the subject
      const created = await api('POST', '/api/v1/events', {
        title: s,
        description: 'x',
        startDate: '2026-12-20',
      });
      assert.equal(created.status, 400, 'Fastify’s own parser too');
      // The registration routes keep __proto__ keys with a parser of their own; keys are checked too.
      const answer = await api('POST', `/api/v1/events/${id}/register`, {
        name: 'A',
        email: uniqueEmail(),
        customFields: { note: s },
      });
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.body.code, 'invalid_json');
      const key = await api('POST', `/api/v1/events/${id}/register`, {
        name: 'A',
        email: uniqueEmail(),
        customFields: { [s]: 'x' },
      });
      assert.equal(key.body.code, 'invalid_json');
    }
    // fixture-exception: the creation's refusal of a deeply nested body is the subject
    const deep = await call(server.url, 'POST', '/api/v1/events', {
      key: org.key,
      raw: `${'['.repeat(200_000)}"\\ud800"${']'.repeat(200_000)}`,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(deep.status, 400, 'a deeply nested body is walked without recursion');
    assert.equal(deep.body.code, 'invalid_json');
    const ticket = '\ud83c\udf9f\ufe0f Gig';
    const track = await api('POST', `/api/v1/events/${id}/tracks`, { title: ticket });
    assert.equal(track.status, 201, track.text);
    assert.equal(track.body.data.title, ticket);
    const literal = await call(server.url, 'POST', `/api/v1/events/${id}/register`, {
      key: org.key,
      raw: JSON.stringify({ name: 'A', email: uniqueEmail(), customFields: { note: 'C:\\ud800' } }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(
      literal.status,
      201,
      `an escaped backslash before "ud800" is ordinary text: ${literal.text}`,
    );
  });

  it('asks a browser for proof of membership on a members-only tier; a full key vouches for the email', async () => {
    const planReply = await api('POST', '/api/v1/memberships/plans', {
      name: 'Club',
      amount: 500,
      period: 'quarterly',
    });
    assert.equal(planReply.status, 201, planReply.text);
    const plan = planReply.body.data.id;
    const memberEmail = uniqueEmail('member');
    const m = await call(server.url, 'POST', '/admin/api/memberships', {
      token: staff.token,
      body: { planId: plan, name: 'Member', email: memberEmail, validUntil: '2099-01-01' },
    });
    assert.equal(m.status, 201, m.text);
    const membershipId = m.body.data.id;
    const id = await event({ specialPrices: [{ name: 'Members', price: 0, membersOnly: true }] });
    const book = (key: string, extra: Record<string, unknown> = {}) =>
      api(
        'POST',
        `/api/v1/events/${id}/register`,
        { name: 'M', email: memberEmail, ticketType: 'Members', ...extra },
        key,
      );

    const bare = await book(checkout.key);
    assert.equal(bare.status, 403, bare.text);
    assert.equal(bare.body.code, 'membership_required');
    const otherEmail = await api(
      'POST',
      `/api/v1/events/${id}/register`,
      { name: 'X', email: uniqueEmail(), ticketType: 'Members', membershipId },
      checkout.key,
    );
    assert.equal(otherEmail.status, 403, 'the membership must carry the email booked');
    assert.equal((await book(checkout.key, { membershipId: 'mem_nope' })).status, 403);
    assert.equal((await book(checkout.key, { membershipId })).status, 201);
    assert.equal((await book(org.key)).status, 201, 'a full key vouches for the email');
    const stranger = await api('POST', `/api/v1/events/${id}/register`, {
      name: 'S',
      email: uniqueEmail(),
      ticketType: 'Members',
    });
    assert.equal(stranger.body.code, 'members_only');
  });

  it('shows a live checkout key only published events, and never personal data', async () => {
    const live = await organiser(server.url, 'live');
    await call(server.url, 'POST', `/admin/api/accounts/${live.userId}/organiser-access`, {
      token: staff.token,
      body: { canPublish: true },
    });
    const pk = await createKey(server.url, live.token, { mode: 'live', class: 'checkout' });
    const draft = await event({}, live.key);
    const published = await event({ title: 'Out' }, live.key);
    assert.equal(
      (await api('PATCH', `/api/v1/events/${published}`, { status: 'published' }, live.key)).status,
      200,
    );
    for (const path of [
      `/api/v1/events/${draft}`,
      `/api/v1/events/${draft}/availability`,
      `/api/v1/events/${draft}/tracks`,
    ]) {
      assert.equal((await api('GET', path, undefined, pk.key)).status, 404, path);
    }
    assert.equal(
      (await api('POST', `/api/v1/events/${draft}/register`, { name: 'A', email: uniqueEmail() }, pk.key))
        .status,
      404,
    );
    assert.equal((await api('GET', `/api/v1/events/${published}`, undefined, pk.key)).status, 200);
    const list = (await api('GET', '/api/v1/events', undefined, pk.key)).body;
    assert.deepEqual(
      list.data.map((e: any) => e.id),
      [published],
    );
    assert.equal(list.count, 1);
    for (const path of [
      `/api/v1/events/${published}/registrations`,
      `/api/v1/events/${published}/promo-codes`,
      `/api/v1/events/${published}/analytics`,
      `/api/v1/events/${published}/check-in?registrationId=reg_x`,
    ]) {
      assert.equal((await api('GET', path, undefined, pk.key)).status, 403, path);
    }
    // A test checkout key still reads its account's draft test events.
    const testDraft = await event();
    assert.equal((await api('GET', `/api/v1/events/${testDraft}`, undefined, checkout.key)).status, 200);
  });

  it('answers every list in pages with hasMore and nextCursor', async () => {
    const paging = await organiser(server.url);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(await event({ startDate: `2026-12-0${i + 1}`, capacity: 10 }, paging.key));
    const readAll = async (path: string) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let count = -1;
      for (let pages = 0; pages < 10; pages++) {
        const q: string = `${path}${path.includes('?') ? '&' : '?'}limit=2${cursor ? `&startingAfter=${cursor}` : ''}`;
        const r = await api('GET', q, undefined, paging.key);
        assert.equal(r.status, 200, r.text);
        assert.ok(r.body.data.length <= 2);
        seen.push(...r.body.data.map((x: any) => x.id));
        count = r.body.count;
        if (!r.body.hasMore) {
          assert.equal(r.body.nextCursor, null);
          break;
        }
        cursor = r.body.nextCursor;
      }
      return { seen, count };
    };
    const evs = await readAll('/api/v1/events');
    assert.deepEqual(evs.seen, [...ids].reverse(), 'newest start first, each once');
    assert.equal(evs.count, 5);
    const book = async (eventId: string): Promise<string> =>
      (
        await api(
          'POST',
          `/api/v1/events/${eventId}/register`,
          { name: 'P', email: uniqueEmail() },
          paging.key,
        )
      ).body.registrationId;
    const regIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      server.clock.advance(1000);
      regIds.push(await book(ids[0]!));
    }
    const regs = await readAll(`/api/v1/events/${ids[0]}/registrations`);
    assert.deepEqual(regs.seen, regIds);
    assert.equal(regs.count, 5);
    // Bookings made at one instant page in the order of their ids, each once.
    const sameInstant: string[] = [];
    for (let i = 0; i < 5; i++) sameInstant.push(await book(ids[1]!));
    const tied = await readAll(`/api/v1/events/${ids[1]}/registrations`);
    assert.deepEqual(tied.seen, [...sameInstant].sort());
    assert.equal(tied.count, 5);
    for (const code of ['AA', 'BB', 'CC'])
      await api('POST', `/api/v1/events/${ids[0]}/promo-codes`, { code, discountPercent: 5 }, paging.key);
    const codes = await readAll(`/api/v1/events/${ids[0]}/promo-codes`);
    assert.equal(codes.seen.length, 3);
    assert.equal(codes.count, 3);
    assert.equal((await api('GET', '/api/v1/events?limit=1001', undefined, paging.key)).status, 400);
    assert.equal(
      (await api('GET', '/api/v1/events?startingAfter=ev_nope', undefined, paging.key)).body.code,
      'invalid_cursor',
    );
  });
});
