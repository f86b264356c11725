// A refused dashboard page view writes nothing: the message a form left for the next page
// (its "flash") stays for the page that renders, and the session row is untouched. Found by
// the fuzz: a 404 or 403 page took the flash and lost it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardClient } from '../helpers/dashboard.js';
import { uniqueEmail } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('dashboard flash messages and refused page views', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ isolatedDatabase: true });
  });
  after(async () => {
    await server.close();
  });

  const sessionRows = async () =>
    JSON.stringify(
      await server.deps.db.selectFrom('dashboard_sessions').selectAll().orderBy('id_hash').execute(),
    );

  it('a 404 page leaves the flash for the next page that renders, and writes nothing', async () => {
    const c = new DashboardClient(server.url);
    await c.signup(uniqueEmail('flash'));
    const csrf = DashboardClient.csrf((await c.get('/dashboard/events')).text);
    // A refused form action leaves its reason for the next page.
    const refused = await c.post('/dashboard/events/ev_nosuchevent000/publish', {
      _csrf: csrf,
      status: 'published',
    });
    assert.equal(refused.status, 303);

    const rows = await sessionRows();
    const missing = await c.get('/dashboard/events/ev_nosuchevent000');
    assert.equal(missing.status, 404);
    assert.equal(await sessionRows(), rows, 'the refused page view wrote to dashboard_sessions');

    const next = await c.get('/dashboard/events');
    assert.equal(next.status, 200);
    assert.match(next.text, /class="flash error"/, 'the flash reaches the page that renders');
    // Shown once.
    assert.doesNotMatch((await c.get('/dashboard/events')).text, /class="flash error"/);
  });
});

describe('dashboard registration actions', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.close();
  });

  it('an action named like an object property (constructor, toString, __proto__) is no action: refused, never a 500', async () => {
    const c = new DashboardClient(server.url);
    await c.signup(uniqueEmail('acts'));
    const csrf = DashboardClient.csrf((await c.get('/dashboard/events')).text);
    for (const action of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const r = await c.post(`/dashboard/events/ev_nosuchevent000/registrations/reg_x/${action}`, {
        _csrf: csrf,
      });
      assert.ok(r.status < 500, `${action}: ${r.status}`);
    }
  });
});
