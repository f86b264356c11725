// Every screen hides what the role cannot do (docs/decisions/25-organiser-teams-and-roles.md):
// each role's member walks the dashboard from its landing page, following the links it is shown,
// and every link and form on every page it reaches must lead to a route the permission table
// lets that role take. A button that would answer 403 `role_forbidden` fails the walk by name.
// The Team screen, the door for members and the organisation switch are tested here too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { allows, ROUTE_NEEDS, type RouteNeed } from '../../src/http/permissions.js';
import { DashboardClient } from '../helpers/dashboard.js';
import { addRegistration, createEvent, keyApi } from '../helpers/factories.js';
import { organiser } from '../helpers/http.js';
import { addMembers, type RoleMember } from '../helpers/roles.js';
import { doorPassesOf, organisationMembers } from '../helpers/rows.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** The permission table's routes as patterns; the most specific (most fixed segments) wins, as in Fastify. */
const PATTERNS = Object.entries(ROUTE_NEEDS).map(([line, need]) => {
  const [method, url] = line.split(' ') as [string, string];
  const parts = url.split('/');
  return {
    method,
    need,
    fixed: parts.filter((p) => !p.startsWith(':')).length,
    re: new RegExp(`^${parts.map((p) => (p.startsWith(':') ? '([^/]+)' : p)).join('/')}$`),
    idAt: parts.indexOf(':id'),
  };
});

export function needOf(verb: string, target: string): { need: RouteNeed; eventId?: string } | undefined {
  const match = PATTERNS.filter((p) => p.method === verb && p.re.test(target)).sort(
    (a, b) => b.fixed - a.fixed,
  )[0];
  if (!match) return undefined;
  const eventId = match.idAt >= 0 ? decodeURIComponent(target.split('/')[match.idAt]!) : undefined;
  return { need: match.need, ...(eventId !== undefined ? { eventId } : {}) };
}

