// Jobs are never silently dropped (docs/decisions/12-money-integrity.md): a failing job is retried with
// capped back-off for at least 72 hours, then parked as dead, listed for staff and
// retried on demand. A job whose worker died counts as an attempt. The clock is moved,
// never slept on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { defineJob, enqueue, handleJob } from '../../src/jobs/queue.js';
import { call, signup, uniqueEmail, type Account } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('dead jobs', () => {
  let server: TestServer;
  let other: Account;
  const staffEmail = uniqueEmail('staff');
  let n = 0;
  const topic = () => `test.dead.${process.pid}.${Date.now()}.${++n}`;
  const job = (id: string) =>
    server.deps.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  before(async () => {
    server = await startServer({ isolatedDatabase: true, env: { STAFF_EMAILS: staffEmail } });
    await signup(server.url, { email: staffEmail });
    other = await signup(server.url);
  });
  after(async () => {
    await server.close();
  });

  it('retries a failing job with back-off capped at an hour for 72 hours, then parks it as dead for staff, who retry it', async () => {
    const t = topic();
    let calls = 0;
    let healthy = false;
    handleJob(server.deps.jobHandlers, defineJob<any>(t), async () => {
      calls++;
      if (!healthy) throw new Error(`smtp down ${calls}`);
    });
    const started = server.clock.now().getTime();
    const id = await enqueue(server.deps.db, server.deps, defineJob(t), { x: 1 });
    const delays: number[] = [];
    for (let i = 0; i < 200; i++) {
      await server.deps.jobs.runOnce();
      const row = await job(id);
      if (row.status !== 'pending') break;
      const wait = row.run_at.getTime() - server.clock.now().getTime();
      delays.push(wait);
      server.clock.advance(wait);
    }
    const row = await job(id);
    assert.equal(row.status, 'dead');
    assert.ok(calls > 10, `retried more than ten times (${calls})`);
    assert.ok(Math.max(...delays) <= 3_600_000, 'no wait is longer than an hour');
    assert.equal(delays[0], 1000);
    assert.ok(server.clock.now().getTime() - started >= 72 * 3_600_000, 'retried for at least 72 hours');
    assert.ok(server.clock.now().getTime() - started < 74 * 3_600_000);
    assert.match(row.last_error ?? '', /smtp down/);

    // Staff see it, in pages.
    const login = async (email: string) =>
      (await call(server.url, 'POST', '/auth/login', { body: { email, password: 'correct horse battery' } }))
        .body.idToken as string;
    const forbidden = await call(server.url, 'GET', '/admin/api/jobs?status=dead', {
      token: await login(other.email),
    });
    assert.equal(forbidden.status, 403);
    const token = await login(staffEmail);
    const list = await call(server.url, 'GET', '/admin/api/jobs?status=dead&limit=1', { token });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.data[0].id, id);
    assert.equal(list.body.data[0].topic, t);
    assert.equal(list.body.data[0].payload, undefined, 'no payload shown');
    assert.equal(list.body.count, 1);
    assert.equal(list.body.hasMore, false);
    assert.equal(list.body.nextCursor, null);
    assert.equal((await call(server.url, 'GET', '/admin/api/jobs?limit=1001', { token })).status, 400);
    assert.equal(
      (await call(server.url, 'GET', '/admin/api/jobs?startingAfter=nonsense', { token })).status,
      400,
    );

    // Retried on demand: runs at once and succeeds now that the cause is gone.
    healthy = true;
    const retried = await call(server.url, 'POST', `/admin/api/jobs/${id}/retry`, { token });
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.body.data.status, 'pending');
    await server.deps.jobs.runOnce();
    assert.equal((await job(id)).status, 'done');
    const again = await call(server.url, 'POST', `/admin/api/jobs/${id}/retry`, { token });
    assert.deepEqual([again.status, again.body.code], [409, 'job_not_dead']);
    assert.equal((await call(server.url, 'POST', '/admin/api/jobs/job_nope/retry', { token })).status, 404);
  });

  it('pages the dead list with nextCursor and startingAfter', async () => {
    const t = topic();
    handleJob(server.deps.jobHandlers, defineJob<any>(t), async () => {
      throw new Error('no');
    });
    for (let i = 0; i < 3; i++) {
      await enqueue(server.deps.db, server.deps, defineJob(t, { maxAttempts: 1 }), { i });
      server.clock.advance(1);
    }
    for (let i = 0; i < 5; i++) await server.deps.jobs.runOnce();
    const token = (
      await call(server.url, 'POST', '/auth/login', {
        body: { email: staffEmail, password: 'correct horse battery' },
      })
    ).body.idToken as string;
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const r: any = await call(
        server.url,
        'GET',
        `/admin/api/jobs?status=dead&limit=2${cursor ? `&startingAfter=${cursor}` : ''}`,
        { token },
      );
      assert.equal(r.status, 200, r.text);
      assert.ok(r.body.data.length <= 2);
      seen.push(...r.body.data.map((j: any) => j.id));
      cursor = r.body.nextCursor;
      if (!r.body.hasMore) break;
    }
    assert.equal(new Set(seen).size, seen.length, 'no job twice');
    assert.ok(seen.length >= 3);
  });

  it('counts a died worker as an attempt: a one-attempt job is never run twice', async () => {
    const t = topic();
    let runs = 0;
    handleJob(server.deps.jobHandlers, defineJob<any>(t), async () => {
      runs++;
    });
    const id = await enqueue(server.deps.db, server.deps, defineJob(t, { maxAttempts: 1 }), {});
    // A worker claimed it (attempt 1) and died before finishing.
    await server.deps.db
      .updateTable('jobs')
      .set({
        locked_by: 'wrk_dead',
        locked_until: new Date(server.clock.now().getTime() + 60_000),
        attempts: 1,
      })
      .where('id', '=', id)
      .execute();
    server.clock.advance(61_000);
    for (let i = 0; i < 5; i++) {
      await server.deps.jobs.runOnce();
      server.clock.advance(3_600_000);
    }
    assert.equal(runs, 0);
    const row = await job(id);
    assert.equal(row.status, 'dead');
    assert.match(row.last_error ?? '', /lease expired/);
  });

  it('parks a job whose workers keep dying once its retry window has passed', async () => {
    const t = topic();
    handleJob(server.deps.jobHandlers, defineJob<any>(t), async () => {});
    const id = await enqueue(server.deps.db, server.deps, defineJob(t), {});
    for (let i = 0; i < 200; i++) {
      const row = await job(id);
      if (row.status !== 'pending') break;
      // Every claim dies: a lease that expires without a finish.
      await server.deps.db
        .updateTable('jobs')
        .set({
          locked_by: 'wrk_dead',
          locked_until: new Date(server.clock.now().getTime() + 60_000),
          attempts: row.attempts + 1,
        })
        .where('id', '=', id)
        .execute();
      server.clock.advance(61_000);
      await server.deps.jobs.reapExpiredLeases(server.clock.now());
      const next = await job(id);
      if (next.status === 'pending')
        server.clock.advance(Math.max(0, next.run_at.getTime() - server.clock.now().getTime()));
    }
    assert.equal((await job(id)).status, 'dead');
  });
});
