// An event's sale opening and waiting room (docs/decisions/26-a-fair-waiting-room.md): `onSale` on
// create, update and read, with its defaults, and every way it can be wrong answered 400.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEventData, keyApi } from '../helpers/factories.js';
import { organiser, type Account, type KeyInfo } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('on-sale settings of an event', () => {
  let server: TestServer;
  let org: Account & KeyInfo;
  before(async () => {
    server = await startServer();
    org = await organiser(server.url, 'test');
  });
  after(async () => server.close());
  const api = keyApi(
    () => server.url,
    () => org.key,
  );

  it('has no opening, the room off and no cap by default', async () => {
    const ev = await createEventData(api);
    assert.deepEqual(ev.onSale, {
      opensAt: null,
      waitingRoom: { enabled: false, admitPerMinute: 120, sessionMinutes: 10 },
      perBuyerLimit: null,
    });
  });

  it('is stored on create, read back in UTC, and changed field by field on update', async () => {
    const ev = await createEventData(api, {
      onSale: {
        opensAt: '2027-01-10T10:00:00+05:30',
        waitingRoom: { enabled: true, admitPerMinute: 300 },
        perBuyerLimit: 4,
      },
    });
    const want = {
      opensAt: '2027-01-10T04:30:00.000Z',
      waitingRoom: { enabled: true, admitPerMinute: 300, sessionMinutes: 10 },
      perBuyerLimit: 4,
    };
    assert.deepEqual(ev.onSale, want);
    assert.deepEqual((await api('GET', `/api/v1/events/${ev.id}`)).body.data.onSale, want);
    const patched = await api('PATCH', `/api/v1/events/${ev.id}`, {
      onSale: { waitingRoom: { sessionMinutes: 15 }, perBuyerLimit: null },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.data.onSale, {
      ...want,
      waitingRoom: { enabled: true, admitPerMinute: 300, sessionMinutes: 15 },
      perBuyerLimit: null,
    });
  });

  it('refuses what does not hold with 400 and a code', async () => {
    const ev = await createEventData(api);
    const cases: [unknown, string, string | undefined][] = [
      [{ opensAt: '2027-01-10' }, 'invalid_on_sale', 'onSale.opensAt'],
      [{ opensAt: '2027-13-45T10:00:00Z' }, 'invalid_on_sale', 'onSale.opensAt'],
      [{ opensAt: 'soon' }, 'invalid_on_sale', 'onSale.opensAt'],
      [{ waitingRoom: { admitPerMinute: 0 } }, 'invalid_request', undefined],
      [{ waitingRoom: { sessionMinutes: 121 } }, 'invalid_request', undefined],
      [{ waitingRoom: { admitPerMinute: 1.5 } }, 'invalid_request', undefined],
      [{ perBuyerLimit: 0 }, 'invalid_request', undefined],
      [{ waitingRoom: { enabled: 'yes' } }, 'invalid_request', undefined],
      [{ other: 1 }, 'invalid_request', undefined],
    ];
    for (const [onSale, code, field] of cases) {
      const r = await api('PATCH', `/api/v1/events/${ev.id}`, { onSale });
      assert.equal(r.status, 400, `${JSON.stringify(onSale)}: ${r.text}`);
      assert.equal(r.body.code, code, JSON.stringify(onSale));
      if (field) assert.equal(r.body.field, field);
    }
  });
});
