// The events bookings are for are read together when asked for at the same time: the first
// read goes alone, those asked for while it is in flight go together in the next one, and
// each caller gets its own event (or nothing, for an id that names none).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { EventReads, MAX_READ } from '../../src/modules/events/event-reads.js';
import { call, organiser } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('event reads for bookings', () => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startServer();
    key = (await organiser(server.url)).key;
  });
  after(() => server.close());

  function counting(): { db: Kysely<Database>; statements: () => number } {
    let n = 0;
    const db = server.deps.db.withPlugin({
      transformQuery: (a) => {
        n++;
        return a.node;
      },
      transformResult: async (a) => a.result,
    });
    return { db, statements: () => n };
  }

  it('reads the events asked for at the same time in two statements, each caller its own', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await call(server.url, 'POST', '/api/v1/events', {
        key,
        body: { title: `E${i}`, description: 'x', startDate: '2026-12-31', capacity: 10 + i },
      });
      assert.equal(r.status, 201);
      ids.push(r.body.data.id);
    }
    await call(server.url, 'POST', `/api/v1/events/${ids[2]}/register`, {
      key,
      body: { name: 'A', email: 'a@example.in' },
    });
    const { db, statements } = counting();
    const reads = new EventReads(db);
    const asked = [...ids, 'evt_none', ...ids, ...ids];
    const rows = await Promise.all(asked.map((id) => reads.read(id)));
    assert.equal(statements(), 2, 'the first alone, every other together');
    asked.forEach((id, i) => {
      if (id === 'evt_none') assert.equal(rows[i], undefined);
      else assert.deepEqual([rows[i]!.id, rows[i]!.capacity], [id, 10 + ids.indexOf(id)]);
    });
    assert.equal(Number(rows[2]!.seats_taken), 1, 'with the seats its counter says are taken');
    assert.ok(MAX_READ >= asked.length);
  });
});
