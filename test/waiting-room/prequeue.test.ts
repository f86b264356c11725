// The pre-queue (docs/decisions/26-a-fair-waiting-room.md): buyers who join before `opensAt` are
// shuffled at the opening, uniformly at random by a seed drawn then and kept in the audit log (the
// order is HMAC-SHA256(seed, placeId) ascending, which this test recomputes); later arrivals
// queue after them exactly in arrival order. With the queue in PostgreSQL and in Redis.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createEventData, keyApi } from '../helpers/factories.js';
import { organiser } from '../helpers/http.js';
import { place, queueStatus, REDIS_URL, redisAnswers } from '../helpers/queue.js';
import { startServer, type TestServer } from '../helpers/server.js';

const redisUp = await redisAnswers();
const backends: { name: string; env: Record<string, string>; skip: string | false }[] = [
  { name: 'PostgreSQL', env: {}, skip: false },
  {
    name: 'Redis',
    env: { REDIS_URL },
    skip: !redisUp && !process.env.TEST_REDIS_URL && `no Redis at ${REDIS_URL}`,
  },
];

/** Spearman's rank correlation of two orderings of 1..n. */
function spearman(a: number[], b: number[]): number {
  const n = a.length;
  const d2 = a.reduce((s, x, i) => s + (x - b[i]!) ** 2, 0);
  return 1 - (6 * d2) / (n * (n * n - 1));
}

for (const backend of backends) {
  describe(`the pre-queue, queue in ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer({ isolatedDatabase: true, env: backend.env });
    });
    after(async () => server.close());

    it('is shuffled at the opening by the audited seed, and later arrivals follow in order', async () => {
      const org = await organiser(server.url, 'test');
      const api = keyApi(server.url, org.key);
      const opensAt = new Date(server.clock.now().getTime() + 3_600_000).toISOString();
      const ev = await createEventData(api, {
        onSale: { opensAt, waitingRoom: { enabled: true, admitPerMinute: 10 } },
      });
      const early = [];
      for (let i = 0; i < 200; i++) early.push(await place(server.url, ev.slug, `early${i}@example.in`));
      const before = await queueStatus(server.url, ev.slug, early[0]!.statusToken);
      assert.deepEqual(
        [before.state, before.position, before.ahead, before.estimatedWaitSeconds],
        ['waiting', null, null, null],
      );

      server.clock.advance(3_600_000);
      const late = [];
      for (let i = 0; i < 5; i++) late.push(await place(server.url, ev.slug, `late${i}@example.in`));
      const positions = [];
      for (const p of early)
        positions.push((await queueStatus(server.url, ev.slug, p.statusToken)).position!);
      // A permutation of 1..200, far from the arrival order.
      assert.deepEqual(
        [...positions].sort((x, y) => x - y),
        early.map((_, i) => i + 1),
      );
      assert.notDeepEqual(
        positions,
        early.map((_, i) => i + 1),
      );
      // For a uniform shuffle of 200 the correlation's standard deviation is 1/√199 ≈ 0.07.
      assert.ok(
        Math.abs(
          spearman(
            positions,
            early.map((_, i) => i + 1),
          ),
        ) < 0.35,
      );
      const latePositions = [];
      for (const p of late)
        latePositions.push((await queueStatus(server.url, ev.slug, p.statusToken)).position);
      assert.deepEqual(latePositions, [201, 202, 203, 204, 205]);

      // The audit log keeps the seed; the order is HMAC-SHA256(seed, placeId), ascending.
      const log = await api('GET', `/api/v1/audit-log?action=event.queue_open&targetId=${ev.id}`);
      assert.equal(log.status, 200, log.text);
      assert.equal(log.body.data.length, 1);
      const seed = Buffer.from(log.body.data[0].after.shuffleSeed, 'hex');
      assert.equal(seed.length, 32);
      assert.equal(log.body.data[0].after.preQueue, 200);
      const byKey = early
        .map((p, i) => ({ i, k: createHmac('sha256', seed).update(p.placeId).digest('hex') }))
        .sort((x, y) => (x.k < y.k ? -1 : 1));
      const want = new Array<number>(200);
      byKey.forEach((x, rank) => {
        want[x.i] = rank + 1;
      });
      assert.deepEqual(positions, want);
    });
  });
}
