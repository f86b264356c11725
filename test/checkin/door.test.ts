// Door passes, the door's roster and the sync of a device's scans, through HTTP.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DashboardClient } from '../helpers/dashboard.js';
import { call, organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { passApi } from '../helpers/callers.js';
import { createEvent, keyApi, payInSandbox } from '../helpers/factories.js';
import { dashboardSessionsOf } from '../helpers/rows.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { redactPath } from '../../src/lib/logger.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('the door: passes, roster and sync', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let other: Account & KeyInfo;
  let eventId: string;

  before(async () => {
    server = await startServer({ env: { BASE_URL: 'https://tickets.example.in' } });
    org = await organiser(server.url);
    other = await organiser(server.url);
    eventId = await event({ maxTeamSize: 4, price: 100 });
  });
  after(async () => {
    await server.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const asPass = passApi(() => server.url);
  const event = (fields: Record<string, unknown> = {}, key = org.key) =>
    createEvent(keyApi(server.url, key), { title: 'Door night', ...fields });
  /** A paid booking, confirmed through the sandbox: it has an email, a phone and money. */
  async function book(ev: string, members = 0): Promise<{ id: string; ticketIds: string[]; email: string }> {
    const email = uniqueEmail('guest');
    const s1 = await api('POST', `/api/v1/events/${ev}/register`, {
      name: 'Meera Guest',
      email,
      phone: '+919876543210',
      ...(members > 0
        ? {
            teamMembers: Array.from({ length: members }, (_, i) => ({
              name: `Member ${i + 1}`,
              email: uniqueEmail(`m${i}`),
            })),
          }
        : {}),
    });
    assert.equal(s1.status, 201, s1.text);
    const id: string = s1.body.registrationId;
    if (s1.body.orderId) {
      const paymentId = await payInSandbox(api, s1.body.orderId);
      const s2 = await api('POST', `/api/v1/events/${ev}/register`, {
        registrationId: id,
        orderId: s1.body.orderId,
        paymentId,
      });
      assert.ok(s2.status < 300, s2.text);
    }
    const look = await api('GET', `/api/v1/events/${ev}/check-in?registrationId=${id}`);
    return { id, ticketIds: look.body.data.members.map((m: any) => m.id), email };
  }
  async function pass(
    ev = eventId,
    label = 'Gate A',
    extra: Record<string, unknown> = {},
  ): Promise<{ id: string; token: string; url: string }> {
    const r = await api('POST', `/api/v1/events/${ev}/door-passes`, { label, ...extra });
    assert.equal(r.status, 201, r.text);
    const url = new URL(r.body.data.url);
    return { id: r.body.data.id, url: r.body.data.url, token: url.pathname.split('/')[2]! };
  }

  it('creates a pass once with its link, stores only a hash, lists without tokens', async () => {
    const r = await api('POST', `/api/v1/events/${eventId}/door-passes`, { label: 'Gate B' });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(Object.keys(r.body.data).sort(), [
      'createdAt',
      'expiresAt',
      'id',
      'label',
      'revokedAt',
      'scope',
      'url',
    ]);
    const url = new URL(r.body.data.url);
    assert.equal(url.origin, 'https://tickets.example.in');
    const token = url.pathname.split('/')[2]!;
    assert.match(url.pathname, /^\/door\/[A-Za-z0-9_-]+$/);
    assert.ok(Buffer.from(token, 'base64url').length * 8 >= 128, 'at least 128 random bits');
    const row = await server.deps.db
      .selectFrom('door_passes')
      .selectAll()
      .where('id', '=', r.body.data.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.token_hash, sha256(token));
    assert.ok(!JSON.stringify(row).includes(token), 'the token itself is not stored');
    const list = await api('GET', `/api/v1/events/${eventId}/door-passes`);
    assert.equal(list.status, 200);
    assert.ok(list.body.data.some((p: any) => p.id === r.body.data.id && p.label === 'Gate B'));
    assert.ok(!list.text.includes(token) && !list.text.includes('/door/'), 'no tokens or links in the list');
    // Another account's event: 403; a label is required and bounded.
    assert.equal(
      (await api('POST', `/api/v1/events/${eventId}/door-passes`, { label: 'x' }, other.key)).status,
      403,
    );
    assert.equal(
      (await api('POST', `/api/v1/events/${eventId}/door-passes`, { label: 'x'.repeat(81) })).status,
      400,
    );
    assert.equal((await api('POST', `/api/v1/events/${eventId}/door-passes`, {})).status, 400);
  });

  it('a pass opens its own event’s roster and sync only, and never the organiser’s API', async () => {
    const p = await pass();
    const roster = await asPass('GET', `/api/v1/events/${eventId}/door/roster`, p.token);
    assert.equal(roster.status, 200, roster.text);
    const elsewhere = await event();
    const r = await asPass('GET', `/api/v1/events/${elsewhere}/door/roster`, p.token);
    assert.deepEqual([r.status, r.body.code], [403, 'door_pass_other_event']);
    assert.equal(
      (await asPass('POST', `/api/v1/events/${elsewhere}/door/sync`, p.token, { deviceId: 'd1', scans: [] }))
        .status,
      403,
    );
    // The pass is no key: the organiser's routes refuse it.
    for (const path of [
      `/api/v1/events/${eventId}`,
      `/api/v1/events/${eventId}/registrations`,
      `/api/v1/events/${eventId}/check-in?registrationId=x`,
      `/api/v1/events/${eventId}/door-passes`,
    ]) {
      const x = await asPass('GET', path, p.token);
      assert.equal(x.status, 401, `${path}: ${x.text}`);
    }
    assert.deepEqual(
      [(await asPass('GET', `/api/v1/events/${eventId}/door/roster`, 'not-a-token')).status],
      [401],
    );
    const none = await call(server.url, 'GET', `/api/v1/events/${eventId}/door/roster`);
    assert.deepEqual([none.status, none.body.code], [401, 'missing_door_pass']);
  });

  it('the roster holds hashes, names, types and state: no ids, email, phone, answers or money', async () => {
    const b = await book(eventId, 2);
    const p = await pass();
    const r = await asPass('GET', `/api/v1/events/${eventId}/door/roster`, p.token);
    assert.equal(r.status, 200, r.text);
    const entry = r.body.data.entries.find((e: any) => e.key === sha256(b.id));
    assert.ok(entry, 'keyed by sha256 of the booking id');
    assert.deepEqual(
      entry.members.map((m: any) => [m.index, m.name, m.checkedIn]),
      [
        [0, 'Meera Guest', false],
        [1, 'Member 1', false],
        [2, 'Member 2', false],
      ],
    );
    assert.deepEqual(
      entry.members.slice(1).map((m: any) => m.key),
      [sha256(b.ticketIds[1]!), sha256(b.ticketIds[2]!)],
    );
    assert.equal(entry.refusal, null);
    assert.equal(entry.ticketType, 'General');
    for (const secret of [
      b.id,
      ...b.ticketIds,
      b.email,
      '9876543210',
      'amount',
      'paise',
      '"price"',
      'email',
      'phone',
    ]) {
      assert.ok(!r.text.includes(secret), `the roster shows ${secret}`);
    }
    assert.equal(typeof r.body.data.cursor, 'string');
    assert.equal(r.body.data.full, true);
    assert.ok(r.body.data.counts.expected >= 3);
  });

  it('sync admits in order, is idempotent per (device, seq), and names who admitted first', async () => {
    const b = await book(eventId);
    const p = await pass(eventId, 'Gate C');
    const sync = (deviceId: string, scans: unknown[]) =>
      asPass('POST', `/api/v1/events/${eventId}/door/sync`, p.token, { deviceId, scans });
    const first = await sync('phone-1', [
      { seq: 1, ticketId: b.id, action: 'admit', at: '2026-12-20T10:00:00Z' },
    ]);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body.data.results, [{ seq: 1, status: 'admitted' }]);
    // The same scan again: the same answer, nothing changes.
    server.clock.advance(60_000);
    assert.deepEqual(
      (await sync('phone-1', [{ seq: 1, ticketId: b.id, action: 'admit' }])).body.data.results,
      [{ seq: 1, status: 'admitted' }],
    );
    const log = await server.deps.db
      .selectFrom('checkin_log')
      .selectAll()
      .where('attendee_id', '=', b.id)
      .execute();
    assert.equal(log.length, 1);
    assert.equal(log[0]!.actor, `pass:${p.id}/phone-1`);
    // Another device: already in, by whom and when.
    const again = await sync('phone-2', [{ seq: 1, ticketId: b.id, action: 'admit' }]);
    const r = again.body.data.results[0];
    assert.equal(r.status, 'already_admitted');
    assert.equal(
      r.by,
      `Gate C · device ${sha256('phone-1').slice(0, 4)}`,
      'a device by its label, never its id',
    );
    const api1 = await api('GET', `/api/v1/events/${eventId}/check-in?registrationId=${b.id}`);
    assert.equal(r.at, api1.body.data.members[0].checkedInAt);
    // Undo, then the API admits: the roster says "API key".
    assert.deepEqual(
      (await sync('phone-2', [{ seq: 2, ticketId: b.id, action: 'undo' }])).body.data.results,
      [{ seq: 2, status: 'undone' }],
    );
    assert.equal(
      (await api('POST', `/api/v1/events/${eventId}/check-in`, { registrationId: b.id })).status,
      201,
    );
    const viaApi = (
      await sync('phone-2', [{ seq: 3, ticketKey: sha256(b.id), memberIndex: 0, action: 'admit' }])
    ).body.data.results[0];
    assert.deepEqual([viaApi.status, viaApi.by], ['already_admitted', 'API key']);
    const actions = (
      await server.deps.db
        .selectFrom('checkin_log')
        .select(['action', 'actor'])
        .where('attendee_id', '=', b.id)
        .orderBy('id')
        .execute()
    ).map((x) => `${x.action} ${x.actor.split(':')[0]}`);
    assert.deepEqual(actions, ['admit pass', 'undo pass', 'admit key']);
  });

  it('sync refuses by the check-in rules, and admits team members one by one by roster key', async () => {
    const team = await book(eventId, 2);
    const refunded = await book(eventId);
    assert.equal(
      (await api('POST', `/api/v1/events/${eventId}/registrations/${refunded.id}/refund`)).status,
      200,
    );
    const p = await pass();
    const res = await asPass('POST', `/api/v1/events/${eventId}/door/sync`, p.token, {
      deviceId: 'phone-3',
      scans: [
        { seq: 10, ticketKey: sha256(team.ticketIds[2]!), action: 'admit' },
        { seq: 11, ticketId: refunded.id, action: 'admit' },
        { seq: 12, ticketId: 'reg_nope', action: 'admit' },
        { seq: 13, ticketKey: sha256('unknown'), action: 'admit' },
        { seq: 14, ticketId: team.id, memberIndex: 0, action: 'admit' },
      ],
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.data.results.map((x: any) => [x.seq, x.status, x.reason]),
      [
        [10, 'admitted', undefined],
        [11, 'refused', 'refunded'],
        [12, 'refused', 'ticket_not_found'],
        [13, 'refused', 'ticket_not_found'],
        [14, 'admitted', undefined],
      ],
    );
    const look = await api('GET', `/api/v1/events/${eventId}/check-in?registrationId=${team.id}`);
    assert.deepEqual(
      look.body.data.members.map((m: any) => m.checkedIn),
      [true, false, true],
    );
    const counts = res.body.data.counts;
    const roster = await asPass('GET', `/api/v1/events/${eventId}/door/roster`, p.token);
    assert.deepEqual(roster.body.data.counts, counts);
    assert.equal(
      roster.body.data.entries.find((e: any) => e.key === sha256(refunded.id)).refusal,
      'refunded',
    );
    // Limits are in the schema.
    const many = Array.from({ length: 501 }, (_, i) => ({ seq: i, ticketId: 'x', action: 'admit' }));
    assert.equal(
      (await asPass('POST', `/api/v1/events/${eventId}/door/sync`, p.token, { deviceId: 'd', scans: many }))
        .status,
      400,
    );
    assert.equal(
      (
        await asPass('POST', `/api/v1/events/${eventId}/door/sync`, p.token, {
          deviceId: 'bad id!',
          scans: [],
        })
      ).status,
      400,
    );
  });

  it('roster?since answers only what changed since the cursor', async () => {
    const a = await book(eventId);
    const b = await book(eventId);
    const p = await pass();
    const full = await asPass('GET', `/api/v1/events/${eventId}/door/roster`, p.token);
    const cursor = full.body.data.cursor;
    const quiet = await asPass('GET', `/api/v1/events/${eventId}/door/roster?since=${cursor}`, p.token);
    assert.equal(quiet.body.data.full, false);
    assert.equal(
      quiet.body.data.entries.some((e: any) => e.key === sha256(a.id) || e.key === sha256(b.id)),
      false,
    );
    assert.equal(
      (await api('POST', `/api/v1/events/${eventId}/check-in`, { registrationId: a.id })).status,
      201,
    );
    const c = await book(eventId);
    const changes = await asPass('GET', `/api/v1/events/${eventId}/door/roster?since=${cursor}`, p.token);
    const keys = changes.body.data.entries.map((e: any) => e.key);
    assert.ok(keys.includes(sha256(a.id)) && keys.includes(sha256(c.id)), 'the admitted and the new booking');
    assert.ok(!keys.includes(sha256(b.id)), 'not the unchanged one');
    assert.equal(
      changes.body.data.entries.find((e: any) => e.key === sha256(a.id)).members[0].checkedInBy,
      'API key',
    );
    assert.equal(
      (await asPass('GET', `/api/v1/events/${eventId}/door/roster?since=abc`, p.token)).status,
      400,
    );
    const bad = await asPass('GET', `/api/v1/events/${eventId}/door/roster?since=9:3:`, p.token);
    assert.deepEqual([bad.status, bad.body.code], [400, 'invalid_roster_cursor']);
  });

  it('a ticket transferred after its admit shows nobody in and nobody who admitted, from the database as from memory', async () => {
    const ev = await event({ title: 'Handed on' });
    const b = await book(ev);
    assert.equal((await api('POST', `/api/v1/events/${ev}/check-in`, { registrationId: b.id })).status, 201);
    const t = await api('POST', `/api/v1/events/${ev}/registrations/${b.id}/transfer`, {
      name: 'New Holder',
      email: uniqueEmail('new'),
    });
    assert.equal(t.status, 200, t.text);
    const p = await pass(ev);
    const rosters = server.deps.door.rosters;
    const lookups = async (from: string) =>
      (await rosters.metrics.lookups.get()).values.find((v) => v.labels.from === from)?.value ?? 0;
    const holder = async (from: 'database' | 'roster') => {
      await rosters.whenListening();
      await rosters.settled();
      if (from === 'database') rosters.deleted(ev);
      const before = await lookups(from);
      const r = await asPass('GET', `/api/v1/events/${ev}/door/roster`, p.token);
      assert.equal(await lookups(from), before + 1, `answered by the ${from}`);
      const m = r.body.data.entries.find((e: any) => e.key === sha256(t.body.data.ticketCode)).members[0];
      return [m.name, m.checkedIn, m.checkedInAt, m.checkedInBy];
    };
    assert.deepEqual(await holder('database'), ['New Holder', false, null, null]);
    assert.deepEqual(await holder('roster'), ['New Holder', false, null, null]);
  });

  it('keeps door tokens out of the log', () => {
    assert.equal(redactPath('/door/AbC_123-xyz?x=1'), '/door/[redacted]');
    assert.equal(redactPath('/door/assets/door.abc.js'), '/door/assets/door.abc.js');
  });

  it('a full key reads the roster of its own events only', async () => {
    assert.equal((await api('GET', `/api/v1/events/${eventId}/door/roster`)).status, 200);
    assert.equal(
      (await api('GET', `/api/v1/events/${eventId}/door/roster`, undefined, other.key)).status,
      403,
    );
  });

  it('revoking stops a pass at once; an expired pass is refused; the page closes too', async () => {
    const p = await pass(eventId, 'Gate D', {
      expiresAt: new Date(server.clock.now().getTime() + 3_600_000).toISOString(),
    });
    const page = await call(server.url, 'GET', `/door/${p.token}`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.doesNotMatch(page.text, /<script(?![^>]*\bsrc=)/, 'no inline script');
    assert.doesNotMatch(page.text, /\sstyle=|<style/, 'no inline style');
    assert.ok(page.text.includes('Door night') && page.text.includes('Gate D'));
    const assets = [...page.text.matchAll(/(?:src|href)="(\/door\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.equal(assets.length, 3);
    for (const a of assets) assert.equal((await call(server.url, 'GET', a)).status, 200, a);

    const del = await api('DELETE', `/api/v1/events/${eventId}/door-passes/${p.id}`);
    assert.equal(del.status, 200, del.text);
    assert.ok(del.body.data.revokedAt);
    const r = await asPass('GET', `/api/v1/events/${eventId}/door/roster`, p.token);
    assert.deepEqual([r.status, r.body.code], [403, 'door_pass_revoked']);
    const closed = await call(server.url, 'GET', `/door/${p.token}`);
    assert.equal(closed.status, 403);
    assert.match(closed.text, /revoked/);
    assert.equal((await api('DELETE', `/api/v1/events/${eventId}/door-passes/dp_nope`)).status, 404);

    const q = await pass(eventId, 'Gate E', {
      expiresAt: new Date(server.clock.now().getTime() + 60_000).toISOString(),
    });
    assert.equal((await asPass('GET', `/api/v1/events/${eventId}/door/roster`, q.token)).status, 200);
    server.clock.advance(61_000);
    const late = await asPass('GET', `/api/v1/events/${eventId}/door/roster`, q.token);
    assert.deepEqual([late.status, late.body.code], [403, 'door_pass_expired']);
  });

  it('the dashboard’s event page creates a door link shown once, lists it, and revokes it', async () => {
    const c = new DashboardClient(server.url);
    await c.signup(uniqueEmail('dash'));
    const list = await c.get('/dashboard/events/new');
    const made = await c.post('/dashboard/events', {
      _csrf: DashboardClient.csrf(list.text),
      title: 'Dashboard door',
      description: 'x',
      startDate: '2026-12-20T10:00',
    });
    assert.equal(made.status, 303, made.text);
    const eventPage = made.location!;
    const page = await c.get(eventPage);
    assert.match(page.text, /Create a door link/);
    // Shown in the answer to the form itself, never through the stored flash.
    const created = await c.post(`${eventPage}/door-passes`, {
      _csrf: DashboardClient.csrf(page.text),
      label: 'Side gate',
    });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.res.headers.get('cache-control'), 'no-store');
    const link = /https:\/\/tickets\.example\.in(\/door\/[A-Za-z0-9_-]+)/.exec(created.text);
    assert.ok(link, 'the link is shown once');
    const flashes = await dashboardSessionsOf(server);
    assert.ok(
      !flashes.some((f) => JSON.stringify(f.flash ?? '').includes(link[1]!)),
      'stored nowhere readable',
    );
    assert.equal((await call(server.url, 'GET', link[1]!)).status, 200);
    const again = await c.get(eventPage);
    assert.ok(!again.text.includes(link[1]!), 'and never again');
    assert.match(again.text, /Side gate/);
    const passId = /door-passes\/(dp_[A-Za-z0-9_-]+)\/revoke/.exec(again.text)![1]!;
    const revoked = await c.post(`${eventPage}/door-passes/${passId}/revoke`, {
      _csrf: DashboardClient.csrf(again.text),
    });
    assert.equal(revoked.status, 303);
    assert.equal((await call(server.url, 'GET', link[1]!)).status, 403);
  });
});
