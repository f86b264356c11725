// An event's per-buyer limit across two service instances on one database
// (docs/decisions/26-a-fair-waiting-room.md): two bookings of one buyer at once, one on each
// instance, are counted one after the other under the buyer's locks, so they cannot both pass.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEventData, keyApi } from '../helpers/factories.js';
import { call, organiser } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('two instances, one per-buyer limit', () => {
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    a = await startServer();
    b = await startServer({ shareDatabaseWith: a });
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  it('lets one of two concurrent bookings of one buyer through, by email and by phone', async () => {
    const org = await organiser(a.url, 'test');
    const api = keyApi(a.url, org.key);
    for (const fields of [{}, { price: 100 }]) {
      const ev = await createEventData(
        api,
        { capacity: 200, maxTeamSize: 3, ...fields, onSale: { perBuyerLimit: 3 } },
        { publish: true },
      );
      const rounds = [];
      for (let i = 0; i < 8; i++) {
        // Two tickets each: either passes alone, the two together exceed 3.
        const one = (url: string, email: string) =>
          call(url, 'POST', `/api/v1/events/${ev.id}/register`, {
            key: org.key,
            body: {
              name: 'Asha',
              email,
              ...(i % 2 ? { phone: `+9198000000${String(i).padStart(2, '0')}` } : {}),
              teamMembers: [{ name: 'M', email: 'm@example.in' }],
            },
          });
        // Odd rounds: different emails, one phone; even rounds: one email.
        const emails =
          i % 2 ? [`p${i}a@example.in`, `p${i}b@example.in`] : [`e${i}@example.in`, `E${i}@example.in`];
        rounds.push(Promise.all([one(a.url, emails[0]!), one(b.url, emails[1]!)]));
      }
      for (const [i, answers] of (await Promise.all(rounds)).entries()) {
        const codes = answers.map((r) => (r.status === 201 ? 'booked' : r.body.code)).sort();
        assert.deepEqual(
          codes,
          ['booked', 'per_buyer_limit_reached'],
          `round ${i}: ${answers.map((r) => r.text)}`,
        );
      }
    }
  });
});
