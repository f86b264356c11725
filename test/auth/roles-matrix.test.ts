// The role × route matrix (docs/decisions/25-organiser-teams-and-roles.md), generated from the
// one permission table (src/http/permissions.ts) and the routes Fastify registered: every
// session route and dashboard page is called, over HTTP, as a member of each role (an event
// manager and a door member limited to one event, on that event and on another), and must answer
// 403 `role_forbidden` exactly where the table says no. A session route without a line in the
// table fails the matrix by name, and is refused to every role at request time (planted below).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import {
  allows,
  ROUTE_NEEDS,
  routeNeed,
  type Membership,
  type RouteNeed,
} from '../../src/http/permissions.js';
import type { RouteEntry } from '../../src/http/auth.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { call, organiser, signup } from '../helpers/http.js';
import { addMembers, type RoleMember } from '../helpers/roles.js';
import { startServer, type TestServer } from '../helpers/server.js';

interface Cell {
  method: string;
  url: string;
  kind: 'session' | 'cookie';
  need: RouteNeed;
}

/** Session routes and dashboard pages an organisation's roles decide (staff routes are the platform's). */
const decided = (r: RouteEntry) =>
  r.method !== 'HEAD' && (r.rule.kind === 'session' || (r.rule.kind === 'cookie' && r.rule.staff !== true));

/** The matrix's routes with their needs; throws naming every decided route that has no rule. */
function matrixRoutes(table: readonly RouteEntry[]): Cell[] {
  const routes = table.filter(decided);
  const missing = routes.filter((r) => routeNeed(r.method, r.url) === undefined);
  if (missing.length > 0)
    throw new Error(
      `routes without a permission rule: ${missing.map((r) => `${r.method} ${r.url}`).join(', ')}`,
    );
  return routes.map((r) => ({
    method: r.method,
    url: r.url,
    kind: r.rule.kind as 'session' | 'cookie',
    need: routeNeed(r.method, r.url)!,
  }));
}

/** Calls that end the caller's sessions or delete the event go last, so every other cell still has both. */
const LAST = ['DELETE /api/v1/events/:id', 'POST /auth/logout-everywhere'];
const order = (c: Cell) => LAST.indexOf(`${c.method} ${c.url}`);

type Member = RoleMember;

describe('role × route matrix, generated from the permission table', () => {
  let server: TestServer;
  let organisationId: string;
  let ownEvent: string;
  let otherEvent: string;
  const members: Member[] = [];

  before(async () => {
    server = await startServer();
    const owner = await organiser(server.url);
    organisationId = owner.userId;
    const api = keyApi(server.url, owner.key);
    ownEvent = await createEvent(api, { title: 'Listed', startDate: '2026-12-01' });
    otherEvent = await createEvent(api, { title: 'Not listed', startDate: '2026-12-02' });
    const variants: [string, Membership][] = [
      ['owner', { role: 'owner', eventIds: null }],
      ['admin', { role: 'admin', eventIds: null }],
      ['finance', { role: 'finance', eventIds: null }],
      ['event_manager', { role: 'event_manager', eventIds: null }],
      ['event_manager (one event)', { role: 'event_manager', eventIds: [ownEvent] }],
      ['door (one event)', { role: 'door', eventIds: [ownEvent] }],
      ['viewer', { role: 'viewer', eventIds: null }],
    ];
    members.push(...(await addMembers(server, organisationId, variants)));
  });
  after(async () => {
    await server.close();
  });

  it('every session route and dashboard page has a rule, and every rule a route', () => {
    const cells = matrixRoutes(server.app.routeTable);
    assert.ok(cells.length > 80, `only ${cells.length} routes`);
    const served = new Set(server.app.routeTable.map((r) => `${r.method} ${r.url}`));
    for (const line of Object.keys(ROUTE_NEEDS)) assert.ok(served.has(line), `a rule for no route: ${line}`);
  });

  it('a route planted without a rule fails the matrix, and is refused to every role (the owner too) without reaching its handler', async () => {
    const app = await buildApp(server.deps);
    try {
      let reached = false;
      app.get('/dashboard/api/planted', { config: { auth: { kind: 'session' } } }, async () => {
        reached = true;
        return { open: true };
      });
      app.post('/dashboard/planted', { config: { auth: { kind: 'cookie' } } }, async () => {
        reached = true;
        return { open: true };
      });
      await app.ready();
      assert.throws(
        () => matrixRoutes(app.routeTable),
        /without a permission rule: GET \/dashboard\/api\/planted, POST \/dashboard\/planted/,
      );
      for (const m of members) {
        const api = await app.inject({
          method: 'GET',
          url: '/dashboard/api/planted',
          headers: { authorization: `Bearer ${m.token}` },
        });
        assert.equal(api.statusCode, 403, `${m.label}: ${api.body}`);
        assert.equal(api.json().code, 'role_forbidden');
        const page = await app.inject({
          method: 'POST',
          url: '/dashboard/planted',
          headers: { cookie: m.dash.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
          payload: '',
        });
        assert.equal(page.statusCode, 403, `${m.label}: ${page.body}`);
        assert.equal(page.json().code, 'role_forbidden');
      }
      assert.equal(reached, false);
    } finally {
      await app.close();
    }
  });

  it('each role answers 403 role_forbidden exactly where the table refuses it', async () => {
    const cells = matrixRoutes(server.app.routeTable).sort((a, b) => order(a) - order(b));
    const wrong: string[] = [];
    let checked = 0;
    for (const cell of cells) {
      const events = cell.need.scope === 'event' ? [ownEvent, otherEvent] : [undefined];
      for (const eventId of events) {
        const path = cell.url.replace(':id', eventId ?? 'x_unknown').replace(/:[A-Za-z]+/g, 'x_unknown');
        for (const m of members) {
          const expected = allows(cell.need, m.membership, eventId);
          const r =
            cell.kind === 'session'
              ? await call(server.url, cell.method, path, {
                  token: m.token,
                  ...(cell.method === 'POST' || cell.method === 'PATCH' ? { body: {} } : {}),
                })
              : cell.method === 'GET'
                ? await m.dash.get(path).then((x) => ({ status: x.status, body: parse(x.text) }))
                : await m.dash.post(path, {}).then((x) => ({ status: x.status, body: parse(x.text) }));
          const refused = r.status === 403 && r.body?.code === 'role_forbidden';
          checked++;
          if (refused === expected)
            wrong.push(
              `${m.label} ${cell.method} ${path}: ${r.status} ${r.body?.code ?? ''} (table: ${expected ? 'allow' : 'refuse'})`,
            );
          if (refused) assert.equal(typeof r.body.error, 'string');
        }
      }
    }
    assert.deepEqual(wrong, []);
    assert.ok(checked > 600, `${checked} cells`);
  });

  it("a person's own sign-up is an organisation they own, and their token works there without choosing", async () => {
    const a = await signup(server.url);
    const keys = await call(server.url, 'GET', '/dashboard/api/keys', { token: a.token });
    assert.equal(keys.status, 200);
  });
});

/** A JSON answer's body; a dashboard page's refusal carries its code on the message (`data-code`). */
function parse(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    const code = /data-code="([a-z_]*)"/.exec(text)?.[1];
    return code ? { code, error: /<p>([^<]*)<\/p>/.exec(text)?.[1] } : undefined;
  }
}
