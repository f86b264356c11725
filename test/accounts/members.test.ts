// Organisations with members over HTTP (docs/decisions/25-organiser-teams-and-roles.md):
// invitations by mail for one address and 7 days, accepted signed in (or after signing up) with
// it; roles changed and members removed, with the last owner kept and owners out of admins'
// reach; keys that belong to the organisation and outlive the person who made them, with the
// audit log naming that person; a person in two organisations choosing one, by token and in the
// dashboard.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { passApi, tokenApi } from '../helpers/callers.js';
import { DashboardClient } from '../helpers/dashboard.js';
import { createEvent, keyApi, paidBooking } from '../helpers/factories.js';
import {
  call,
  createKey,
  organiser,
  signup,
  uniqueEmail,
  type Account,
  type KeyInfo,
} from '../helpers/http.js';
import { doorPassesOf, runJobs, userByEmail } from '../helpers/rows.js';
import { startServer, type TestServer } from '../helpers/server.js';

const PASSWORD = 'correct horse battery';

describe('organisation members', () => {
  let server: TestServer;
  let owner: Account & KeyInfo;

  before(async () => {
    server = await startServer();
    owner = await organiser(server.url);
  });
  after(async () => {
    await server.close();
  });

  /** The session routes as the holder of `token`. */
  const as = (token: string) => tokenApi(server.url, token);

  /** The token of the newest invitation mailed to `email` (the mail is the only place it exists). */
  async function invitationToken(email: string): Promise<string> {
    await runJobs(server, { topic: 'account.invite_member' });
    const dir = join(server.dataDir, 'mail');
    assert.ok(existsSync(dir));
    for (const name of readdirSync(dir).sort().reverse()) {
      const text = readFileSync(join(dir, name), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/gi, '=');
      if (!text.toLowerCase().includes(email.toLowerCase())) continue;
      const m = /\/dashboard\/invitations\/accept\?token=([A-Za-z0-9_-]+)/.exec(text);
      if (m) return m[1]!;
    }
    throw new Error(`no invitation mail to ${email}`);
  }

  /** Invites `email` as `role`, signs them up (unverified) and accepts: their token in the organisation. */
  async function join_(inviter: string, email: string, role: string, events?: string[]) {
    const inv = await as(inviter)('POST', '/dashboard/api/members', {
      email,
      role,
      ...(events ? { events } : {}),
    });
    assert.equal(inv.status, 201, inv.text);
    const person = await signup(server.url, { email, verified: false });
    const ok = await as(person.token)('POST', '/dashboard/api/invitations/accept', {
      token: await invitationToken(email),
    });
    assert.equal(ok.status, 200, ok.text);
    return { ...person, orgToken: ok.body.idToken as string };
  }

  it('an invited finance member signs up with the invited address, accepts, reads money and cannot make keys; the mail proved their address', async () => {
    const email = uniqueEmail('finance');
    const inv = await as(owner.token)('POST', '/dashboard/api/members', { email, role: 'finance' });
    assert.equal(inv.status, 201, inv.text);
    assert.equal(inv.body.data.role, 'finance');
    const expires = Date.parse(inv.body.data.expiresAt) - Date.parse(inv.body.data.createdAt);
    assert.equal(expires, 7 * 24 * 3600 * 1000);
    const listed = await as(owner.token)('GET', '/dashboard/api/members');
    assert.deepEqual(
      listed.body.invitations.map((i: any) => i.email),
      [email.toLowerCase()],
    );

    const person = await signup(server.url, { email, verified: false });
    const token = await invitationToken(email);
    const accepted = await as(person.token)('POST', '/dashboard/api/invitations/accept', { token });
    assert.equal(accepted.status, 200, accepted.text);
    assert.equal(accepted.body.organisationId, owner.userId);
    const t = accepted.body.idToken;
    assert.equal((await as(t)('GET', '/dashboard/api/balance')).status, 200);
    const refused = await as(t)('POST', '/dashboard/api/keys', { mode: 'test', class: 'full' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'role_forbidden');
    assert.equal(typeof refused.body.error, 'string');
    assert.ok((await userByEmail(server, email))!.email_verified_at !== null);
    // Used once.
    const again = await as(person.token)('POST', '/dashboard/api/invitations/accept', { token });
    assert.equal(again.status, 404);
    assert.equal(again.body.code, 'invitation_not_found');
    const members = await as(owner.token)('GET', '/dashboard/api/members');
    assert.deepEqual(
      members.body.data.map((m: any) => m.role),
      ['owner', 'finance'],
    );
    assert.deepEqual(members.body.invitations, []);
  });

  it('an invitation works for the invited address only, and for 7 days', async () => {
    const email = uniqueEmail('invited');
    await as(owner.token)('POST', '/dashboard/api/members', { email, role: 'viewer' });
    const token = await invitationToken(email);
    const stranger = await signup(server.url);
    const other = await as(stranger.token)('POST', '/dashboard/api/invitations/accept', { token });
    assert.equal(other.status, 403);
    assert.equal(other.body.code, 'invitation_other_address');
    const now = server.clock.now();
    server.clock.advance(7 * 24 * 3600 * 1000 + 1000);
    try {
      const person = await signup(server.url, { email });
      const late = await as(person.token)('POST', '/dashboard/api/invitations/accept', { token });
      assert.equal(late.status, 404);
      assert.equal(late.body.code, 'invitation_not_found');
    } finally {
      server.clock.set(now);
    }
  });

  it('bad invitations answer 400 with a code: unknown role, a door member without events, events of another organisation', async () => {
    const other = await organiser(server.url);
    const foreign = await createEvent(keyApi(server.url, other.key), {
      title: 'Theirs',
      startDate: '2026-12-01',
    });
    const cases: [unknown, string][] = [
      [{ email: uniqueEmail(), role: 'superuser' }, 'invalid_role'],
      [{ email: uniqueEmail(), role: 'door' }, 'invalid_member_events'],
      [{ email: uniqueEmail(), role: 'door', events: [foreign] }, 'invalid_member_events'],
      [{ email: uniqueEmail(), role: 'finance', events: [foreign] }, 'invalid_member_events'],
      [{ email: 'not an address', role: 'viewer' }, 'invalid_email'],
    ];
    for (const [body, code] of cases) {
      const r = await as(owner.token)('POST', '/dashboard/api/members', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.code, code, `${JSON.stringify(body)}: ${r.text}`);
    }
  });

  it('the last owner can neither leave nor be demoted; admins cannot make, change or remove owners', async () => {
    const org = await organiser(server.url);
    const lastLeave = await as(org.token)('DELETE', `/dashboard/api/members/${org.userId}`);
    assert.equal(lastLeave.status, 409);
    assert.equal(lastLeave.body.code, 'last_owner');
    const lastDemote = await as(org.token)('PATCH', `/dashboard/api/members/${org.userId}`, {
      role: 'admin',
    });
    assert.equal(lastDemote.status, 409);
    assert.equal(lastDemote.body.code, 'last_owner');

    const admin = await join_(org.token, uniqueEmail('admin'), 'admin');
    const makeOwner = await as(admin.orgToken)('POST', '/dashboard/api/members', {
      email: uniqueEmail(),
      role: 'owner',
    });
    assert.equal(makeOwner.status, 403);
    assert.equal(makeOwner.body.code, 'owner_only');
    for (const [method, body] of [
      ['PATCH', { role: 'viewer' }],
      ['DELETE', undefined],
    ] as const) {
      const r = await as(admin.orgToken)(method, `/dashboard/api/members/${org.userId}`, body);
      assert.equal(r.status, 403, `${method}: ${r.text}`);
      assert.equal(r.body.code, 'owner_only');
    }
    const promote = await as(admin.orgToken)('PATCH', `/dashboard/api/members/${admin.userId}`, {
      role: 'owner',
    });
    assert.equal(promote.body.code, 'owner_only');
    // An admin invites and changes the others.
    const viewer = await join_(admin.orgToken, uniqueEmail('viewer'), 'viewer');
    const changed = await as(admin.orgToken)('PATCH', `/dashboard/api/members/${viewer.userId}`, {
      role: 'finance',
    });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.data.role, 'finance');
    // With a second owner the first may step down.
    assert.equal(
      (await as(org.token)('PATCH', `/dashboard/api/members/${admin.userId}`, { role: 'owner' })).status,
      200,
    );
    assert.equal(
      (await as(org.token)('PATCH', `/dashboard/api/members/${org.userId}`, { role: 'admin' })).status,
      200,
    );
    const missing = await as(admin.orgToken)('DELETE', '/dashboard/api/members/usr_nobody');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'team_member_not_found');
  });

  it("a key made by an admin belongs to the organisation: it outlives the admin's removal, and the audit log names the admin", async () => {
    const org = await organiser(server.url);
    const email = uniqueEmail('admin');
    const admin = await join_(org.token, email, 'admin');
    const made = await createKey(server.url, admin.orgToken, { mode: 'test', class: 'full' });
    const keys = await as(org.token)('GET', '/dashboard/api/keys');
    assert.ok(keys.body.data.some((k: any) => k.id === made.keyId));
    assert.equal((await as(org.token)('DELETE', `/dashboard/api/members/${admin.userId}`)).status, 200);
    const me = await call(server.url, 'GET', '/api/v1/me', { key: made.key });
    assert.equal(me.status, 200);
    assert.equal(me.body.userId, org.userId);
    // The removed admin's token no longer reaches the organisation.
    const gone = await as(admin.orgToken)('GET', '/dashboard/api/keys');
    assert.equal(gone.status, 403);
    assert.equal(gone.body.code, 'role_forbidden');
    const log = await call(server.url, 'GET', '/api/v1/audit-log', { key: org.key });
    const entry = log.body.data.find((e: any) => e.action === 'key.create' && e.target.id === made.keyId);
    assert.ok(entry, log.text);
    assert.equal(entry.actor.id, admin.userId);
    assert.equal(entry.actor.display, email.toLowerCase());
  });

  it('an event manager limited to one event sees only that event in the dashboard, and can open no other', async () => {
    const org = await organiser(server.url);
    const api = keyApi(server.url, org.key);
    const mine = await createEvent(api, { title: 'Managed here', startDate: '2026-12-04' });
    const other = await createEvent(api, { title: 'Managed elsewhere', startDate: '2026-12-05' });
    const email = uniqueEmail('manager');
    await join_(org.token, email, 'event_manager', [mine]);
    const dash = new DashboardClient(server.url);
    await dash.login(email, PASSWORD);
    const own = await dash.get('/dashboard/events');
    const chose = await dash.post('/dashboard/organisation', {
      _csrf: DashboardClient.csrf(own.text),
      organisationId: org.userId,
    });
    assert.equal(chose.status, 303);
    const list = await dash.get('/dashboard/events');
    assert.equal(list.status, 200);
    assert.ok(list.text.includes('Managed here'));
    assert.ok(!list.text.includes('Managed elsewhere'));
    assert.equal((await dash.get(`/dashboard/events/${mine}`)).status, 200);
    const refused = await dash.get(`/dashboard/events/${other}`);
    assert.equal(refused.status, 403);
    assert.match(refused.text, /data-code="role_forbidden"/);
  });

  it('a person in two organisations chooses one, by token and in the dashboard; every answer is that one’s', async () => {
    const email = uniqueEmail('two');
    const person = await join_(owner.token, email, 'admin');
    const ownKeys = await as(person.token)('GET', '/dashboard/api/keys');
    assert.deepEqual(ownKeys.body.data, []);
    const orgs = await as(person.token)('GET', '/dashboard/api/organisations');
    assert.deepEqual(
      orgs.body.data.map((o: any) => o.id),
      [person.userId, owner.userId],
    );
    assert.equal(orgs.body.current, person.userId);
    const chosen = await as(person.token)('POST', '/dashboard/api/organisations/current', {
      organisationId: owner.userId,
    });
    assert.equal(chosen.status, 200, chosen.text);
    assert.equal(chosen.body.role, 'admin');
    const theirKeys = await as(chosen.body.idToken)('GET', '/dashboard/api/keys');
    assert.ok(theirKeys.body.data.some((k: any) => k.id === owner.keyId));
    const stranger = await organiser(server.url);
    const refused = await as(person.token)('POST', '/dashboard/api/organisations/current', {
      organisationId: stranger.userId,
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'role_forbidden');

    const eventTitle = 'Owners own event';
    await createEvent(keyApi(server.url, owner.key), { title: eventTitle, startDate: '2026-12-03' });
    const dash = new DashboardClient(server.url);
    await dash.login(email, PASSWORD);
    const page = await dash.get('/dashboard/events');
    assert.equal(page.status, 200);
    assert.ok(!page.text.includes(eventTitle));
    const moved = await dash.post('/dashboard/organisation', {
      _csrf: DashboardClient.csrf(page.text),
      organisationId: owner.userId,
    });
    assert.equal(moved.status, 303);
    assert.ok((await dash.get('/dashboard/events')).text.includes(eventTitle));
  });

  it('an invited finance member withdraws to UPI and cannot publish; an invited door member admits on their event only, in their own name', async () => {
    const api = keyApi(server.url, owner.key);
    const eventId = await createEvent(api, { title: 'Paid Evening', startDate: '2030-01-10', price: 500 });
    const otherId = await createEvent(api, { title: 'Elsewhere', startDate: '2030-01-11' });
    const { registrationId } = await paidBooking(api, eventId);
    assert.equal((await api('POST', '/api/v1/sandbox/clock', { advanceDays: 7 })).status, 200);

    const finance = await join_(owner.token, uniqueEmail('finance'), 'finance');
    const withdrawn = await as(finance.orgToken)('POST', '/dashboard/api/payouts?mode=test', {
      amount: 100,
      upiId: 'circle@okaxis',
    });
    assert.equal(withdrawn.status, 201, withdrawn.text);
    const removal = await as(finance.orgToken)('DELETE', `/api/v1/events/${eventId}`);
    assert.equal(removal.status, 403);
    assert.equal(removal.body.code, 'role_forbidden');
    const fdash = new DashboardClient(server.url);
    await fdash.login(finance.email);
    await fdash.post('/dashboard/organisation', {
      _csrf: DashboardClient.csrf((await fdash.get('/dashboard/account')).text),
      organisationId: owner.userId,
    });
    const page = await fdash.get(`/dashboard/events/${eventId}`);
    const refusedPublish = await fdash.post(`/dashboard/events/${eventId}/publish`, {
      _csrf: DashboardClient.csrf(page.text),
      status: 'draft',
    });
    assert.equal(refusedPublish.status, 403);
    assert.match(refusedPublish.text, /data-code="role_forbidden"/);

    const door = await join_(owner.token, uniqueEmail('door'), 'door', [eventId]);
    const ddash = new DashboardClient(server.url);
    await ddash.login(door.email);
    const csrf = DashboardClient.csrf((await ddash.get('/dashboard/account')).text);
    await ddash.post('/dashboard/organisation', { _csrf: csrf, organisationId: owner.userId });
    const opened = await ddash.post(`/dashboard/events/${eventId}/door/open`, { _csrf: csrf });
    assert.equal(opened.status, 303, opened.text);
    const passToken = /^\/door\/([A-Za-z0-9_-]+)$/.exec(opened.location!)![1]!;
    const refused = await ddash.post(`/dashboard/events/${otherId}/door/open`, { _csrf: csrf });
    assert.equal(refused.status, 403);
    const asPass = passApi(server.url);
    const admit = await asPass('POST', `/api/v1/events/${eventId}/door/sync`, passToken, {
      deviceId: 'gate-phone',
      scans: [{ seq: 1, ticketId: registrationId, action: 'admit' }],
    });
    assert.equal(admit.status, 200, admit.text);
    assert.equal(admit.body.data.results[0].status, 'admitted');
    const elsewhere = await asPass('POST', `/api/v1/events/${otherId}/door/sync`, passToken, {
      deviceId: 'gate-phone',
      scans: [],
    });
    assert.ok(elsewhere.status === 403 || elsewhere.status === 404, elsewhere.text);
    // A second admit names the member who let them in.
    const again = await asPass('POST', `/api/v1/events/${eventId}/door/sync`, passToken, {
      deviceId: 'other-phone',
      scans: [{ seq: 1, ticketId: registrationId, action: 'admit' }],
    });
    assert.equal(again.body.data.results[0].status, 'already_admitted');
    assert.match(
      again.body.data.results[0].by,
      new RegExp(`^${door.email.replace(/[.+]/g, '\\$&')} \\(member\\)`),
    );

    // A change of the member's role ends the door screens they opened; so does their removal.
    const sync = (token: string) =>
      asPass('POST', `/api/v1/events/${eventId}/door/sync`, token, { deviceId: 'gate-phone', scans: [] });
    const changed = await as(owner.token)('PATCH', `/dashboard/api/members/${door.userId}`, {
      role: 'door',
      events: [eventId, otherId],
    });
    assert.equal(changed.status, 200, changed.text);
    const ended = await sync(passToken);
    assert.equal(ended.status, 403, 'the pass opened before the change no longer works');
    assert.equal(ended.body.code, 'door_pass_revoked');
    const reopened = await ddash.post(`/dashboard/events/${eventId}/door/open`, { _csrf: csrf });
    assert.equal(reopened.status, 303, reopened.text);
    const second = /^\/door\/([A-Za-z0-9_-]+)$/.exec(reopened.location!)![1]!;
    assert.equal((await sync(second)).status, 200);
    // The organisation's own pass for the door staff stays: only the member's are ended.
    const shared = await api('POST', `/api/v1/events/${eventId}/door-passes`, {
      label: 'Gate 2',
    });
    assert.equal(shared.status, 201, shared.text);
    assert.equal((await as(owner.token)('DELETE', `/dashboard/api/members/${door.userId}`)).status, 200);
    assert.equal(
      (await sync(second)).body.code,
      'door_pass_revoked',
      'a removed member’s pass no longer works',
    );
    const passes = await doorPassesOf(server, eventId);
    assert.deepEqual(
      passes.map((p) => [p.label, p.revoked_at !== null]),
      [
        [`${door.email} (member)`, true],
        [`${door.email} (member)`, true],
        ['Gate 2', false],
      ],
    );
  });
});
