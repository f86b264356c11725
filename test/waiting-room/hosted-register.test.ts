// While an event's waiting room is on, the hosted page books only with the admission token its
// queue handed this email (docs/decisions/26-a-fair-waiting-room.md); the organiser's full key is
// not asked.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEventData, keyApi } from '../helpers/factories.js';
import { call, createKey, organiser, type Account, type KeyInfo } from '../helpers/http.js';
import { place, queueStatus } from '../helpers/queue.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('booking from the hosted page while the waiting room is on', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  let pk: string;
  before(async () => {
    server = await startServer({ isolatedDatabase: true });
    org = await organiser(server.url, 'test');
    pk = (await createKey(server.url, org.token, { mode: 'test', class: 'checkout' })).key;
  });
  after(async () => server.close());
  const register = (slug: string, body: Record<string, unknown>) =>
    call(server.url, 'POST', `/e/${slug}/register`, {
      body: { key: pk, name: 'Asha Rao', ...body },
      headers: { origin: server.url },
    });

  it('refuses without a valid admission token and books with one, until it lapses', async () => {
    const api = keyApi(server.url, org.key);
    const ev = await createEventData(
      api,
      { capacity: 10, onSale: { waitingRoom: { enabled: true, admitPerMinute: 60, sessionMinutes: 5 } } },
      { publish: true },
    );
    const none = await register(ev.slug, { email: 'asha@example.in' });
    assert.equal(none.status, 403, none.text);
    assert.equal(none.body.code, 'admission_required');
    assert.equal(none.body.field, 'admissionToken');

    const asha = await place(server.url, ev.slug, 'asha@example.in');
    const ravi = await place(server.url, ev.slug, 'ravi@example.in');
    assert.equal((await queueStatus(server.url, ev.slug, asha.statusToken)).state, 'waiting');
    server.clock.advance(1_000);
    const admitted = await queueStatus(server.url, ev.slug, asha.statusToken);
    assert.equal(admitted.state, 'admitted');
    const token = admitted.admissionToken!;

    // Not for another email, not made up, not for another event.
    for (const [body, why] of [
      [{ email: 'ravi@example.in', admissionToken: token }, 'another email'],
      [
        { email: 'asha@example.in', admissionToken: `${asha.placeId}.9999999999.AAAAAAAAAAAAAAAAAAAAAA` },
        'forged',
      ],
      [{ email: 'asha@example.in', admissionToken: 'nonsense' }, 'malformed'],
    ] as const) {
      const r = await register(ev.slug, body);
      assert.equal(r.status, 403, why);
      assert.equal(r.body.code, 'admission_required', why);
    }
    const other = await createEventData(
      api,
      { onSale: { waitingRoom: { enabled: true } } },
      { publish: true },
    );
    const elsewhere = await register(other.slug, { email: 'asha@example.in', admissionToken: token });
    assert.equal(elsewhere.body.code, 'admission_required');

    const booked = await register(ev.slug, { email: 'asha@example.in', admissionToken: token });
    assert.equal(booked.status, 201, booked.text);
    assert.equal(booked.body.status, 'confirmed');

    // Ravi is admitted a second later; his session lapses after sessionMinutes.
    server.clock.advance(1_000);
    const his = (await queueStatus(server.url, ev.slug, ravi.statusToken)).admissionToken!;
    server.clock.advance(5 * 60_000);
    const lapsed = await register(ev.slug, { email: 'ravi@example.in', admissionToken: his });
    assert.equal(lapsed.status, 403);
    assert.equal(lapsed.body.code, 'admission_required');
    assert.match(lapsed.body.error, /lapsed/);
    assert.equal((await queueStatus(server.url, ev.slug, ravi.statusToken)).state, 'closed');

    // The organiser's own full-key registration is not asked for a token.
    const direct = await api('POST', `/api/v1/events/${ev.id}/register`, {
      name: 'Kiran',
      email: 'kiran@example.in',
    });
    assert.equal(direct.status, 201, direct.text);
  });

  it('asks nothing while the room is off', async () => {
    const ev = await createEventData(keyApi(server.url, org.key), { capacity: 10 }, { publish: true });
    const r = await register(ev.slug, { email: 'free@example.in' });
    assert.equal(r.status, 201, r.text);
  });
});