/** The links (GET) and forms (POST) a page offers inside the dashboard. */
function targets(page: string): { method: string; path: string }[] {
  const out: { method: string; path: string }[] = [];
  for (const m of page.matchAll(/<a [^>]*href="(\/dashboard[^"#?]*)/g))
    out.push({ method: 'GET', path: m[1]! });
  for (const m of page.matchAll(/<form [^>]*>/g)) {
    const tag = m[0];
    const action = /action="(\/dashboard[^"#?]*)/.exec(tag)?.[1];
    if (!action) continue;
    out.push({ method: /method="post"/i.test(tag) ? 'POST' : 'GET', path: action });
  }
  return out.map((t) => ({ ...t, path: t.path.replace(/&amp;/g, '&') }));
}

/** Pages not to open while walking: downloads, and pages that end or change the session. */
const SKIP = /\/export$|\/logout|\/documents\/|\/test-inbox\/|\/files\//;

async function walk(m: RoleMember, start: string, limit = 40) {
  const seen = new Set<string>();
  const queue = [start];
  const offered: string[] = [];
  const wrong: string[] = [];
  while (queue.length > 0 && seen.size < limit) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    const r = await m.dash.get(path);
    // A landing that sends the role on (the door member's events list) is followed like a link.
    if (r.status === 303 && r.location?.startsWith('/dashboard')) {
      queue.push(r.location);
      continue;
    }
    if (r.status !== 200) {
      wrong.push(`${m.label} reached ${path}: ${r.status}`);
      continue;
    }
    for (const t of targets(r.text)) {
      const line = `${t.method} ${t.path}`;
      const found = needOf(t.method, t.path);
      if (!found) continue; // public pages (the hosted page, sign-in) and staff routes are not the role's
      offered.push(line);
      if (!allows(found.need, m.membership, found.eventId))
        wrong.push(`${m.label} on ${path} is offered ${line}`);
      else if (t.method === 'GET' && !SKIP.test(t.path) && !seen.has(t.path)) queue.push(t.path);
    }
  }
  return { seen, offered, wrong };
}

/** Posts a form as the page `from` would: with that page's CSRF token. */
async function postFrom(
  m: RoleMember,
  from: string,
  path: string,
  fields: Record<string, string | string[]>,
) {
  const page = await m.dash.get(from);
  return m.dash.post(
    path,
    { _csrf: DashboardClient.csrf(page.text), ...fields },
    { referer: `${m.dash.baseUrl}${from}` },
  );
}

describe('dashboard screens by role', () => {
  let server: TestServer;
  let organisationId: string;
  let ownEvent: string;
  let otherEvent: string;
  let members: RoleMember[];
  const by = (label: string) => members.find((m) => m.label === label)!;

  before(async () => {
    server = await startServer();
    const owner = await organiser(server.url);
    organisationId = owner.userId;
    const api = keyApi(server.url, owner.key);
    ownEvent = await createEvent(api, { title: 'Listed', startDate: '2026-12-01' });
    otherEvent = await createEvent(api, { title: 'Not listed', startDate: '2026-12-02' });
    // Bookings, so the walk reaches a booking's page and its actions.
    await addRegistration(server, ownEvent, { status: 'confirmed', amountPaise: 50_000 });
    await addRegistration(server, otherEvent, { status: 'pending' });
    members = await addMembers(server, organisationId, [
      ['owner', { role: 'owner', eventIds: null }],
      ['admin', { role: 'admin', eventIds: null }],
      ['finance', { role: 'finance', eventIds: null }],
      ['event_manager (one event)', { role: 'event_manager', eventIds: [ownEvent] }],
      ['door (one event)', { role: 'door', eventIds: [ownEvent] }],
      ['viewer', { role: 'viewer', eventIds: null }],
    ]);
  });
  after(async () => {
    await server.close();
  });

  it('the walk knows the table: a concrete path finds its rule and its event', () => {
    assert.deepEqual(needOf('POST', '/dashboard/events/ev_1/door/open'), {
      need: ROUTE_NEEDS['POST /dashboard/events/:id/door/open'],
      eventId: 'ev_1',
    });
    assert.equal(
      needOf('POST', '/dashboard/team/members/u_1/remove')?.need,
      ROUTE_NEEDS['POST /dashboard/team/members/:userId/remove'],
    );
    assert.equal(needOf('GET', '/e/some-event'), undefined);
  });

  it('no role is offered a link or a button the table refuses it, on any page it can reach', async () => {
    const wrong: string[] = [];
    for (const m of members) {
      const walked = await walk(m, m.membership.role === 'door' ? '/dashboard/door' : '/dashboard/events');
      wrong.push(...walked.wrong);
      assert.ok(walked.seen.size >= 2, `${m.label} walked ${[...walked.seen].join(', ')}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('a planted button the role may not use fails the walk', async () => {
    const viewer = by('viewer');
    const planted = `<form method="post" action="/dashboard/events/${ownEvent}/publish"></form>`;
    const offered = targets(planted).map((t) => needOf(t.method, t.path)!);
    assert.equal(allows(offered[0]!.need, viewer.membership, offered[0]!.eventId), false);
  });

  it('the navigation shows each role its sections only', async () => {
    const nav = async (m: RoleMember) => {
      const page = await m.dash.get('/dashboard/account');
      const menu = /<nav aria-label="Main">([\s\S]*?)<\/nav>/.exec(page.text)![1]!;
      return [...menu.matchAll(/>([^<]+)<\/a>/g)].map((x) => x[1]);
    };
    assert.deepEqual(await nav(by('owner')), [
      'Events',
      'Door',
      'Seating plans',
      'Memberships',
      'Money',
      'Developers',
      'Team',
      'Activity',
      'Test inbox',
      'Account',
    ]);
    assert.deepEqual(await nav(by('finance')), [
      'Events',
      'Seating plans',
      'Memberships',
      'Money',
      'Activity',
      'Test inbox',
      'Account',
    ]);
    assert.deepEqual(await nav(by('door (one event)')), ['Door', 'Account']);
    assert.deepEqual(await nav(by('event_manager (one event)')), ['Events', 'Door', 'Account']);
  });

  it('a door member lands on their door page, opens their event’s door screen as themselves, and not another’s', async () => {
    const door = by('door (one event)');
    const landing = await door.dash.get('/dashboard/events');
    assert.equal(landing.status, 303, landing.text.slice(0, 2000));
    assert.equal(landing.location, '/dashboard/door');
    const page = await door.dash.get('/dashboard/door');
    assert.match(page.text, /Listed/);
    assert.doesNotMatch(page.text, /Not listed/);
    const opened = await postFrom(door, '/dashboard/door', `/dashboard/events/${ownEvent}/door/open`, {});
    assert.equal(opened.status, 303);
    const screenUrl = new URL(opened.location!, server.url);
    assert.match(screenUrl.pathname, /^\/door\/[A-Za-z0-9_-]+$/);
    const screen = await fetch(new URL(screenUrl.pathname, server.url));
    assert.equal(screen.status, 200);
    assert.match(await screen.text(), /Listed/);
    const refused = await postFrom(door, '/dashboard/door', `/dashboard/events/${otherEvent}/door/open`, {});
    assert.equal(refused.status, 403);
    // The pass is named after the person and ends with the shift.
    const passes = await doorPassesOf(server, ownEvent);
    assert.equal(passes.length, 1);
    assert.equal(passes[0]!.label, `${door.email} (member)`);
    assert.equal(passes[0]!.expires_at!.getTime() - passes[0]!.created_at.getTime(), 12 * 60 * 60 * 1000);
  });

  it('the Team screen invites, changes and removes through the same rules as the API', async () => {
    const admin = by('admin');
    const team = await admin.dash.get('/dashboard/team');
    assert.equal(team.status, 200);
    for (const m of members) assert.ok(team.text.includes(m.email), m.email);
    // Each member's two-factor status: nobody here has turned it on.
    assert.match(team.text, /data-label="Two-factor">Off</);
    assert.doesNotMatch(team.text, /data-label="Two-factor">On</);
    // An admin is not offered an owner's changes, nor the owner role.
    assert.match(team.text, /Only an owner changes an owner/);
    assert.doesNotMatch(team.text, /<option value="owner"/);

    const invited = await postFrom(admin, '/dashboard/team', '/dashboard/team/invitations', {
      email: 'volunteer@example.in',
      role: 'door',
      events: [ownEvent],
    });
    assert.equal(invited.status, 303);
    const withInvite = await admin.dash.get('/dashboard/team');
    assert.match(withInvite.text, /volunteer@example\.in/);
    const invitationId = /\/dashboard\/team\/invitations\/([^/]+)\/withdraw/.exec(withInvite.text)![1]!;

    // A door member needs their events: the same refusal as the API, shown on the page it came from.
    const noEvents = await postFrom(admin, '/dashboard/team', '/dashboard/team/invitations', {
      email: 'x@example.in',
      role: 'door',
    });
    assert.equal(noEvents.location, '/dashboard/team', noEvents.status + noEvents.text.slice(0, 500));
    assert.match(
      (await admin.dash.get('/dashboard/team')).text,
      /role="alert">\s*<p>A door member needs the events they admit for/,
    );

    const viewer = by('viewer');
    const changed = await postFrom(admin, '/dashboard/team', `/dashboard/team/members/${viewer.personId}`, {
      role: 'finance',
    });
    assert.equal(changed.status, 303);
    const row = (await organisationMembers(server, organisationId)).find(
      (m) => m.user_id === viewer.personId,
    )!;
    assert.equal(row.role, 'finance');
    await postFrom(admin, '/dashboard/team', `/dashboard/team/members/${viewer.personId}`, {
      role: 'viewer',
    });

    const withdrawn = await postFrom(
      admin,
      '/dashboard/team',
      `/dashboard/team/invitations/${invitationId}/withdraw`,
      {},
    );
    assert.equal(withdrawn.status, 303);
    assert.doesNotMatch((await admin.dash.get('/dashboard/team')).text, /volunteer@example\.in/);

    // An owner may leave while another owner stays; the dashboard goes on in their own organisation.
    const owner = by('owner');
    const left = await postFrom(
      owner,
      '/dashboard/team',
      `/dashboard/team/members/${owner.personId}/remove`,
      {},
    );
    assert.equal(left.location, '/dashboard/events');
    const own = await owner.dash.get('/dashboard/team');
    assert.equal(own.status, 200);
    assert.doesNotMatch(own.text, new RegExp(by('finance').email));
  });

  it('a person in two organisations switches in the header, and every page answers for the chosen one', async () => {
    const finance = by('finance');
    const page = await finance.dash.get('/dashboard/events');
    assert.match(page.text, /<select id="org-switch" name="organisationId">/);
    assert.match(page.text, /Listed/);
    const switched = await postFrom(finance, '/dashboard/events', '/dashboard/organisation', {
      organisationId: finance.personId,
    });
    assert.equal(switched.status, 303);
    const own = await finance.dash.get('/dashboard/events');
    assert.doesNotMatch(own.text, /Listed/);
    assert.match(own.text, /Create an event/);
  });
});
