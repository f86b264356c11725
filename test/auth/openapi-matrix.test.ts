// The authorisation matrix generated from the OpenAPI document: every operation, read
// with its declared rule (`x-auth`), is called as every kind of caller that rule must
// refuse, and the refusal is checked. A route added without a rule fails here.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, createKey, signup, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

type Rule = { kind: 'public'; rateLimit?: boolean } | { kind: 'key'; classes: string[]; modes?: string[] } | { kind: 'session' } | { kind: 'staff' };
interface Op {
  method: string;
  path: string;
  rule: Rule;
  op: any;
}

describe('authorisation matrix from the OpenAPI document', () => {
  let server: TestServer;
  let ops: Op[] = [];
  let owner: Account;
  const keys: Record<string, KeyInfo> = {};
  let revoked: KeyInfo;
  let stranger: KeyInfo;
  let plain: Account;
  let unverifiedStaff: Account;
  let eventId: string;
  const staffEmail = uniqueEmail('staff');

  before(async () => {
    server = await startServer({ env: { STAFF_EMAILS: staffEmail } });
    owner = await signup(server.url);
    for (const mode of ['test', 'live'] as const) {
      for (const cls of ['full', 'checkout'] as const) keys[`${cls}:${mode}`] = await createKey(server.url, owner.token, { mode, class: cls });
    }
    revoked = await createKey(server.url, owner.token, { mode: 'test', class: 'full' });
    assert.equal((await call(server.url, 'DELETE', `/dashboard/api/keys/${revoked.keyId}`, { token: owner.token })).status, 200);
    const other = await signup(server.url);
    stranger = await createKey(server.url, other.token, { mode: 'test', class: 'full' });
    plain = await signup(server.url);
    unverifiedStaff = await signup(server.url, { email: staffEmail, verified: false });
    eventId = (await call(server.url, 'POST', '/api/v1/events', { key: keys['full:test']!.key, body: { title: 'Matrix', description: 'x', startDate: '2026-12-01' } })).body.data.id;
    const doc = (await call(server.url, 'GET', '/api/v1/openapi.json')).body;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) ops.push({ method: method.toUpperCase(), path, rule: op['x-auth'], op });
    }
  });
  after(async () => {
    await server.close();
  });

  const url = (path: string) => path.replace(/\{id\}/g, eventId).replace(/\{[A-Za-z0-9_]+\}/g, 'x_unknown');
  const send = (o: Op, options: Parameters<typeof call>[3] = {}) => call(server.url, o.method, url(o.path), { ...(o.op.requestBody ? { body: {} } : {}), ...options });
  const shape = (r: { body: any }) => {
    assert.equal(typeof r.body?.error, 'string');
    assert.equal(typeof r.body?.code, 'string');
  };

  it('every operation declares a rule the matrix knows', () => {
    assert.ok(ops.length > 40, `${ops.length} operations`);
    for (const o of ops) {
      assert.ok(o.rule, `${o.method} ${o.path} has no x-auth rule`);
      assert.ok(['public', 'key', 'session', 'staff'].includes(o.rule.kind), `${o.method} ${o.path}: unknown rule ${JSON.stringify(o.rule)}`);
      if (o.rule.kind === 'key') assert.ok(o.rule.classes.length > 0);
      // The documented security matches the rule.
      const security = JSON.stringify(o.op.security ?? []);
      if (o.rule.kind === 'key') assert.equal(security, '[{"apiKey":[]}]', `${o.method} ${o.path}`);
      else if (o.rule.kind === 'public') assert.equal(security, '[]', `${o.method} ${o.path}`);
      else assert.equal(security, '[{"session":[]}]', `${o.method} ${o.path}`);
    }
  });

  it('no credentials: 401 wherever a key or session is needed; public operations never 401/403', async () => {
    for (const o of ops) {
      const r = await send(o);
      const where = `${o.method} ${o.path}: ${r.status} ${r.text.slice(0, 120)}`;
      if (o.rule.kind === 'public') {
        assert.ok(r.status !== 401 && r.status !== 403 && r.status < 500, where);
        continue;
      }
      assert.equal(r.status, 401, where);
      shape(r);
      assert.equal(r.body.code, o.rule.kind === 'key' ? 'missing_api_key' : 'missing_session', where);
    }
  });

  it('an unknown key or token: 401; a key where a session is needed: 401', async () => {
    for (const o of ops.filter((x) => x.rule.kind !== 'public')) {
      if (o.rule.kind === 'key') {
        const r = await send(o, { key: 'sk_test_' + 'Q'.repeat(32) });
        assert.equal(r.status, 401, `${o.method} ${o.path}`);
        assert.equal(r.body.code, 'invalid_api_key');
        const asSession = await send(o, { token: owner.token });
        assert.equal(asSession.status, 401, `${o.method} ${o.path} with a session instead of a key`);
      } else {
        const r = await send(o, { token: 'eyJhbGciOiJIUzI1NiJ9.e30.bogus' });
        assert.equal(r.status, 401, `${o.method} ${o.path}`);
        assert.equal(r.body.code, 'invalid_session');
        const asKey = await send(o, { key: keys['full:test']!.key });
        assert.equal(asKey.status, 401, `${o.method} ${o.path} with a key instead of a session`);
        assert.equal(asKey.body.code, 'missing_session');
      }
    }
  });

  it('a revoked key: 403 on every key operation', async () => {
    for (const o of ops.filter((x) => x.rule.kind === 'key')) {
      const r = await send(o, { key: revoked.key });
      assert.equal(r.status, 403, `${o.method} ${o.path}`);
      assert.equal(r.body.code, 'api_key_revoked');
    }
  });

  it('a key of a class or mode the rule leaves out: 403', async () => {
    for (const o of ops.filter((x) => x.rule.kind === 'key')) {
      const rule = o.rule as Extract<Rule, { kind: 'key' }>;
      for (const [name, k] of Object.entries(keys)) {
        const [cls, mode] = name.split(':') as [string, string];
        const r = await send(o, { key: k.key });
        const where = `${o.method} ${o.path} with ${name}: ${r.status} ${r.text.slice(0, 120)}`;
        if (!rule.classes.includes(cls)) {
          assert.equal(r.status, 403, where);
          assert.equal(r.body.code, 'checkout_key_not_allowed', where);
        } else if (rule.modes && !rule.modes.includes(mode)) {
          assert.equal(r.status, 403, where);
          assert.equal(r.body.code, `${rule.modes[0]}_mode_only`, where);
        } else {
          // Allowed through the door: whatever it answers, it is not an authentication refusal.
          assert.ok(r.status !== 401 && !['api_key_revoked', 'checkout_key_not_allowed', 'test_mode_only', 'live_mode_only'].includes(r.body?.code), where);
          assert.ok(r.status < 500, where);
        }
      }
    }
  });

  it("another account's event: 403; another mode's: 404 (reads of an event)", async () => {
    const eventReads = ops.filter((o) => o.rule.kind === 'key' && o.method === 'GET' && o.path.startsWith('/api/v1/events/{id}') && !/\{(?!id\})/.test(o.path));
    assert.ok(eventReads.length >= 3);
    for (const o of eventReads) {
      const mine = await send(o, { key: keys['full:test']!.key, ...(o.path.endsWith('/check-in') ? {} : {}) });
      const theirs = await send(o, { key: stranger.key });
      const otherMode = await send(o, { key: keys['full:live']!.key });
      const where = `${o.method} ${o.path}: mine ${mine.status}, theirs ${theirs.status} ${theirs.text.slice(0, 100)}, other mode ${otherMode.status}`;
      if (mine.status === 400) continue; // needs a query the matrix does not make up
      assert.equal(theirs.status, 403, where);
      assert.equal(otherMode.status, 404, where);
    }
  });

  it('staff operations: 403 for a session that is not staff, and for a staff address not yet verified', async () => {
    for (const o of ops.filter((x) => x.rule.kind === 'staff')) {
      for (const who of [plain, unverifiedStaff]) {
        const r = await send(o, { token: who.token });
        assert.equal(r.status, 403, `${o.method} ${o.path}`);
        assert.equal(r.body.code, 'staff_only');
      }
    }
  });

  it('live-only actions need a verified email: an unverified account gets 403 email_unverified', async () => {
    const unverified = await signup(server.url, { verified: false });
    for (const cls of ['full', 'checkout']) {
      const r = await call(server.url, 'POST', '/dashboard/api/keys', { token: unverified.token, body: { mode: 'live', class: cls } });
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'email_unverified');
    }
  });
});
