// Migration 0080 (docs/decisions/25-organiser-teams-and-roles.md) turns every account into an
// organisation whose one member is its user, as owner, and keeps every id working: data made
// before it (an account with API keys, an idToken, a dashboard cookie session, and an account
// whose rows the old sign-up wrote) is taken back to the schema before 0080, the migration runs,
// and keys, sessions and sign-in all still work, each account now owning its organisation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Migrator } from 'kysely/migration';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { hashPassword } from '../../src/modules/accounts/passwords.js';
import { DashboardClient } from '../helpers/dashboard.js';
import { call, createKey, signup, uniqueEmail } from '../helpers/http.js';
import { insertUserAsBeforeOrganisations, organisationMembers, userByEmail } from '../helpers/rows.js';
import { startServer, type TestServer } from '../helpers/server.js';

const PASSWORD = 'correct horse battery';

describe('migration 0080: accounts become organisations', () => {
  let server: TestServer;

  // Its own database: the migration is undone and done again under it.
  before(async () => {
    server = await startServer({ isolatedDatabase: true });
  });
  after(async () => {
    await server.close();
  });

  it('keys, idTokens, dashboard sessions and sign-in made before it still work after it, each account the owner of its organisation', async () => {
    const a = await signup(server.url);
    const key = await createKey(server.url, a.token, { mode: 'test', class: 'full' });
    const dashEmail = uniqueEmail('dash');
    const dash = new DashboardClient(server.url);
    await dash.signup(dashEmail);
    const b = (await userByEmail(server, dashEmail))!;

    const migrator = new Migrator({ db: server.deps.db, provider: migrationProvider });
    const down = await migrator.migrateTo('0077_awaiting_offline_payment');
    assert.equal(down.error, undefined);
    // Later migrations go down first (each its own); 0080 is the last to go.
    const steps = down.results?.map((r) => `${r.direction} ${r.migrationName} ${r.status}`) ?? [];
    assert.equal(steps.at(-1), 'Down 0080_organisations Success', steps.join('; '));
    assert.ok(
      steps.every((s) => /^Down 0(08\d|09\d|1\d\d)_\w+ Success$/.test(s)),
      steps.join('; '),
    );
    // An account as the sign-up before organisations wrote it: the user row alone.
    const oldEmail = uniqueEmail('old');
    const oldId = 'usr_BeforeOrgs0001';
    await insertUserAsBeforeOrganisations(server, {
      id: oldId,
      email: oldEmail,
      passwordHash: await hashPassword(PASSWORD),
      name: 'Before Teams',
    });

    const up = await migrator.migrateToLatest();
    assert.equal(up.error, undefined);
    // 0080 first, then whatever came after it (each its own).
    const ups = up.results?.map((r) => `${r.direction} ${r.migrationName} ${r.status}`) ?? [];
    assert.equal(ups[0], 'Up 0080_organisations Success', ups.join('; '));
    assert.deepEqual(
      ups.slice(1),
      steps
        .slice(0, -1)
        .reverse()
        .map((s) => s.replace(/^Down/, 'Up')),
    );

    for (const id of [a.userId, b.id, oldId]) {
      const rows = await organisationMembers(server, id);
      assert.deepEqual(
        rows.map((r) => [r.user_id, r.role, r.event_ids]),
        [[id, 'owner', null]],
      );
    }
    const me = await call(server.url, 'GET', '/api/v1/me', { key: key.key });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.userId, a.userId);
    const keys = await call(server.url, 'GET', '/dashboard/api/keys', { token: a.token });
    assert.equal(keys.status, 200, keys.text);
    assert.deepEqual(
      keys.body.data.map((k: { id: string }) => k.id),
      [key.keyId],
    );
    assert.equal((await dash.get('/dashboard/events')).status, 200);
    assert.equal((await dash.get('/dashboard/developers')).status, 200);

    const login = await call(server.url, 'POST', '/auth/login', {
      body: { email: oldEmail, password: PASSWORD },
    });
    assert.equal(login.status, 200, login.text);
    assert.equal(login.body.userId, oldId);
    const made = await createKey(server.url, login.body.idToken, { mode: 'test', class: 'full' });
    const theirs = await call(server.url, 'GET', '/api/v1/me', { key: made.key });
    assert.equal(theirs.body.userId, oldId);
    const members = await call(server.url, 'GET', '/dashboard/api/members', { token: login.body.idToken });
    assert.equal(members.status, 200);
    assert.deepEqual(
      members.body.data.map((m: { userId: string; role: string }) => [m.userId, m.role]),
      [[oldId, 'owner']],
    );
  });
});
