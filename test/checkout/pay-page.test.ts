// GET /e/{slug}/pay takes the order id from the query: anything but an id's characters is a
// 400 page before anything reads the database (the fuzz found `?order=%00` answering 500:
// PostgreSQL refuses a NUL byte in text).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('the payment page’s order id', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.close();
  });

  it('refuses a NUL byte or other characters with 400, never 500', async () => {
    for (const order of ['%00', 'order_1%00', '%27%3B--', 'a%20b']) {
      const r = await call(server.url, 'GET', `/e/some-event/pay?order=${order}`);
      assert.equal(r.status, 400, `order=${order}: ${r.status}`);
    }
    assert.equal(
      (await call(server.url, 'GET', '/e/some-event/pay?order=order_ABC123')).status,
      404,
      'a well-formed id of no event is 404',
    );
  });
});
