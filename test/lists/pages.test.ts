// Lists are pages (docs/decisions/11-trust-and-safety.md) in memberships, webhooks and the sandbox, and
// the tables that only grow are pruned by the workers on a schedule of the injected clock.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { organiser, uniqueEmail, type Account, type KeyInfo } from '../helpers/http.js';
import { createEvent, keyApi } from '../helpers/factories.js';
import { addFinishedJob, addWebhookDeliveries, jobRow } from '../helpers/rows.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('pages and pruning', () => {
  let server: TestServer;
  let org: Account & KeyInfo;

  before(async () => {
    server = await startServer({ isolatedDatabase: true });
    org = await organiser(server.url);
  });
  after(async () => {
    await server.close();
  });

  const api = keyApi(
    () => server.url,
    () => org.key,
  );

  /** Reads every page of a list with the given page size; checks the page fields. */
  async function readAll(
    path: string,
    limit: number,
  ): Promise<{ ids: string[]; pages: number; count: number }> {
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    let count = -1;
    for (;;) {
      const sep = path.includes('?') ? '&' : '?';
      const r: any = await api(
        'GET',
        `${path}${sep}limit=${limit}${cursor ? `&startingAfter=${cursor}` : ''}`,
      );
      assert.equal(r.status, 200, r.text);
      pages++;
      assert.ok(r.body.data.length <= limit);
      assert.equal(typeof r.body.hasMore, 'boolean');
      if (count === -1) count = r.body.count;
      assert.equal(r.body.count, count, 'count is the total on every page');
      ids.push(...r.body.data.map((x: any) => x.id));
      if (!r.body.hasMore) {
        assert.equal(r.body.nextCursor, null);
        break;
      }
      cursor = r.body.nextCursor;
      assert.ok(cursor);
      assert.ok(pages < 50);
    }
    assert.equal(new Set(ids).size, ids.length, 'no item twice');
    return { ids, pages, count };
  }

  it('pages plans and members with limit, hasMore, nextCursor and startingAfter; count stays the total', async () => {
    const planIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      planIds.push(
        (
          await api('POST', '/api/v1/memberships/plans', {
            name: `P${i}`,
            amount: 10,
            kind: 'fixed_term',
            termMonths: 1,
          })
        ).body.data.id,
      );
      server.clock.advance(1);
    }
    const plans = await readAll('/api/v1/memberships/plans', 2);
    assert.deepEqual(plans.ids, planIds);
    assert.deepEqual([plans.pages, plans.count], [2, 3]);
    for (let i = 0; i < 5; i++)
      await api('POST', '/api/v1/memberships/subscribe', {
        planId: planIds[0],
        name: 'M',
        email: uniqueEmail(`m${i}`),
      });
    const members = await readAll(`/api/v1/memberships/members?planId=${planIds[0]}`, 2);
    assert.deepEqual([members.ids.length, members.pages, members.count], [5, 3, 5]);
    const all = await api('GET', '/api/v1/memberships/members');
    assert.deepEqual(
      [all.body.data.length, all.body.hasMore, all.body.count],
      [5, false, 5],
      'default limit 100',
    );
    for (const bad of ['limit=0', 'limit=1001', 'limit=x', 'startingAfter=not-a-cursor']) {
      const r = await api('GET', `/api/v1/memberships/members?${bad}`);
      assert.equal(r.status, 400, bad);
    }
    assert.equal((await api('GET', '/api/v1/memberships/plans?limit=1000')).status, 200);
  });

  it('pages webhook deliveries (the last 100 by default) and the sandbox mails', async () => {
    const now = server.clock.now().getTime();
    await addWebhookDeliveries(
      server,
      org.userId,
      Array.from({ length: 130 }, (_, i) => ({
        id: `dlv_page${String(i).padStart(3, '0')}`,
        eventId: `evt_${i}`,
        createdAt: new Date(now - i * 1000),
      })),
    );
    const first = await api('GET', '/api/v1/webhooks/deliveries');
    assert.equal(first.status, 200, first.text);
    assert.deepEqual([first.body.data.length, first.body.hasMore, first.body.count], [100, true, 130]);
    assert.equal(first.body.data[0].id, 'dlv_page000', 'newest first');
    const rest = await api('GET', `/api/v1/webhooks/deliveries?startingAfter=${first.body.nextCursor}`);
    assert.deepEqual(
      [rest.body.data.length, rest.body.hasMore, rest.body.data[0].id],
      [30, false, 'dlv_page100'],
    );
    const paged = await readAll('/api/v1/webhooks/deliveries', 40);
    assert.deepEqual([paged.ids.length, paged.pages], [130, 4]);

    const eventId = await createEvent(api, { title: 'Mails' });
    for (let i = 0; i < 3; i++)
      await api('POST', `/api/v1/events/${eventId}/register`, { name: `P${i}`, email: uniqueEmail('p') });
    assert.equal(
      (
        await api('POST', `/api/v1/events/${eventId}/broadcast`, {
          subject: 's',
          message: 'm',
          dryRun: false,
          confirmedRecipientCount: 3,
        })
      ).status,
      200,
    );
    const mails = await readAll('/api/v1/sandbox/emails', 2);
    assert.deepEqual([mails.ids.length, mails.pages, mails.count], [3, 2, 3]);
  });

  it("prunes webhook deliveries, sandbox mails and finished jobs older than their retention, on the workers' schedule", async () => {
    const old = server.clock.now();
    // Finished jobs: one done long ago.
    await addFinishedJob(server, 'job_oldone', 'test.prune', old);
    server.clock.advance(31 * 86_400_000);
    await addWebhookDeliveries(server, org.userId, [
      { id: 'dlv_fresh', eventId: 'evt_f', createdAt: server.clock.now() },
    ]);
    const ran = await server.deps.jobs.maintainIfDue();
    assert.deepEqual(ran.sort(), [
      'lapse waitlist offers',
      'maintain partitions',
      'offline payment deadlines',
      'prune finished jobs',
      'prune idempotency keys',
      'prune member codes',
      'prune sandbox mails',
      'prune webhook deliveries',
    ]);
    const deliveries = await api('GET', '/api/v1/webhooks/deliveries');
    assert.deepEqual(
      deliveries.body.data.map((d: any) => d.id),
      ['dlv_fresh'],
      'only the recent delivery is kept',
    );
    assert.equal((await api('GET', '/api/v1/sandbox/emails')).body.count, 0);
    assert.equal(await jobRow(server, 'job_oldone'), undefined);
    // Hourly: not again until the clock has moved on.
    assert.deepEqual(await server.deps.jobs.maintainIfDue(), []);
    server.clock.advance(60_000);
    assert.deepEqual(
      await server.deps.jobs.maintainIfDue(),
      ['lapse waitlist offers', 'offline payment deadlines'],
      'the offers and the offline payment deadlines every minute',
    );
    server.clock.advance(3_600_000);
    assert.equal((await server.deps.jobs.maintainIfDue()).length, 8);
  });
});
