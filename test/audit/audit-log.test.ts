// The audit log (docs/decisions/17-the-organisers-office.md): a scripted organiser day over HTTP shows each
// change with its actor, the list pages and filters by target, secrets never appear, and
// the database refuses to change or delete an entry.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import {
  call,
  createKey,
  organiser,
  signup,
  uniqueEmail,
  type Account,
  type KeyInfo,
} from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEvent, keyApi, payInSandbox } from '../helpers/factories.js';

describe('the audit log', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let staff: Account;
  const staffEmail = uniqueEmail('staff');
  before(async () => {
    server = await startServer({ env: { STAFF_EMAILS: staffEmail } });
    org = await organiser(server.url, 'test');
    staff = await signup(server.url, { email: staffEmail });
    assert.equal(
      (
        await call(server.url, 'POST', `/admin/api/accounts/${org.userId}/organiser-access`, {
          token: staff.token,
          body: { canPublish: true },
        })
      ).status,
      200,
    );
  });
  after(async () => {
    await server.close();
  });
  const api = keyApi(
    () => server.url,
    () => org.key,
  );
  const log = async (query = '', key = org.key) => {
    const r = await api('GET', `/api/v1/audit-log${query}`, undefined, key);
    assert.equal(r.status, 200, r.text);
    return r.body as {
      data: {
        action: string;
        actor: { kind: string; id: string; display: string };
        target: { type: string; id: string };
        before: any;
        after: any;
        at: string;
      }[];
      hasMore: boolean;
      nextCursor: string | null;
    };
  };

  it('shows every action of an organiser day with its actor, newest first', async () => {
    const id = await createEvent(api, { title: 'Workshop', description: 'A day', price: 500, capacity: 10 });
    assert.equal(
      (await api('POST', `/api/v1/events/${id}/tracks`, { title: 'Morning', price: 500, capacity: 5 }))
        .status,
      201,
    );
    assert.equal(
      (await api('PATCH', `/api/v1/events/${id}/tracks/0`, { title: 'Morning session' })).status,
      200,
    );
    assert.equal((await api('PATCH', `/api/v1/events/${id}`, { status: 'published' })).status, 200);
    const book = async () => {
      const s1 = await api('POST', `/api/v1/events/${id}/register`, {
        name: 'Meera Iyer',
        email: uniqueEmail('b'),
        subEventId: '0',
      });
      assert.equal(s1.status, 201, s1.text);
      const paymentId = await payInSandbox(api, s1.body.orderId);
      const s2 = await api('POST', `/api/v1/events/${id}/register`, {
        registrationId: s1.body.registrationId,
        orderId: s1.body.orderId,
        paymentId,
      });
      assert.equal(s2.status, 200, s2.text);
      return s1.body.registrationId as string;
    };
    const [a, b, c] = [await book(), await book(), await book()];
    assert.equal((await api('POST', `/api/v1/events/${id}/registrations/${a}/cancel`)).status, 200);
    assert.equal((await api('POST', `/api/v1/events/${id}/registrations/${b}/refund`)).status, 200);
    const t = await api('POST', `/api/v1/events/${id}/registrations/${c}/transfer`, {
      name: 'Ravi Kumar',
      email: uniqueEmail('t'),
    });
    assert.equal(t.status, 200, t.text);
    const d = await book();
    assert.equal((await api('POST', `/api/v1/events/${id}/check-in`, { registrationId: d })).status, 201);
    assert.equal(
      (await api('POST', `/api/v1/events/${id}/check-in`, { registrationId: d, undo: true })).status,
      201,
    );
    const pass = await api('POST', `/api/v1/events/${id}/door-passes`, { label: 'Gate A' });
    assert.equal(pass.status, 201, pass.text);
    const token = String(pass.body.data?.url ?? pass.body.url).split('/door/')[1]!;
    assert.equal(
      (await api('DELETE', `/api/v1/events/${id}/door-passes/${pass.body.data?.id ?? pass.body.id}`)).status,
      200,
    );
    const preview = await api('POST', `/api/v1/events/${id}/broadcast`, {
      subject: 'Doors open at 9',
      message: 'See you there',
    });
    const sent = await api('POST', `/api/v1/events/${id}/broadcast`, {
      subject: 'Doors open at 9',
      message: 'See you there',
      dryRun: false,
      confirmedRecipientCount: preview.body.recipientCount ?? preview.body.data?.recipientCount,
    });
    assert.ok(sent.status === 200 || sent.status === 201, sent.text);
    const spare = await createKey(server.url, org.token);
    assert.equal(
      (await call(server.url, 'DELETE', `/dashboard/api/keys/${spare.keyId}`, { token: org.token })).status,
      200,
    );

    const entries = (await log()).data;
    const seen = entries.map((e) => `${e.action} ${e.target.type}:${e.target.id}`).reverse();
    const expected = [
      `event.create event:${id}`,
      `track.create track:${id}/0`,
      `track.update track:${id}/0`,
      `event.publish event:${id}`,
      `registration.cancel registration:${a}`,
      `registration.refund registration:${b}`,
      `registration.transfer registration:${c}`,
      `checkin.admit attendee:${d}`,
      `checkin.undo attendee:${d}`,
      `key.create key:${spare.keyId}`,
      `key.revoke key:${spare.keyId}`,
    ];
    assert.deepEqual(
      seen.filter((s) => expected.includes(s)),
      expected,
    );
    const byAction = (action: string) => entries.find((e) => e.action === action)!;
    // API key changes show the key by its prefix; the dashboard's session shows the person.
    assert.deepEqual(byAction('event.publish').actor, {
      kind: 'key',
      id: org.keyId,
      display: org.key.slice(0, 12),
    });
    assert.deepEqual(byAction('registration.refund').actor.kind, 'key');
    assert.deepEqual(byAction('key.revoke').actor, { kind: 'user', id: org.userId, display: org.email });
    assert.deepEqual(byAction('event.publish').before, { status: 'draft' });
    assert.deepEqual(byAction('event.publish').after, { status: 'published' });
    assert.deepEqual(byAction('registration.refund').after, { status: 'refunded', refund: 500, kept: 0 });
    assert.equal(byAction('registration.transfer').after.holder.name, 'Ravi Kumar');
    assert.deepEqual(byAction('checkin.admit').actor, {
      kind: 'key',
      id: org.keyId,
      display: org.key.slice(0, 12),
    });
    assert.deepEqual(
      [byAction('checkin.undo').before, byAction('checkin.undo').after],
      [{ checkedIn: true }, { checkedIn: false }],
    );
    for (const action of ['door_pass.create', 'door_pass.revoke', 'broadcast.send'])
      assert.equal(byAction(action)?.actor.kind, 'key', action);
    assert.ok(!JSON.stringify(entries).includes(token), 'no door pass token');
    assert.equal(
      byAction('event.create').at,
      server.clock.now().toISOString(),
      'time from the injected clock',
    );

    // Filter by target, and pages.
    const one = await log(`?targetType=registration&targetId=${b}`);
    // The booking's whole life: written by the key, paid (step 2 by the key), the refund claimed, then made.
    assert.deepEqual(
      one.data.map((e) => e.action),
      ['registration.refund', 'registration.refund_claim', 'registration.pay', 'registration.book'],
    );
    assert.ok(
      one.data.every((e) => e.actor.kind === 'key' && e.actor.id === org.keyId),
      'each with its actor',
    );
    assert.deepEqual(
      [one.data[3]!.before, one.data[3]!.after.status, one.data[1]!.after],
      [null, 'pending', { status: 'refunding', to: 'refunded', refund: 500, kept: 0 }],
    );
    const first = await log('?limit=2');
    assert.equal(first.data.length, 2);
    assert.equal(first.hasMore, true);
    const next = await log(`?limit=2&startingAfter=${first.nextCursor}`);
    assert.notDeepEqual(next.data[0], first.data[0]);
    assert.equal((await api('GET', '/api/v1/audit-log?limit=0')).status, 400);
    assert.equal((await api('GET', '/api/v1/audit-log?startingAfter=abc')).status, 400);
  });

  it('keeps no secret: a webhook’s signing secret and a new key never appear', async () => {
    const put = await api('PUT', '/api/v1/webhooks', { url: 'https://hooks.example.in/x' });
    assert.equal(put.status, 200, put.text);
    const made = await createKey(server.url, org.token);
    const text = JSON.stringify((await log()).data);
    assert.ok(text.includes('webhook_config.create'));
    assert.ok(!text.includes(put.body.secret), 'no signing secret');
    assert.ok(!text.includes(made.key), 'no key');
    assert.ok(!/hash|secret_sealed|password/i.test(text));
  });

  it('is scoped to the account and the key’s mode', async () => {
    const other = await organiser(server.url, 'test');
    assert.deepEqual(
      (await log('', other.key)).data.filter((e) => e.action !== 'key.create'),
      [],
    );
  });

  it('records a staff grant with the staff member as actor', async () => {
    const live = await createKey(server.url, org.token, { mode: 'live' });
    const grant = (await log('?action=account.organiser_access_grant', live.key)).data;
    assert.equal(grant.length, 1);
    assert.deepEqual(grant[0]!.actor, { kind: 'staff', id: staff.userId, display: staffEmail });
  });

  it('cannot be changed or deleted, even by SQL', async () => {
    for (const statement of [
      sql`update audit_log set action = 'x' where account_id = ${org.userId}`,
      sql`delete from audit_log where account_id = ${org.userId}`,
      sql`truncate audit_log`,
    ]) {
      await assert.rejects(statement.execute(server.deps.db), (err: Error & { code?: string }) => {
        assert.equal(err.code, '23001', err.message);
        assert.match(err.message, /append-only/);
        return true;
      });
    }
    assert.ok((await log()).data.length > 5);
  });
});
