import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, describe, it } from 'node:test';
import { defineJob, enqueue, handleJob, handleJobs, JobRunner, retryDelayMs } from '../../src/jobs/queue.js';
import { randomIds } from '../../src/lib/ids.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('retryDelayMs', () => {
  it('doubles from one second and stops at an hour', () => {
    assert.deepEqual([1, 2, 3, 4].map(retryDelayMs), [1000, 2000, 4000, 8000]);
    assert.equal(retryDelayMs(30), 3_600_000);
  });
});

describe('durable job queue', () => {
  let server: TestServer;
  // Jobs of other test files may share the table on PostgreSQL: every test uses its own topic.
  let n = 0;
  const topic = () => `test.${process.pid}.${Date.now()}.${++n}`;
  const job = (id: string) =>
    server.deps.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const drain = async (until: () => Promise<boolean>) => {
    for (let i = 0; i < 100 && !(await until()); i++) await server.deps.jobs.runOnce();
  };

  before(async () => {
    server = await startServer({ isolatedDatabase: true });
  });
  after(async () => {
    await server.close();
  });

  it('keeps a job only when its transaction commits, and runs it exactly once', async () => {
    const t = topic();
    const seen: unknown[] = [];
    handleJob(server.deps.jobHandlers, defineJob<any>(t), async (payload) => {
      seen.push(payload);
    });
    await assert.rejects(
      server.deps.db.transaction().execute(async (trx) => {
        await enqueue(trx, server.deps, defineJob(t), { n: 'rolled back' });
        throw new Error('abort');
      }),
    );
    const id = await server.deps.db
      .transaction()
      .execute((trx) => enqueue(trx, server.deps, defineJob(t), { n: 'committed' }));
    await drain(async () => (await job(id)).status === 'done');
    await server.deps.jobs.runOnce();
    assert.deepEqual(seen, [{ n: 'committed' }]);
    const row = await job(id);
    assert.equal(row.status, 'done');
    assert.equal(row.attempts, 1);
    assert.ok(row.finished_at);
    assert.equal(
      (await server.deps.db.selectFrom('jobs').select('id').where('topic', '=', t).execute()).length,
      1,
      'the rolled-back job never existed',
    );
  });

  it('hands a batch handler every claimed job of its topic at once, and settles each job by its own answer', async () => {
    const t = topic();
    const calls: number[][] = [];
    handleJobs(server.deps.jobHandlers, defineJob<{ n: number }>(t), async (jobs) => {
      calls.push(jobs.map((j) => j.payload.n));
      return jobs.map((j) => (j.payload.n === 3 ? new Error('three refused') : undefined));
    });
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++)
      ids.push(await enqueue(server.deps.db, server.deps, defineJob<{ n: number }>(t), { n: i }));
    await drain(async () => calls.length > 0);
    assert.equal(calls.length, 1, 'one call for the five jobs');
    assert.deepEqual([...calls[0]!].sort(), [1, 2, 3, 4, 5]);
    const rows = await Promise.all(ids.map(job));
    assert.deepEqual(
      rows.map((r) => r.status),
      ['done', 'done', 'pending', 'done', 'done'],
    );
    assert.equal(rows[2]!.last_error, 'three refused');
    assert.equal(
      rows[2]!.run_at.getTime() - server.clock.now().getTime(),
      1000,
      'the refused job waits its back-off',
    );
    server.clock.advance(1000);
    await drain(async () => calls.length > 1);
    assert.deepEqual(calls[1], [3], 'only the refused job runs again');
  });

  it('retries a failing job only after its back-off, then parks it as dead with the error kept', async () => {
    const t = topic();
    let calls = 0;
    handleJob(server.deps.jobHandlers, defineJob<any>(t), async () => {
      calls++;
      throw new Error(`boom ${calls}`);
    });
    const id = await enqueue(server.deps.db, server.deps, defineJob(t), {}, { maxAttempts: 3 });
    await drain(async () => calls >= 1);
    assert.equal(calls, 1);
    await server.deps.jobs.runOnce();
    assert.equal(calls, 1, 'not before the back-off');
    let row = await job(id);
    assert.equal(row.status, 'pending');
    assert.equal(row.last_error, 'boom 1');
    assert.equal(row.run_at.getTime() - server.clock.now().getTime(), 1000);
    server.clock.advance(1000);
    await drain(async () => calls >= 2);
    server.clock.advance(2000);
    await drain(async () => calls >= 3);
    row = await job(id);
    assert.equal(row.status, 'dead');
    assert.equal(row.attempts, 3);
    assert.equal(row.last_error, 'boom 3');
    server.clock.advance(3_600_000);
    await server.deps.jobs.runOnce();
    assert.equal(calls, 3, 'a dead job is not run again');
  });

  it('runs again a job whose worker died, once its lease has expired', async () => {
    const t = topic();
    let runs = 0;
    handleJob(server.deps.jobHandlers, defineJob<any>(t), async () => {
      runs++;
    });
    const id = await enqueue(server.deps.db, server.deps, defineJob(t), {});
    // A worker that claimed the job and then died: a lease in the future, never finished.
    await server.deps.db
      .updateTable('jobs')
      .set({
        locked_by: 'wrk_dead',
        locked_until: new Date(server.clock.now().getTime() + 60_000),
        attempts: 1,
      })
      .where('id', '=', id)
      .execute();
    await server.deps.jobs.runOnce();
    assert.equal(runs, 0, 'the lease is still held');
    server.clock.advance(61_000);
    await server.deps.jobs.runOnce();
    assert.equal(runs, 0, "the dead worker's attempt counts: the job waits its back-off");
    assert.match((await job(id)).last_error ?? '', /lease expired/);
    server.clock.advance(1_000);
    await drain(async () => (await job(id)).status === 'done');
    assert.equal(runs, 1);
    assert.equal((await job(id)).attempts, 2);
  });

  it('runs each job exactly once when several runners claim at the same time', async () => {
    const t = topic();
    const runs = new Map<number, number>();
    handleJob(server.deps.jobHandlers, defineJob<any>(t), async (payload) => {
      const i = (payload as { i: number }).i;
      runs.set(i, (runs.get(i) ?? 0) + 1);
    });
    for (let i = 0; i < 60; i++) await enqueue(server.deps.db, server.deps, defineJob(t), { i });
    const runners = [0, 1, 2].map(
      () =>
        new JobRunner({
          db: server.deps.db,
          clock: server.clock,
          ids: randomIds,
          logger: server.deps.logger,
          handlers: server.deps.jobHandlers,
          batchSize: 7,
        }),
    );
    for (let round = 0; round < 20 && runs.size < 60; round++)
      await Promise.all(runners.map((r) => r.runOnce()));
    assert.equal(runs.size, 60);
    assert.ok(
      [...runs.values()].every((c) => c === 1),
      'no job ran twice',
    );
  });

  it('runs jobs due at the same instant in the order they were enqueued (JOB_BATCH_SIZE=1: one at a time)', async () => {
    const t = topic();
    const order: number[] = [];
    let running = 0;
    handleJob(server.deps.jobHandlers, defineJob<{ i: number }>(t), async ({ i }) => {
      assert.equal(++running, 1, 'one job at a time');
      order.push(i);
      await new Promise((r) => setImmediate(r));
      running--;
    });
    // One instant for all of them: the injected clock stands still, so run_at and created_at tie.
    for (let i = 0; i < 12; i++) await enqueue(server.deps.db, server.deps, defineJob(t), { i });
    // Rewriting the first half moves their rows behind the others in the table: table order is not enqueue order.
    await sql`update jobs set last_error = null where topic = ${t} and (payload->>'i')::int < 6`.execute(
      server.deps.db,
    );
    const one = new JobRunner({
      db: server.deps.db,
      clock: server.clock,
      ids: randomIds,
      logger: server.deps.logger,
      handlers: server.deps.jobHandlers,
      batchSize: 1,
    });
    for (let k = 0; k < 12; k++) assert.equal(await one.runOnce(), 1);
    assert.deepEqual(order, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });
});
