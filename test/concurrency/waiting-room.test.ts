// Two service instances on one database, and on one Redis when the queue lives there, show one
// waiting room (docs/decisions/26-a-fair-waiting-room.md): joins on either instance queue in one
// order, the same email has one place whichever instance it asks, a place joined on one
// instance is answered by the other, and the pre-queue opens once. The same contact verifying
// on both at once gets one place, and a code given to both at once is accepted once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/lib/clock.js';
import { createEventData, keyApi } from '../helpers/factories.js';
import { organiser } from '../helpers/http.js';
import {
  joinQueue,
  mailedCode,
  place,
  queueStatus,
  REDIS_URL,
  redisAnswers,
  verifyQueue,
} from '../helpers/queue.js';
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

for (const backend of backends) {
  describe(`two instances, one waiting room in ${backend.name}`, { skip: backend.skip }, () => {
    const clock = new ManualClock(new Date());
    let a: TestServer;
    let b: TestServer;
    before(async () => {
      // Instances of one service share SECRETS_KEY, which signs the queue's tokens and challenges.
      const env = { ...backend.env, SECRETS_KEY: 'waiting-room-instances-share-this-key-0123456789' };
      a = await startServer({ isolatedDatabase: true, clock, env });
      b = await startServer({ clock, env, shareDatabaseWith: a });
    });
    after(async () => {
      await b.close();
      await a.close();
    });

    it('queues joins on both in one order and answers each place on either', async () => {
      const org = await organiser(a.url, 'test');
      const opensAt = new Date(clock.now().getTime() + 60_000).toISOString();
      const ev = await createEventData(keyApi(a.url, org.key), {
        onSale: { opensAt, waitingRoom: { enabled: true, admitPerMinute: 60 } },
      });
      const early = [];
      for (let i = 0; i < 20; i++)
        early.push(await place(i % 2 ? a.url : b.url, ev.slug, `e${i}@example.in`));
      const again = await place(a.url, ev.slug, 'e0@example.in', b.url);
      assert.equal(again.placeId, early[0]!.placeId);
      clock.advance(60_000);
      // Both instances reach the opening at once: it happens once.
      const opened = await Promise.all(
        early.slice(0, 2).map((p, i) => queueStatus(i ? a.url : b.url, ev.slug, p.statusToken)),
      );
      assert.ok(opened.every((s) => s.position !== null));
      const late = [];
      for (let i = 0; i < 6; i++) late.push(await place(i % 2 ? b.url : a.url, ev.slug, `l${i}@example.in`));
      const seen = [];
      for (const [i, p] of [...early, ...late].entries())
        seen.push((await queueStatus(i % 2 ? b.url : a.url, ev.slug, p.statusToken)).position);
      assert.deepEqual(
        seen.slice(0, 20).sort((x, y) => x! - y!),
        early.map((_, i) => i + 1),
      );
      assert.deepEqual(seen.slice(20), [21, 22, 23, 24, 25, 26]);
      // Admission is one cursor: after 3 s the first three are in, whichever instance answers.
      clock.advance(3_000);
      const states = [];
      for (const [i, p] of early.entries()) {
        const s = await queueStatus(i % 2 ? a.url : b.url, ev.slug, p.statusToken);
        states.push(s.state === 'admitted' ? s.position : null);
      }
      assert.deepEqual(states.filter((x) => x !== null).sort(), [1, 2, 3]);
    });

    it('gives one place to a contact verifying on both at once, and accepts a code once', async () => {
      const org = await organiser(a.url, 'test');
      const ev = await createEventData(keyApi(a.url, org.key), {
        onSale: { waitingRoom: { enabled: true } },
      });
      const codeOf = async (url: string, email: string) => {
        const r = await joinQueue(url, ev.slug, email);
        assert.equal(r.status, 202, r.text);
        return { id: r.body.verificationId as string, code: await mailedCode(url, r.body.verificationId) };
      };
      for (let round = 0; round < 8; round++) {
        // One contact, a code on each instance (two devices), both given back at once.
        const email = `race${round}@example.in`;
        const [x, y] = [await codeOf(a.url, email), await codeOf(b.url, email)];
        const both = await Promise.all([
          verifyQueue(a.url, ev.slug, x.id, x.code),
          verifyQueue(b.url, ev.slug, y.id, y.code),
        ]);
        assert.deepEqual(
          both.map((r) => r.status),
          [200, 200],
        );
        assert.equal(both[0]!.body.placeId, both[1]!.body.placeId);
        // One code given to both instances at once: one place, one refusal.
        const z = await codeOf(b.url, `once${round}@example.in`);
        const once = await Promise.all([
          verifyQueue(a.url, ev.slug, z.id, z.code),
          verifyQueue(b.url, ev.slug, z.id, z.code),
        ]);
        assert.deepEqual(once.map((r) => r.status).sort(), [200, 400]);
        assert.equal(once.find((r) => r.status === 400)!.body.code, 'invalid_verification');
      }
      // Sixteen contacts, sixteen places, one queue.
      const last = await place(a.url, ev.slug, 'last@example.in', b.url);
      assert.equal((await queueStatus(b.url, ev.slug, last.statusToken)).position, 17);
    });
  });
}
