// The status answer's `soldOut` (docs/decisions/26-a-fair-waiting-room.md): once the event has no
// tickets left, every place's status says so, at the latest SOLD_OUT_CHECK_MS after the last seat
// went (the instance looks at most that often, never per call), and at once on the instance whose
// booking found the event full. With the queue in PostgreSQL and in Redis.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SOLD_OUT_CHECK_MS, SoldOutMemory } from '../../src/modules/waiting-room/sold-out.js';
import { createEventData, keyApi } from '../helpers/factories.js';
import { organiser, type Account, type KeyInfo } from '../helpers/http.js';
import { place, queueStatus, REDIS_URL, redisAnswers } from '../helpers/queue.js';
import { startServer, type TestServer } from '../helpers/server.js';

const redisUp = await redisAnswers();
const backends: { name: string; env: Record<string, string>; skip: string | false }[] = [
  { name: 'PostgreSQL', env: {}, skip: false },
  {
    name: 'Redis',
    env: { REDIS_URL },
    skip: !redisUp && !process.env.TEST_REDIS_URL && `no Redis answers at ${REDIS_URL}`,
  },
];

describe('the sold-out memory', () => {
  it('reads once per SOLD_OUT_CHECK_MS and event, whatever the number of calls', async () => {
    let now = 0;
    let soldOut = false;
    const loads: string[] = [];
    const memory = new SoldOutMemory(
      async (id) => {
        loads.push(id);
        return soldOut;
      },
      () => now,
    );
    for (let i = 0; i < 50; i++) assert.equal(await memory.get('ev_a'), false);
    assert.deepEqual(loads, ['ev_a']);
    soldOut = true;
    now = SOLD_OUT_CHECK_MS - 1;
    assert.equal(await memory.get('ev_a'), false, 'remembered');
    assert.equal(await memory.get('ev_b'), true, 'another event has its own');
    now = SOLD_OUT_CHECK_MS;
    assert.equal(await memory.get('ev_a'), true);
    assert.deepEqual(loads, ['ev_a', 'ev_b', 'ev_a']);
  });
});

for (const backend of backends) {
  describe(`soldOut in the status answer, queue in ${backend.name}`, { skip: backend.skip }, () => {
    let server: TestServer;
    let org: Account & KeyInfo;
    before(async () => {
      server = await startServer({ isolatedDatabase: true, env: backend.env });
      org = await organiser(server.url, 'test');
    });
    after(async () => server.close());
    const api = keyApi(
      () => server.url,
      () => org.key,
    );

    it('says soldOut to every place once the last ticket is booked, and not before', async () => {
      const ev = await createEventData(api, {
        capacity: 1,
        waitlist: { enabled: true, offerMinutes: 60 },
        onSale: { waitingRoom: { enabled: true, admitPerMinute: 60 } },
      });
      const asha = await place(server.url, ev.slug, 'asha@example.in');
      const ravi = await place(server.url, ev.slug, 'ravi@example.in');
      const before = await queueStatus(server.url, ev.slug, ravi.statusToken);
      assert.equal(before.state, 'waiting');
      assert.equal((before as { soldOut?: boolean }).soldOut, undefined);

      const booked = await api('POST', `/api/v1/events/${ev.id}/register`, {
        name: 'Asha',
        email: 'asha@example.in',
      });
      assert.equal(booked.status, 201, booked.text);
      // Within the memory's time the instance has not looked again; after it, everyone is told.
      const soon = await queueStatus(server.url, ev.slug, ravi.statusToken);
      assert.equal((soon as { soldOut?: boolean }).soldOut, undefined);
      server.clock.advance(SOLD_OUT_CHECK_MS);
      for (const p of [ravi, asha]) {
        const st = (await queueStatus(server.url, ev.slug, p.statusToken)) as { soldOut?: boolean };
        assert.equal(st.soldOut, true);
      }
    });

    it('says it at once on the instance whose booking found the event full', async () => {
      const ev = await createEventData(api, {
        capacity: 1,
        onSale: { waitingRoom: { enabled: true, admitPerMinute: 60 } },
      });
      const ravi = await place(server.url, ev.slug, 'ravi@example.in');
      assert.equal(
        ((await queueStatus(server.url, ev.slug, ravi.statusToken)) as { soldOut?: boolean }).soldOut,
        undefined,
      );
      const first = await api('POST', `/api/v1/events/${ev.id}/register`, {
        name: 'A',
        email: 'a@example.in',
      });
      assert.equal(first.status, 201, first.text);
      const refused = await api('POST', `/api/v1/events/${ev.id}/register`, {
        name: 'B',
        email: 'b@example.in',
      });
      assert.equal(refused.status, 409, refused.text);
      const st = (await queueStatus(server.url, ev.slug, ravi.statusToken)) as { soldOut?: boolean };
      assert.equal(st.soldOut, true);
    });
  });
}
